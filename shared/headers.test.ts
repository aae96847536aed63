import { describe, expect, it } from 'vitest';
import {
  canonicalHeaderName,
  isServiceHeader,
  isValidHeaderName,
  headerValueProblem,
  isValidHeaderValue,
  normalizeHeaderName,
} from './headers';

describe('header names', () => {
  it.each([
    ['Upstash-Retries', 'upstash-retries'],
    ['Svc-Retries', 'upstash-retries'],
    ['svc-forward-X-Key', 'upstash-forward-x-key'],
    ['Content-Type', 'content-type'],
    ['Service-Name', 'service-name'],
  ])('normalises %s to %s: both prefix spellings become lowercase upstash-', (name, normalised) => {
    expect(normalizeHeaderName(name)).toBe(normalised);
  });

  it('knows a service header by either prefix, and only as a prefix', () => {
    expect(isServiceHeader('SVC-Delay')).toBe(true);
    expect(isServiceHeader('Upstash-Delay')).toBe(true);
    expect(isServiceHeader('X-Svc-Delay')).toBe(false);
  });

  it('canonicalises case and validates names and values', () => {
    expect(canonicalHeaderName('content-type')).toBe('Content-Type');
    expect(canonicalHeaderName('X-API-KEY')).toBe('X-Api-Key');
    expect(isValidHeaderName('X-Good_Name.1')).toBe(true);
    expect(isValidHeaderName('bad name')).toBe(false);
    expect(isValidHeaderName('')).toBe(false);
    expect(isValidHeaderValue('a\tb')).toBe(true);
    expect(isValidHeaderValue('a\r\nInjected: 1')).toBe(false);
  });
});

describe('headerValueProblem', () => {
  it('says what is wrong: a character beyond Latin-1 is not a line break', () => {
    expect(headerValueProblem('acme-Ω')).toBe(
      '“Ω” (U+03A9) cannot be sent in a header: header values are limited to Latin-1 characters (ASCII, é, ü, …); put such text in the body, or percent-encode it',
    );
    expect(headerValueProblem('tenant 🚀')).toMatch(/^“🚀” \(U\+1F680\) cannot be sent in a header/);
    expect(headerValueProblem('a\r\nInjected: 1')).toBe('header values may not contain line breaks');
    expect(headerValueProblem('a\u0000b')).toBe(
      'header values may not contain control characters (U+0000 at position 2)',
    );
  });

  it('accepts what HTTP clients send: ASCII, Latin-1 and tabs', () => {
    for (const value of ['acme', 'café-ü', 'a\tb', ''])
      expect(headerValueProblem(value), value).toBeUndefined();
  });
});
