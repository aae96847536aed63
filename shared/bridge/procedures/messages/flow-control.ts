// Flow-control keys (`/v2/flowControl…`): every key with its limits and what is in use now, one key, pause
// and resume, pin and unpin its settings, reset its rate period; pause, resume or reset many as a job; and, where the service is the local stack,
// a key's recent history and why a message waits (null elsewhere: the cloud has neither).
import { z } from 'zod';
import {
  checkFlowControlPin,
  type FlowControlHistory,
  type FlowControlMessageHold,
  type FlowControlInfo,
  type GlobalParallelismInfo,
  MAX_FLOW_CONTROL_KEY_LENGTH,
} from '../../../messages/flow-control';
import { call, job } from '../../define';
import { jobInput, type JobSummary, jobTargetSchema } from '../../job';
import { profileIdSchema as profileId } from '../../profile-id';

export const flowControlKeySchema = z
  .string()
  .min(1, 'a flow-control key is required')
  .max(
    MAX_FLOW_CONTROL_KEY_LENGTH,
    `a flow-control key has at most ${MAX_FLOW_CONTROL_KEY_LENGTH} characters`,
  );

export interface FlowControlOverview {
  /** By key. */
  keys: FlowControlInfo[];
  global: GlobalParallelismInfo;
  /**
   * False when the service's list gave waiting counts only (the vendor's documented list item is
   * `{flowControlKey, waitlistSize}`): the limits and counts of a key then come from opening it.
   */
  detailed: boolean;
}

const keyInput = z.object({ profileId, key: flowControlKeySchema });

/** The list's search and "waiting only" switch, as a job's filter (at least one set, or "all"). */
export const flowKeyFiltersSchema = z.object({
  search: z.string().trim().min(1).max(MAX_FLOW_CONTROL_KEY_LENGTH).optional(),
  waitingOnly: z.literal(true).optional(),
});

export const flowKeyTargetSchema = jobTargetSchema(flowKeyFiltersSchema, {
  id: flowControlKeySchema,
  max: 10_000,
  what: 'key',
});
export type FlowKeyTarget = z.input<typeof flowKeyTargetSchema>;

/** What a job over many keys does to each: the per-key actions that need no settings. */
export const FLOW_KEY_JOB_ACTIONS = ['pause', 'resume', 'resetRate'] as const;
export type FlowKeyJobAction = (typeof FLOW_KEY_JOB_ACTIONS)[number];
const limit = z.number().int();

/** What a change to a key makes stale. */
const CHANGES = {
  invalidates: [
    'messages.flowControl.list',
    'messages.flowControl.get',
    'messages.flowControl.history',
    'messages.flowControl.hold',
  ],
} as const;

export const flowControlProcedures = {
  'messages.flowControl.list': call<FlowControlOverview>()(
    z.object({ profileId, search: z.string().max(MAX_FLOW_CONTROL_KEY_LENGTH).optional() }),
    'read',
  ),
  'messages.flowControl.get': call<FlowControlInfo>()(keyInput, 'read'),
  /** The key's waiting and delivered counts over the last minutes; null where the service keeps none. */
  'messages.flowControl.history': call<FlowControlHistory | null>()(keyInput, 'read'),
  /** Whether the key holds this message now, and how many wait ahead of it; null where unknown. */
  'messages.flowControl.hold': call<FlowControlMessageHold | null>()(
    keyInput.extend({ messageId: z.string().min(1).max(200) }),
    'read',
  ),
  /** Pause holds the key's deliveries (nothing is lost); resume releases them in order. Answers the key. */
  'messages.flowControl.setPaused': call<FlowControlInfo>()(
    keyInput.extend({ paused: z.boolean() }),
    'write',
    CHANGES,
  ),
  /** Fixes parallelism and/or rate and period (seconds) until unpinned; starts a new rate period. */
  'messages.flowControl.pin': call<FlowControlInfo>()(
    keyInput
      .extend({ parallelism: limit.optional(), rate: limit.optional(), period: limit.optional() })
      .superRefine((pin, ctx) => {
        const problem = checkFlowControlPin(pin);
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      }),
    'write',
    CHANGES,
  ),
  /** Lets new messages change the key's settings again. */
  'messages.flowControl.unpin': call<FlowControlInfo>()(
    keyInput
      .extend({ parallelism: z.boolean(), rate: z.boolean() })
      .refine((unpin) => unpin.parallelism || unpin.rate, 'choose parallelism, rate or both to unpin'),
    'write',
    CHANGES,
  ),
  /** Clears the current rate period's count: the period starts again now. */
  'messages.flowControl.resetRate': call<FlowControlInfo>()(keyInput, 'write', CHANGES),
  /** Pause, resume or reset the rate of many keys: the ones the list shows, or every key (a job). */
  'messages.flowControl.job': job<JobSummary>()(
    jobInput({ action: z.enum(FLOW_KEY_JOB_ACTIONS), target: flowKeyTargetSchema }),
    'write',
    { invalidates: [...CHANGES.invalidates, 'jobs.list'] },
  ),
};
