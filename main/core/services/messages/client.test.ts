// The message client's pure parts: the cancel requests it builds (never an empty one) and the wire
// normalisation of log entries. Its requests against the real stack are covered by each feature's tests.
import { describe, expect, it } from 'vitest';
import type { LogEntry } from '../../../../shared/messages/types';
import { cancelRequests, normalizeLogEntry } from './client';

describe('cancel never sends an empty request (the service would cancel every message)', () => {
  it('refuses empty ids and empty filters where the request is built', () => {
    for (const target of [
      { messageIds: [] },
      { messageIds: ['', '  '] },
      { filters: {} },
      { filters: { label: [], url: [] } },
      {},
    ]) {
      expect(() => cancelRequests(target as never)).toThrow(/would cancel every message/);
    }
  });

  it('chunks ids and keeps filters', () => {
    const ids = Array.from({ length: 250 }, (_, i) => `msg_${i}`);
    const requests = cancelRequests({ messageIds: ids });
    expect(requests.map((r) => (r.query?.messageIds as string[]).length)).toEqual([100, 100, 50]);
    expect(cancelRequests({ messageIds: ['msg_1'] })).toEqual([
      { method: 'DELETE', path: '/v2/messages/msg_1' },
    ]);
    expect(cancelRequests({ filters: { label: ['nightly'], fromDate: 5 } })).toEqual([
      { method: 'DELETE', path: '/v2/messages', query: { label: ['nightly'], fromDate: 5 } },
    ]);
  });
});

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
