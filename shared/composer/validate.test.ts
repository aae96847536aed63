import { describe, expect, it } from 'vitest';
import { emptyComposer, type ComposerModel } from './model';
import { retryPreview } from './retry-preview';
import { validateComposer } from './validate';

const NOW = Date.UTC(2026, 0, 1);
const valid = (overrides: Partial<ComposerModel>) =>
  validateComposer(emptyComposer({ url: 'https://example.com', ...overrides }), NOW);

describe('validateComposer', () => {
  it('a plain message is valid', () => {
    expect(valid({ body: '{}' })).toEqual({ errors: {}, warnings: {} });
  });

  it('warns about an empty body that says it is JSON', () => {
    expect(valid({}).errors).toEqual({});
    expect(valid({}).warnings.body).toMatch(/empty, while Content-Type says application\/json/);
    expect(valid({ contentType: 'text/plain' }).warnings.body).toBeUndefined();
    expect(valid({ method: 'GET' }).warnings.body).toBeUndefined();
  });

  it('destinations: URL scheme, group and queue names, api/llm needs a callback', () => {
    expect(valid({ url: 'example.com' }).errors.url).toBe(
      'destination URL must start with http:// or https://',
    );
    expect(valid({ destinationKind: 'group', group: 'bad name' }).errors.group).toMatch(/letters, digits/);
    expect(valid({ destinationKind: 'queue', queue: '' }).errors.queue).toBe('queue name is empty');
    expect(valid({ destinationKind: 'llm' }).errors['callback.url']).toMatch(/api\/llm needs a callback/);
  });

  it('durations use the shared parser: units, fractions and ranges', () => {
    expect(valid({ delay: '10s' }).errors.delay).toBeUndefined();
    expect(valid({ delay: '1d10h30m' }).errors.delay).toBeUndefined();
    expect(valid({ delay: '10' }).errors.delay).toMatch(/missing unit after '10'/);
    expect(valid({ delay: '1.5m' }).errors.delay).toMatch(/fractions are not allowed/);
    expect(valid({ delay: '400d' }).errors.delay).toMatch(/at most 365d/);
    expect(valid({ timeout: '30' }).errors.timeout).toBeUndefined();
    expect(valid({ timeout: '2d' }).errors.timeout).toBe('must be between 1s and 1d');
  });

  it('retry-delay expressions are checked as typed, with the position', () => {
    expect(valid({ retryDelay: 'pow(2, retried) * 1000' }).errors.retryDelay).toBeUndefined();
    expect(valid({ retryDelay: 'pow(2, tries)' }).errors.retryDelay).toMatch(
      /unknown name 'tries' at position 8/,
    );
    expect(valid({ retryDelay: '1000 *' }).errors.retryDelay).toBe('expression ends too early');
    expect(
      valid({ callback: { ...emptyComposer().callback, url: 'https://x.io', retryDelay: 'sqrt(' } }).errors,
    ).toHaveProperty('callback.retryDelay');
  });

  it('retries, dedup id, header names and flow control', () => {
    expect(valid({ retries: '101' }).errors.retries).toBe('a whole number from 0 to 100');
    expect(valid({ dedupMode: 'id', dedupId: ' ' }).errors.dedupId).toMatch(/type a deduplication id/);
    expect(
      valid({ headers: [{ name: 'Bad Name', value: 'x', enabled: true }] }).errors['headers.0.name'],
    ).toMatch(/not a valid header name/);
    expect(valid({ headers: [{ name: 'Bad Name', value: 'x', enabled: false }] }).errors).toEqual({});
    // A value a user typed with a non-Latin-1 character: the message names it (not "line breaks").
    expect(
      valid({ headers: [{ name: 'X-Tenant', value: 'acme-Ω', enabled: true }] }).errors['headers.0.value'],
    ).toMatch(/^“Ω” \(U\+03A9\) cannot be sent in a header: header values are limited to Latin-1/);
    expect(valid({ labels: 'a\nb' }).errors.labels).toBe('header values may not contain line breaks');
    expect(valid({ flowControlKey: 'k' }).errors.flowControlParallelism).toMatch(/needs parallelism or rate/);
    expect(valid({ flowControlRate: '5' }).errors.flowControlKey).toBe('flow control needs a key');
    expect(
      valid({ flowControlKey: 'k', flowControlRate: '5', flowControlPeriod: '8d' }).errors.flowControlPeriod,
    ).toMatch(/maximum of 7d/);
  });

  it('not-before wins over delay, and a time in the past is a warning', () => {
    const both = valid({ delay: '10s', notBefore: NOW / 1000 + 60 });
    expect(both.errors).toEqual({});
    expect(both.warnings.delay).toMatch(/earliest time is set: it wins/);
    expect(valid({ notBefore: NOW / 1000 - 60 }).warnings.notBefore).toMatch(/in the past/);
  });

  it('a JSON body that does not parse is a warning, not an error', () => {
    const result = valid({ body: '{"a":' });
    expect(result.errors).toEqual({});
    expect(result.warnings.body).toMatch(/not valid JSON/);
    expect(valid({ contentType: 'text/plain', body: '{"a":' }).warnings).toEqual({});
  });

  it('callback settings need a callback URL', () => {
    expect(valid({ failureCallback: { ...emptyComposer().failureCallback, retries: '2' } }).errors).toEqual({
      'failureCallback.url': 'set a failure callback URL, or clear its settings',
    });
  });
});

describe('retryPreview', () => {
  it('the default backoff when no expression is given: 12 s, 2m28s, 30m8s', () => {
    const preview = retryPreview('', '');
    expect(preview).toMatchObject({ ok: true, deliveries: 4, usesDefault: true });
    if (!preview.ok) throw new Error('unreachable');
    expect(preview.steps.map((step) => Math.round(step.waitMs / 1000))).toEqual([12, 148, 1808]);
  });

  it('an expression evaluated per retry, capped at a day, totals accumulated', () => {
    const preview = retryPreview('4', '1000 * (1 + retried)');
    if (!preview.ok) throw new Error(preview.error);
    expect(preview.steps.map((step) => step.waitMs)).toEqual([1000, 2000, 3000, 4000]);
    expect(preview.steps.map((step) => step.totalMs)).toEqual([1000, 3000, 6000, 10000]);
    const capped = retryPreview('1', '1e12');
    expect(capped.ok && capped.steps[0]?.waitMs).toBe(86_400_000);
  });

  it('odd values and bad expressions are errors, 0 retries means one delivery', () => {
    expect(retryPreview('1', 'sqrt(-1)')).toMatchObject({
      ok: false,
      error: expect.stringMatching(/not a number/),
    });
    expect(retryPreview('2', 'pow(2,')).toEqual({ ok: false, error: 'expression ends too early' });
    expect(retryPreview('0', '')).toMatchObject({ ok: true, deliveries: 1, steps: [] });
  });
});
