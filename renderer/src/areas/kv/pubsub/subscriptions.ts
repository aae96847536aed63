// What the pub/sub tab knows of each subscription, from main's events: subscribed, lost and being
// subscribed again by main (when, which attempt), refused, or ended — and when one came back after a loss,
// since the messages published while it was away were not received (pub/sub keeps no history).
import type { KvPubSubEvent } from '../../../../../shared/bridge/procedures/kv/live';
import { formatTimeOfDay } from '../../../ui/format';

export interface Subscription {
  target: string;
  pattern: boolean;
  /**
   * `reconnecting`: its connection was lost and main subscribes it again by itself; `failed`: the service
   * refused it; `ended`: the stream ended (unsubscribed, or stopped by an error).
   */
  state: 'pending' | 'active' | 'reconnecting' | 'failed' | 'ended';
  /** The service's text: why it was refused, or why the last try to reconnect failed. */
  message?: string;
  /** While reconnecting: the try to come, and when it is made (ms since the epoch; absent until known). */
  attempt?: number;
  retryAt?: number;
  /** While reconnecting: when its connection was lost (main tries again for as long as it stays subscribed). */
  lostAt?: number;
  /** Lost with the whole stream (the page reopens it): the next `subscribed` is a reconnect too. */
  wasLost?: boolean;
  /** When it was subscribed again after a loss (messages in between were not received). */
  reconnectedAt?: number;
}

type SubscriptionEvent = Exclude<KvPubSubEvent, { kind: 'message' | 'serverDropped' }>;

/** The subscriptions once `event` arrived (at `now`). */
export function applySubscriptionEvent(
  subs: readonly Subscription[],
  event: SubscriptionEvent,
  now: number,
): Subscription[] {
  return subs.map((sub) => {
    if (sub.target !== event.target || sub.pattern !== event.pattern) return sub;
    const { target, pattern } = sub;
    switch (event.kind) {
      case 'subscribed': {
        const reconnectedAt = event.reconnectedAt ?? (sub.wasLost ? now : sub.reconnectedAt);
        return { target, pattern, state: 'active', ...(reconnectedAt ? { reconnectedAt } : {}) };
      }
      case 'failed':
        return event.reason === 'lost'
          ? { target, pattern, state: 'reconnecting', message: event.message, lostAt: sub.lostAt ?? now }
          : { target, pattern, state: 'failed', message: event.message };
      case 'reconnecting':
        return {
          target,
          pattern,
          state: 'reconnecting',
          message: event.message,
          attempt: event.attempt,
          retryAt: now + event.inMs,
          lostAt: sub.lostAt ?? now,
        };
    }
  });
}

/** The whole stream was lost and is opened again by the page: every subscription waits for it. */
export function allLost(subs: readonly Subscription[]): Subscription[] {
  return subs.map(({ target, pattern }) => ({ target, pattern, state: 'pending', wasLost: true }));
}

/** The stream ended for good: what was not refused reads ended. */
export function allEnded(subs: readonly Subscription[]): Subscription[] {
  return subs.map((sub) => (sub.state === 'failed' ? sub : { ...sub, state: 'ended' }));
}

/** The state as its badge says it: `active`, `reconnecting in 4 s (attempt 3)` … */
export function stateText(sub: Subscription, now: number): string {
  // Lost with the whole stream: the page reopens it (its callout counts the tries), so no attempt here.
  if (sub.state === 'pending' && sub.wasLost) return 'reconnecting';
  if (sub.state !== 'reconnecting') return sub.state;
  if (sub.retryAt === undefined || sub.attempt === undefined) return 'connection lost';
  const seconds = Math.ceil((sub.retryAt - now) / 1000);
  return seconds > 0
    ? `reconnecting in ${seconds} s (attempt ${sub.attempt})`
    : `reconnecting (attempt ${sub.attempt})`;
}

/** The title of the note under a subscription lost on its own, or back after a loss (the date if not today). */
export function noteTitle(sub: Subscription, now: number): string | undefined {
  const name = `${sub.pattern ? 'pattern ' : ''}${sub.target}`;
  if (sub.state === 'reconnecting') {
    const at = sub.lostAt === undefined ? '' : ` at ${formatTimeOfDay(sub.lostAt, now)}`;
    return `Lost the connection of ${name}${at}; subscribing again…`;
  }
  if (sub.state === 'active' && sub.reconnectedAt !== undefined) {
    return `${name} reconnected at ${formatTimeOfDay(sub.reconnectedAt, now)}.`;
  }
  return undefined;
}
