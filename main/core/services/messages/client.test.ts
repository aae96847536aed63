// The message client's pure parts: the wire normalisation of log entries. Its requests against the real
// stack are covered by each feature's tests (cancel, never empty, by cancel-job.test.ts).
import { describe, expect, it } from 'vitest';
import type { LogEntry } from '../../../../shared/messages/types';
import { normalizeLogEntry } from './client';

describe('log entries', () => {
  it('get one state spelling and one response-header field', () => {
    const entry = normalizeLogEntry({
      state: 'CANCELED',
      responseHeaders: { a: ['1'] },
      retryDelayExpr: 'pow(2, retried)',
    } as unknown as LogEntry);
    expect(entry.state).toBe('CANCELLED');
    expect(entry.responseHeader).toEqual({ a: ['1'] });
    expect(entry).not.toHaveProperty('responseHeaders');
    expect(entry.retryDelayExpression).toBe('pow(2, retried)');
    expect(entry).not.toHaveProperty('retryDelayExpr');
  });
});
