import { describe, expect, it } from 'vitest';
import { decodeBody } from './BodyView';

const b64 = (text: string) => btoa(String.fromCharCode(...new TextEncoder().encode(text)));

describe('decodeBody', () => {
  it('decodes base64 bodies from the logs and pretty-prints JSON', () => {
    expect(decodeBody(b64('{"order":42,"items":["a"]}'), true)).toEqual({
      kind: 'json',
      text: '{\n  "order": 42,\n  "items": [\n    "a"\n  ]\n}',
      bytes: 26,
    });
    expect(decodeBody(b64('héllo'), true)).toEqual({ kind: 'text', text: 'héllo', bytes: 6 });
  });

  it('keeps text, shows binary as base64, and passes markers that are not base64 through', () => {
    expect(decodeBody('plain text', false)).toMatchObject({ kind: 'text', text: 'plain text' });
    expect(decodeBody('{not json', false)).toMatchObject({ kind: 'text' });
    expect(decodeBody(btoa('\u00ff\u00fe\u0000'), true)).toMatchObject({
      kind: 'binary',
      text: btoa('\u00ff\u00fe\u0000'),
    });
    expect(decodeBody('REDACTED:abc123!', true)).toMatchObject({ kind: 'text', text: 'REDACTED:abc123!' });
    expect(decodeBody(undefined, true)).toEqual({ kind: 'empty', text: '', bytes: 0 });
  });
});
