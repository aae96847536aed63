import { describe, expect, it } from 'vitest';
import type { LogEntry, MessageState } from '../../../../../shared/messages/types';
import { attemptCount, groupByMessage, mergeEvents, trailSteps } from './group-events';

const event = (
  messageId: string,
  time: number,
  state: MessageState,
  extra: Partial<LogEntry> = {},
): LogEntry => ({
  messageId,
  time,
  state,
  url: 'http://x',
  ...extra,
});

describe('log events grouped by message', () => {
  it('groups newest-first pages into trails, oldest event first, messages by latest activity', () => {
    const pageOne = [
      event('b', 50, 'DELIVERED'),
      event('a', 40, 'RETRY'),
      event('a', 40, 'ERROR'),
      event('b', 30, 'ACTIVE'),
    ];
    const pageTwo = [event('a', 20, 'ACTIVE'), event('b', 10, 'CREATED'), event('a', 5, 'CREATED')];
    const trails = groupByMessage([...pageOne, ...pageTwo]);
    expect(trails.map((trail) => trail.messageId)).toEqual(['b', 'a']);
    expect(trails[0]!.events.map((e) => e.state)).toEqual(['CREATED', 'ACTIVE', 'DELIVERED']);
    // Same millisecond: lifecycle order.
    expect(trails[1]!.events.map((e) => e.state)).toEqual(['CREATED', 'ACTIVE', 'ERROR', 'RETRY']);
    expect(trails[1]!.latest.state).toBe('RETRY');
  });

  it('drops repeated events when a refreshed first page overlaps loaded pages', () => {
    const loaded = [event('a', 2, 'ACTIVE'), event('a', 1, 'CREATED')];
    const head = [event('a', 3, 'DELIVERED'), event('a', 2, 'ACTIVE')];
    expect(mergeEvents(head, loaded).map((e) => e.state)).toEqual(['DELIVERED', 'ACTIVE', 'CREATED']);
    // Two errors in the same millisecond with different statuses are both kept.
    expect(
      mergeEvents([
        event('a', 1, 'ERROR', { responseStatus: 500 }),
        event('a', 1, 'ERROR', { responseStatus: 502 }),
      ]),
    ).toHaveLength(2);
  });

  it('shortens long retry loops to first state, attempt count and the last states', () => {
    const states: MessageState[] = ['CREATED'];
    for (let i = 0; i < 4; i += 1) states.push('ACTIVE', 'ERROR', 'RETRY');
    states.push('ACTIVE', 'ERROR', 'FAILED');
    const events = states.map((state, index) => event('a', index, state));
    expect(attemptCount(events)).toBe(5);
    expect(trailSteps(events)).toEqual([
      { kind: 'state', state: 'CREATED' },
      { kind: 'gap', attempts: 5, hidden: states.length - 4 },
      { kind: 'state', state: 'ACTIVE' },
      { kind: 'state', state: 'ERROR' },
      { kind: 'state', state: 'FAILED' },
    ]);
    expect(trailSteps(events.slice(0, 3)).map((step) => step.kind === 'state' && step.state)).toEqual([
      'CREATED',
      'ACTIVE',
      'ERROR',
    ]);
    // A trail whose first events are on a page not loaded yet says so.
    expect(trailSteps(events.slice(-2))).toEqual([
      { kind: 'older' },
      { kind: 'state', state: 'ERROR' },
      { kind: 'state', state: 'FAILED' },
    ]);
  });
});
