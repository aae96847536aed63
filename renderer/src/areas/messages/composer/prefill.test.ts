import { describe, expect, it } from 'vitest';
import { emptyComposer } from '../../../../../shared/composer/model';
import { buildOrNull, fieldLabel, prefilledModel } from './prefill';

describe('composer prefill routes', () => {
  it('starts a clean message with only the destination, nothing of the previous draft', () => {
    expect(prefilledModel(['url', 'https://new.example/a?b=1'])).toEqual(
      emptyComposer({ destinationKind: 'url', url: 'https://new.example/a?b=1' }),
    );
    expect(prefilledModel(['group', 'orders'])).toEqual(
      emptyComposer({ destinationKind: 'group', group: 'orders' }),
    );
    expect(prefilledModel(['queue', 'emails'])).toEqual(
      emptyComposer({ destinationKind: 'queue', queue: 'emails' }),
    );
    expect(prefilledModel(['url'])).toBeUndefined();
    expect(prefilledModel(['nonsense', 'x'])).toBeUndefined();
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
