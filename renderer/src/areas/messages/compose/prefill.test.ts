import { describe, expect, it } from 'vitest';
import { emptyComposer } from '../../../../../shared/composer/model';
import { applyPrefill, buildOrNull, fieldLabel } from './prefill';

describe('composer prefill routes', () => {
  it('sets only the destination and keeps the rest of the draft', () => {
    const draft = emptyComposer({ body: 'kept', url: 'https://old.example' });
    expect(applyPrefill(draft, ['url', 'https://new.example/a?b=1'])).toMatchObject({
      destinationKind: 'url',
      url: 'https://new.example/a?b=1',
      body: 'kept',
    });
    expect(applyPrefill(draft, ['group', 'orders'])).toMatchObject({
      destinationKind: 'group',
      group: 'orders',
    });
    expect(applyPrefill(draft, ['queue', 'emails'])).toMatchObject({
      destinationKind: 'queue',
      queue: 'emails',
    });
    expect(applyPrefill(draft, ['url'])).toBe(draft);
    expect(applyPrefill(draft, ['nonsense', 'x'])).toBe(draft);
  });

  it('previews only a valid message', () => {
    expect(buildOrNull(emptyComposer({ url: 'https://e.io' }), Date.now())?.path).toBe(
      '/v2/publish/https://e.io',
    );
    expect(buildOrNull(emptyComposer({ url: 'nope' }), Date.now())).toBeNull();
  });
});

describe('fieldLabel', () => {
  it('names fields of validation messages for people', () => {
    expect(fieldLabel('url')).toBe('Destination URL');
    expect(fieldLabel('headers.0.name')).toBe('Forward header 1 name');
    expect(fieldLabel('callback.headers.2.value')).toBe('Callback header 3 value');
    expect(fieldLabel('failureCallback.retries')).toBe('Failure callback retries');
    expect(fieldLabel('callback.url')).toBe('Callback URL');
    expect(fieldLabel('contentType')).toBe('Content-Type');
    expect(fieldLabel('somethingNew')).toBe('somethingNew');
  });
});
