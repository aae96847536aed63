import { describe, expect, it } from 'vitest';
import { dueItemWords, durationWords, offsetWords, untilWords } from './clock-words';

const HOUR = 3_600_000;

describe('clock words', () => {
  it('says a duration in its two largest units', () => {
    expect(durationWords(7 * 24 * HOUR)).toBe('7 d');
    expect(durationWords(7 * 24 * HOUR + 2 * HOUR + 5_000)).toBe('7 d 2 h');
    expect(durationWords(HOUR + 59 * 60_000 + 30_000)).toBe('1 h 59 min');
    expect(durationWords(24 * HOUR + 30_000)).toBe('1 d');
    expect(durationWords(45_000)).toBe('45 s');
    expect(durationWords(400)).toBe('less than a second');
  });

  it('shows the offset only when the stack clock is ahead', () => {
    expect(offsetWords(0)).toBeUndefined();
    expect(offsetWords(999)).toBeUndefined();
    expect(offsetWords(7 * 24 * HOUR)).toBe('+7 d');
    expect(offsetWords(90 * 60_000)).toBe('+1 h 30 min');
  });

  it('says when something is due, and what', () => {
    expect(untilWords(2 * HOUR, 0)).toBe('in 2 h');
    expect(untilWords(5, 10)).toBe('now');
    expect(dueItemWords({ kind: 'message', messageId: 'msg_1', dueAt: 0, retried: 0 })).toBe(
      'the delivery of msg_1',
    );
    expect(
      dueItemWords({
        kind: 'message',
        messageId: 'msg_abcdefghijklmnopqrstuvwxyz',
        dueAt: 0,
        retried: 2,
        workflowRunId: 'wfr_1',
      }),
    ).toBe('retry 2 of msg_abcdefghijkl… (workflow run wfr_1)');
    expect(dueItemWords({ kind: 'wait', eventId: 'approve', workflowRunId: 'wfr_2', dueAt: 0 })).toBe(
      'the wait for “approve” times out (workflow run wfr_2)',
    );
    expect(dueItemWords({ kind: 'schedule', scheduleId: 'nightly', dueAt: 0 })).toBe(
      'schedule nightly fires',
    );
  });
});
