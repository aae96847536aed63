// The message body's size check (shared/messages/settings.ts): UTF-8 bytes against the service's limit.
import { describe, expect, it } from 'vitest';
import { validateComposer } from '../composer/validate';
import { emptyComposer } from '../composer/model';
import { MAX_BODY_BYTES } from './limits';
import { checkBodySize, utf8Length } from './settings';

describe('message body size', () => {
  it('measures UTF-8 bytes like TextEncoder, without encoding', () => {
    for (const text of [
      '',
      'plain',
      'grüße',
      '日本語',
      'emoji 😀 and lone \ud800 surrogate',
      'x'.repeat(1000),
    ]) {
      expect(utf8Length(text)).toBe(new TextEncoder().encode(text).length);
    }
  });

  it('refuses a body over the limit, in words, with the real limit', () => {
    expect(checkBodySize(MAX_BODY_BYTES)).toBeUndefined();
    expect(checkBodySize(MAX_BODY_BYTES + 1)).toBe(
      "1,048,577 bytes (1.0 MiB): over the service's limit of 1,048,576 bytes (1 MiB); it cannot be sent",
    );
  });

  it('is checked by the composer as the user types (multi-byte characters count as bytes)', () => {
    const now = Date.now();
    const model = (body: string) => emptyComposer({ url: 'https://x.test', contentType: 'text/plain', body });
    expect(validateComposer(model('x'.repeat(MAX_BODY_BYTES)), now).errors.body).toBeUndefined();
    expect(validateComposer(model('é'.repeat(MAX_BODY_BYTES / 2 + 1)), now).errors.body).toMatch(
      /over the service's limit of 1,048,576 bytes/,
    );
  });
});
