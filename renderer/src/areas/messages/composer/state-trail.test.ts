import { describe, expect, it } from 'vitest';
import type { LogEntry } from '../../../../../shared/messages/types';
import { stateTrail } from './SendResult';

const event = (state: LogEntry['state'], time: number) =>
  ({ messageId: 'msg_1', state, time, url: 'https://x.test' }) as LogEntry;

describe('the result card’s state chain', () => {
  it('is in lifecycle order and ends on FAILED for a failed message', () => {
    // As the logs answer: newest first, the last attempt's ERROR and FAILED in the same millisecond.
    const events = [
      event('FAILED', 30),
      event('ERROR', 30),
      event('ACTIVE', 30),
      event('RETRY', 20),
      event('ERROR', 20),
      event('ACTIVE', 10),
      event('CREATED', 10),
    ];
    expect(stateTrail(events)).toEqual(['CREATED', 'ACTIVE', 'ERROR', 'RETRY', 'ACTIVE', 'ERROR', 'FAILED']);
  });
});
