// Each subscription's state from main's events: lost and counting down to the next try, back (saying
// when, since messages in between are gone), refused for good; and the whole stream lost and reopened.
import { describe, expect, it } from 'vitest';
import type { Subscription } from './subscriptions';
import { allEnded, allLost, applySubscriptionEvent, noteTitle, stateText } from './subscriptions';

const start: Subscription[] = [
  { target: 'orders', pattern: false, state: 'active' },
  { target: 'news', pattern: false, state: 'active' },
  { target: 'news', pattern: true, state: 'active' },
];

describe('pub/sub subscriptions', () => {
  it('counts down to the next try of a lost one, leaves the others, and says when it came back', () => {
    let subs = applySubscriptionEvent(
      start,
      { kind: 'failed', target: 'news', pattern: false, reason: 'lost', message: 'Lost the connection.' },
      1_000,
    );
    expect(stateText(subs[1]!, 1_000)).toBe('connection lost');
    subs = applySubscriptionEvent(
      subs,
      { kind: 'reconnecting', target: 'news', pattern: false, attempt: 3, inMs: 4_000, message: 'reset' },
      1_000,
    );
    expect(subs[0]).toBe(start[0]);
    expect(subs[2]).toBe(start[2]);
    expect(subs[1]).toMatchObject({ state: 'reconnecting', attempt: 3, retryAt: 5_000, message: 'reset' });
    expect(stateText(subs[1]!, 1_000)).toBe('reconnecting in 4 s (attempt 3)');
    expect(stateText(subs[1]!, 3_500)).toBe('reconnecting in 2 s (attempt 3)');
    expect(stateText(subs[1]!, 5_000)).toBe('reconnecting (attempt 3)');

    subs = applySubscriptionEvent(
      subs,
      { kind: 'subscribed', target: 'news', pattern: false, count: 1, reconnectedAt: 9_000 },
      9_100,
    );
    expect(subs[1]).toEqual({ target: 'news', pattern: false, state: 'active', reconnectedAt: 9_000 });
    expect(stateText(subs[1]!, 9_100)).toBe('active');
  });

  it('keeps when a lost one was lost through every try, and forgets it once back', () => {
    let subs = applySubscriptionEvent(
      start,
      { kind: 'failed', target: 'orders', pattern: false, reason: 'lost', message: 'reset' },
      2_000,
    );
    for (const [attempt, at] of [
      [1, 2_000],
      [2, 3_000],
      [9, 300_000],
    ] as const) {
      subs = applySubscriptionEvent(
        subs,
        { kind: 'reconnecting', target: 'orders', pattern: false, attempt, inMs: 1_000, message: 'refused' },
        at,
      );
      expect(subs[0]).toMatchObject({ state: 'reconnecting', attempt, lostAt: 2_000 });
    }
    subs = applySubscriptionEvent(
      subs,
      { kind: 'subscribed', target: 'orders', pattern: false, count: 1, reconnectedAt: 301_000 },
      301_000,
    );
    expect(subs[0]).not.toHaveProperty('lostAt');
    // Lost again later: since then, not since the first loss.
    subs = applySubscriptionEvent(
      subs,
      { kind: 'failed', target: 'orders', pattern: false, reason: 'lost', message: 'reset' },
      400_000,
    );
    expect(subs[0]).toMatchObject({ state: 'reconnecting', lostAt: 400_000 });
  });

  it('keeps a refused one failed with the service text, and ended streams leave it so', () => {
    const subs = applySubscriptionEvent(
      start,
      { kind: 'failed', target: 'news', pattern: true, reason: 'refused', message: 'Unauthorized' },
      1,
    );
    expect(subs[2]).toEqual({ target: 'news', pattern: true, state: 'failed', message: 'Unauthorized' });
    expect(allEnded(subs).map((sub) => sub.state)).toEqual(['ended', 'ended', 'failed']);
  });

  it('marks every one reconnected when the whole stream was lost and opened again', () => {
    // While the stream is away each reads reconnecting (not pending: it was subscribed), then active again.
    expect(allLost(start).map((sub) => stateText(sub, 7_000))).toEqual([
      'reconnecting',
      'reconnecting',
      'reconnecting',
    ]);
    const subs = applySubscriptionEvent(
      allLost(start),
      { kind: 'subscribed', target: 'orders', pattern: false, count: 1 },
      7_000,
    );
    expect(subs[0]).toEqual({ target: 'orders', pattern: false, state: 'active', reconnectedAt: 7_000 });
    expect(stateText(subs[0]!, 7_000)).toBe('active');
    expect(subs[1]).toMatchObject({ state: 'pending', wasLost: true });
    expect(stateText(subs[1]!, 7_000)).toBe('reconnecting');
    expect(stateText({ target: 'a', pattern: false, state: 'pending' }, 1)).toBe('pending');
    // A first subscribe is no reconnect.
    expect(
      applySubscriptionEvent(
        [{ target: 'a', pattern: false, state: 'pending' }],
        { kind: 'subscribed', target: 'a', pattern: false, count: 1 },
        1,
      ),
    ).toEqual([{ target: 'a', pattern: false, state: 'active' }]);
  });

  it('says when it was lost or came back: the time today, the date and time on another day', () => {
    const lostAt = new Date(2026, 10, 27, 23, 50, 5).getTime();
    const lost: Subscription = { target: 'news', pattern: true, state: 'reconnecting', lostAt };
    const sameNight = new Date(2026, 10, 27, 23, 59, 0).getTime();
    const nextMorning = new Date(2026, 10, 28, 0, 10, 0).getTime();
    expect(noteTitle(lost, sameNight)).toBe(
      'Lost the connection of pattern news at 23:50:05; subscribing again…',
    );
    expect(noteTitle(lost, nextMorning)).toBe(
      'Lost the connection of pattern news at 2026-11-27 23:50:05; subscribing again…',
    );
    const back: Subscription = { target: 'news', pattern: false, state: 'active', reconnectedAt: lostAt };
    expect(noteTitle(back, sameNight)).toBe('news reconnected at 23:50:05.');
    expect(noteTitle(back, nextMorning)).toBe('news reconnected at 2026-11-27 23:50:05.');
    expect(noteTitle({ target: 'news', pattern: false, state: 'active' }, sameNight)).toBeUndefined();
  });
});
