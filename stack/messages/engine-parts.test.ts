import { createHmac } from 'node:crypto';
import { Receiver } from '@upstash/qstash';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../clock';
import { parseRetryDelay } from '../../shared/retry-delay';
import { defaultBackoffExpression, nextDelayMs, retryAfterFromResponse } from './backoff';
import { MinHeap } from './heap';
import { destinationQuery, parseDestination, PublishError } from './publish-request';
import { bodyHash, signDelivery } from './signing';

describe('MinHeap', () => {
  it('pops in (due, seq) order', () => {
    const heap = new MinHeap<{ dueAt: number; seq: number }>();
    const items = Array.from({ length: 500 }, (_, i) => ({ dueAt: (i * 7919) % 101, seq: i }));
    for (const item of items) heap.push(item);
    const out: { dueAt: number; seq: number }[] = [];
    for (let item = heap.pop(); item; item = heap.pop()) out.push(item);
    const sorted = [...items].sort((a, b) => a.dueAt - b.dueAt || a.seq - b.seq);
    expect(out).toEqual(sorted);
    expect(heap.size).toBe(0);
  });
});

describe('backoff', () => {
  it('defaults to min(86400, e^(k·n)) seconds', () => {
    const delays = [0, 1, 2, 3, 4].map((retried) => nextDelayMs({ retried, factor: 2.5, now: 0 }));
    expect(delays).toEqual([12_182, 148_413, 1_808_042, 22_026_466, 86_400_000]);
    expect(nextDelayMs({ retried: 0, factor: 2, now: 0 })).toBe(7_389);
  });

  it('written as a retry-delay expression, gives the same delays (what workflow logs show as retryDelay)', () => {
    for (const factor of [2.5, 0.001]) {
      const expression = parseRetryDelay(defaultBackoffExpression(factor));
      for (let retried = 0; retried < 6; retried++) {
        expect(Math.round(expression.evaluate(retried))).toBe(nextDelayMs({ retried, factor, now: 0 }));
      }
    }
  });

  it('prefers Retry-After-like headers, then the expression', () => {
    expect(nextDelayMs({ retried: 0, factor: 2.5, retryDelay: '500', now: 0 })).toBe(500);
    expect(nextDelayMs({ retried: 0, factor: 2.5, retryDelay: 'sqrt(-1)', now: 0 })).toBe(12_182);
    expect(nextDelayMs({ retried: 0, factor: 2.5, retryDelay: '1e12', now: 0 })).toBe(86_400_000);
    expect(
      nextDelayMs({
        retried: 0,
        factor: 2.5,
        retryDelay: '500',
        responseHeader: { 'Retry-After': ['3'] },
        now: 0,
      }),
    ).toBe(3_000);
    expect(retryAfterFromResponse({ 'retry-after': ['0'] }, 0)).toBe(0);
    expect(retryAfterFromResponse({ 'x-ratelimit-reset': ['2000000000'] }, 1_999_999_990_000)).toBe(10_000);
    expect(retryAfterFromResponse({ 'x-ratelimit-reset-tokens': ['6m5s'] }, 0)).toBe(365_000);
    expect(retryAfterFromResponse({ 'retry-after': ['soon'] }, 0)).toBeUndefined();
  });
});

describe('destinations', () => {
  it('keeps the destination query string but drops configuration and tokens', () => {
    expect(destinationQuery('a=1&upstash-retries=2&Svc-Delay=1s&qstash_token=t&svc_token=t&b=%20')).toBe(
      'a=1&b=%20',
    );
    expect(destinationQuery('')).toBe('');
  });

  it('tells URLs, groups and api/llm apart', () => {
    expect(parseDestination('https://example.com/x?y=1')).toEqual({
      kind: 'url',
      url: 'https://example.com/x?y=1',
    });
    expect(parseDestination('https:/collapsed.example/x')).toEqual({
      kind: 'url',
      url: 'https://collapsed.example/x',
    });
    expect(parseDestination('http%3A%2F%2F127.0.0.1%3A9%2Fx')).toEqual({
      kind: 'url',
      url: 'http://127.0.0.1:9/x',
    });
    expect(parseDestination('my-group')).toEqual({ kind: 'group', name: 'my-group' });
    expect(parseDestination('api/llm')).toEqual({ kind: 'llm' });
    expect(() => parseDestination('ftp://x')).toThrow(PublishError);
    expect(() => parseDestination('')).toThrow(/missing destination/);
  });
});

describe('signatures', () => {
  it('hashes bodies as base64url SHA-256 with padding and signs an HS256 JWT', () => {
    expect(bodyHash(Buffer.from('hello'))).toBe('LPJNul-wow4m6DsqxbninhsWHlwfp0JecwQzYpOLmCQ=');
    const token = signDelivery('sig_key', 'http://x/y', Buffer.from('hello'), 1_700_000_000_000);
    const [header, payload] = token
      .split('.')
      .slice(0, 2)
      .map((part) => JSON.parse(Buffer.from(part, 'base64url').toString()));
    expect(header).toEqual({ alg: 'HS256', typ: 'JWT' });
    expect(payload).toMatchObject({
      iss: 'Upstash',
      sub: 'http://x/y',
      iat: 1_700_000_000,
      exp: 1_700_000_300,
      body: bodyHash(Buffer.from('hello')),
    });
    expect(payload.jti).toMatch(/^jwt_/);
  });

  it('writes the claims byte for byte as JSON.stringify of the claims object, also for a URL to escape', () => {
    const url = 'http://x/y?q="a"\\b&name=é\u2028';
    const token = signDelivery('sig_key', url, Buffer.from('hello'), 1_700_000_000_999);
    const text = Buffer.from(token.split('.')[1] as string, 'base64url').toString();
    const claims = JSON.parse(text) as { jti: string; body: string };
    expect(text).toBe(
      JSON.stringify({
        iss: 'Upstash',
        sub: url,
        exp: 1_700_000_300,
        iat: 1_700_000_000,
        nbf: 0,
        jti: claims.jti,
        body: claims.body,
      }),
    );
    expect(claims.body).toBe(bodyHash(Buffer.from('hello')));
  });

  it('verifies with the vendor Receiver on a machine whose clock is a minute behind the stack’s (nbf 0)', async () => {
    const url = 'http://127.0.0.1:3000/api';
    const token = signDelivery('sig_current', url, Buffer.from('hello'), Date.now() + 60_000);
    const receiver = new Receiver({ currentSigningKey: 'sig_current', nextSigningKey: 'sig_next' });
    await expect(receiver.verify({ signature: token, body: 'hello', url })).resolves.toBe(true);
  });
});

describe('signature keys', () => {
  it('signs with the key it is given, also when the key changes (a rotation) and changes back', () => {
    const check = (key: string): void => {
      const token = signDelivery(key, 'http://x/y', Buffer.from('hello'), 1_700_000_000_000);
      const [header, payload, signature] = token.split('.');
      const expected = createHmac('sha256', Buffer.from(key, 'utf8'))
        .update(`${header}.${payload}`)
        .digest('base64url');
      expect(signature).toBe(expected);
    };
    for (const key of ['sig_current', 'sig_current', 'sig_next_é', 'sig_current']) check(key);
  });
});

describe('ManualClock', () => {
  it('fires timers in due order as time moves, and not cancelled ones', () => {
    const clock = new ManualClock(1_000);
    const fired: string[] = [];
    clock.setTimer(() => fired.push('b'), 20);
    clock.setTimer(() => fired.push('a'), 10);
    const cancelled = clock.setTimer(() => fired.push('never'), 5);
    cancelled.cancel();
    clock.setTimer(() => clock.setTimer(() => fired.push('nested'), 1), 15);
    clock.advance(15);
    expect(fired).toEqual(['a']);
    clock.advance(10);
    expect(fired).toEqual(['a', 'nested', 'b']);
    expect(clock.now()).toBe(1_025);
  });
});
