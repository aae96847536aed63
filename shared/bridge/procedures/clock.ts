// The local stack's clock and "run now" (stack/local/, under /local/ — local only: the cloud services have
// neither). Every procedure takes the profile and main refuses any but the Local profile, so the console never
// sends these anywhere but the stack it supervises (main/core/services/stack-clock/).
import { z } from 'zod';
import type { ClockState, DueItem } from '../../local-stack/clock';
import { MAX_ADVANCE_MS } from '../../local-stack/clock';
import { call } from '../define';
import { profileIdSchema as profileId } from '../profile-id';

const id = z.string().trim().min(1).max(400);

/** The item to run now, or whose waiting items to list: a message, a workflow run or a schedule. */
export const clockItemSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('message'), messageId: id }),
  z.object({ kind: z.literal('workflowRun'), workflowRunId: id }),
  z.object({ kind: z.literal('schedule'), scheduleId: id }),
]);
export type ClockItem = z.infer<typeof clockItemSchema>;

/**
 * How far to advance: a duration (`1h`, `7d`, `1d12h`), milliseconds, or `to` a clock time (the "to the next due
 * item" preset: main measures the distance from the clock as it reads it then, not as the page last saw it).
 */
export const advanceSchema = z.union([
  z.object({ duration: z.string().trim().min(1).max(50) }),
  z.object({ ms: z.number().int().min(1).max(MAX_ADVANCE_MS) }),
  z.object({ to: z.number().int().min(1) }),
]);
export type AdvanceBy = z.infer<typeof advanceSchema>;

export const clockProcedures = {
  /** The stack's time, how far it is ahead of the wall clock, and what it fires next. */
  'stack.clock.get': call<ClockState>()(z.object({ profileId }), 'read'),
  /** Moves the stack clock forward: everything that falls due on the way fires. */
  'stack.clock.advance': call<ClockState>()(z.object({ profileId, by: advanceSchema }), 'write', {
    invalidates: [
      'stack.clock.get',
      'stack.clock.due',
      'messages.logs.list',
      'messages.dlq.list',
      'workflows.runs.list',
      'workflows.runs.get',
      'workflows.dlq.list',
    ],
  }),
  /** What of a message, run or schedule waits for the clock (empty: nothing). */
  'stack.clock.due': call<DueItem[]>()(z.object({ profileId, item: clockItemSchema }), 'read'),
  /** Runs the item's waiting delivery, sleep, wait timeout or tick now, without moving the clock. */
  'stack.clock.runNow': call<DueItem>()(z.object({ profileId, item: clockItemSchema }), 'write', {
    invalidates: [
      'stack.clock.get',
      'stack.clock.due',
      'messages.logs.list',
      'workflows.runs.list',
      'workflows.runs.get',
    ],
  }),
};
