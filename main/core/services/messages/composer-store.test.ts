import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES } from '../../../../shared/messages/limits';
import { emptyComposer } from '../../../../shared/composer/model';
import { openOverUnreadable } from '../../testing/corrupt-file';
import { useTempDirs } from '../../../../shared/testing/temp-dir';
import { ComposerStore, HISTORY_LIMIT } from './composer-store';

const tempDir = useTempDirs();

describe('ComposerStore', () => {
  it('keeps the newest history entries per profile, newest first', () => {
    const file = join(tempDir(), 'composer.json');
    let clock = 0;
    const store = new ComposerStore(file, () => ++clock);
    for (let i = 0; i < HISTORY_LIMIT + 5; i++) {
      store.addHistory('p', { kind: 'single', models: [emptyComposer()], summary: `#${i}`, messageIds: [] });
    }
    const reopened = new ComposerStore(file);
    expect(reopened.history('p')).toHaveLength(HISTORY_LIMIT);
    expect(reopened.history('p')[0]?.summary).toBe(`#${HISTORY_LIMIT + 4}`);
    expect(reopened.history('q')).toEqual([]);
  });

  it('writes atomically: no temp file is left behind, and the file is valid JSON', () => {
    const dir = tempDir();
    const store = new ComposerStore(join(dir, 'composer.json'));
    store.saveDraft('p', 'compose', emptyComposer({ body: 'x' }));
    expect(readdirSync(dir)).toEqual(['composer.json']);
    expect(JSON.parse(readFileSync(join(dir, 'composer.json'), 'utf8')).drafts.p.compose.body).toBe('x');
  });

  it('keeps drafts per profile, and gives drafts of an older file to the Local profile', () => {
    const dir = tempDir();
    const file = join(dir, 'composer.json');
    const store = new ComposerStore(file);
    store.saveDraft('local', 'compose', emptyComposer({ url: 'http://127.0.0.1:9/local' }));
    store.saveDraft('prod', 'batch', [emptyComposer({ url: 'https://prod.test/' })]);
    const reopened = new ComposerStore(file);
    expect(reopened.drafts('local').compose?.url).toBe('http://127.0.0.1:9/local');
    expect(reopened.drafts('local').batch).toBeUndefined();
    expect(reopened.drafts('prod').compose).toBeUndefined();
    expect(reopened.drafts('other')).toEqual({});
    reopened.saveDraft('prod', 'batch', null);
    expect(new ComposerStore(file).drafts('prod')).toEqual({});

    writeFileSync(file, JSON.stringify({ version: 1, drafts: { compose: emptyComposer({ body: 'old' }) } }));
    const legacy = new ComposerStore(file);
    expect(legacy.drafts('local').compose?.body).toBe('old');
    expect(legacy.drafts('prod')).toEqual({});
  });

  it('keeps a draft body over the send limit rather than dropping it', () => {
    const dir = tempDir();
    const file = join(dir, 'composer.json');
    const big = 'x'.repeat(MAX_BODY_BYTES + 10);
    new ComposerStore(file).saveDraft('local', 'compose', emptyComposer({ body: big }));
    expect(new ComposerStore(file).drafts('local').compose?.body).toHaveLength(big.length);
  });

  it('moves an unreadable file aside instead of overwriting the user’s templates', () => {
    const dir = tempDir();
    const opened = openOverUnreadable(
      join(dir, 'composer.json'),
      '{"version":1,"templates":[{"broken":',
      (...args) => new ComposerStore(...args),
    );
    expect(opened.store.templates()).toEqual([]);
    expect(opened.filesLeft).toEqual([opened.aside]);
    expect(opened.problems[0]).toMatch(/could not be read and was moved to/);
  });
});
