import { describe, expect, it } from 'vitest';
import { emptyComposer } from '../../../../../shared/composer/model';
import { applyPrefill, buildOrNull } from './prefill';

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
