import { describe, expect, it } from 'vitest';
import { diffHeaders, headersFromRows, rowsFromHeaders } from './header-diff';

describe('URL-group default headers', () => {
  it('turns rows into a canonical header map and names each bad row', () => {
    const { headers, errors } = headersFromRows([
      { name: 'upstash-retries', value: '3' },
      { name: 'x-tag', value: 'a' },
      { name: 'X-Tag', value: 'b' },
      { name: '', value: '' },
      { name: 'bad header', value: 'x' },
      { name: '', value: 'orphan' },
      { name: '__proto__', value: 'x' },
      { name: 'Upstash-Forward-__proto__', value: 'x' },
    ]);
    expect(headers).toEqual({ 'Upstash-Retries': ['3'], 'X-Tag': ['a', 'b'] });
    expect(errors).toEqual({
      4: '“bad header” is not a valid header name',
      5: 'a header needs a name',
      6: '“__proto__” cannot be forwarded',
      7: '“Upstash-Forward-__proto__” cannot be forwarded',
    });
    expect(rowsFromHeaders(headers)).toEqual([
      { name: 'Upstash-Retries', value: '3' },
      { name: 'X-Tag', value: 'a' },
      { name: 'X-Tag', value: 'b' },
    ]);
  });

  it('diffs before and after: added, removed, changed, same (names case-insensitive)', () => {
    const diff = diffHeaders(
      { 'Upstash-Retries': ['3'], 'Upstash-Forward-X-Team': ['billing'], 'Upstash-Delay': ['10s'] },
      { 'upstash-retries': ['5'], 'Upstash-Forward-X-Team': ['billing'], 'Upstash-Timeout': ['30s'] },
    );
    expect(diff).toEqual([
      { name: 'Upstash-Delay', kind: 'removed', before: ['10s'] },
      { name: 'Upstash-Forward-X-Team', kind: 'same', before: ['billing'], after: ['billing'] },
      { name: 'upstash-retries', kind: 'changed', before: ['3'], after: ['5'] },
      { name: 'Upstash-Timeout', kind: 'added', after: ['30s'] },
    ]);
    expect(diffHeaders(undefined, {})).toEqual([]);
  });
});
