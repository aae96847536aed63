// Log events (one per state change, newest first, page by page) → one row per message with its attempt
// trail, the way operators read deliveries: CREATED → ACTIVE → ERROR → RETRY → … → DELIVERED / FAILED.
import type { LogEntry, MessageState } from '../../../../../shared/messages/types';

export interface MessageTrail {
  messageId: string;
  /** Oldest first. */
  events: LogEntry[];
  latest: LogEntry;
}

export const FINAL_STATES: ReadonlySet<MessageState> = new Set(['DELIVERED', 'FAILED', 'CANCELLED']);

/** Identity of an event (the service gives events no id). */
export function eventKey(event: LogEntry): string {
  return `${event.messageId}|${event.time}|${event.state}|${event.responseStatus ?? ''}|${event.nextDeliveryTime ?? ''}`;
}

/** Concatenates event lists, dropping repeats (a refreshed first page overlaps the loaded ones). */
export function mergeEvents(...lists: LogEntry[][]): LogEntry[] {
  const seen = new Set<string>();
  const out: LogEntry[] = [];
  for (const list of lists) {
    for (const event of list) {
      const key = eventKey(event);
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(event);
    }
  }
  return out;
}

const STATE_ORDER: Record<MessageState, number> = {
  CREATED: 0,
  ACTIVE: 1,
  ERROR: 2,
  RETRY: 3,
  CANCEL_REQUESTED: 4,
  DELIVERED: 5,
  FAILED: 5,
  CANCELLED: 5,
};

/** Oldest first; same-millisecond events in lifecycle order (the last attempt's ERROR before FAILED). */
export function compareLifecycle(a: LogEntry, b: LogEntry): number {
  return a.time - b.time || STATE_ORDER[a.state] - STATE_ORDER[b.state];
}

/** Groups events by message; messages ordered by their latest event, newest first. */
export function groupByMessage(events: LogEntry[]): MessageTrail[] {
  const byId = new Map<string, LogEntry[]>();
  for (const event of events) {
    const list = byId.get(event.messageId);
    if (list) list.push(event);
    else byId.set(event.messageId, [event]);
  }
  const trails: MessageTrail[] = [];
  for (const [messageId, list] of byId) {
    // Same-millisecond events keep the lifecycle order (CREATED before ACTIVE before ERROR…).
    list.sort(compareLifecycle);
    trails.push({ messageId, events: list, latest: list[list.length - 1]! });
  }
  trails.sort((a, b) => b.latest.time - a.latest.time);
  return trails;
}

export type TrailStep =
  | { kind: 'state'; state: MessageState }
  | { kind: 'gap'; attempts: number; hidden: number }
  /** The trail starts after CREATED: its older events are on a page not loaded yet. */
  | { kind: 'older' };

/**
 * The trail as chips: every state when short; for long retry loops the first state, a "N attempts" gap,
 * and the last three states.
 */
export function trailSteps(events: LogEntry[], max = 6): TrailStep[] {
  const states = events.map((event) => event.state);
  const older: TrailStep[] = states[0] !== 'CREATED' ? [{ kind: 'older' }] : [];
  if (states.length <= max) return [...older, ...states.map((state) => ({ kind: 'state' as const, state }))];
  const attempts = states.filter((state) => state === 'ACTIVE').length;
  const head = states.slice(0, 1);
  const tail = states.slice(-3);
  return [
    ...older,
    ...head.map((state) => ({ kind: 'state' as const, state })),
    { kind: 'gap', attempts, hidden: states.length - head.length - tail.length },
    ...tail.map((state) => ({ kind: 'state' as const, state })),
  ];
}

/** Delivery attempts so far (each ACTIVE is one). */
export function attemptCount(events: LogEntry[]): number {
  return events.filter((event) => event.state === 'ACTIVE').length;
}
