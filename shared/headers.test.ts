import { describe, expect, it } from 'vitest';
import {
  canonicalHeaderName,
  isServiceHeader,
  isValidHeaderName,
  isValidHeaderValue,
  normalizeHeaderName,
} from './headers';

describe('header names', () => {
  it('normalises both prefix spellings to lowercase upstash-', () => {
    expect(normalizeHeaderName('Upstash-Retries')).toBe('upstash-retries');
    expect(normalizeHeaderName('Svc-Retries')).toBe('upstash-retries');
    expect(normalizeHeaderName('svc-forward-X-Key')).toBe('upstash-forward-x-key');
    expect(normalizeHeaderName('Content-Type')).toBe('content-type');
    expect(normalizeHeaderName('Service-Name')).toBe('service-name');
    expect(isServiceHeader('SVC-Delay')).toBe(true);
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
