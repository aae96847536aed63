import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { emptyComposer } from '../../../../shared/composer/model';
import { useTempDirs } from '../../testing/temp-dir';
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
    store.saveDraft('compose', emptyComposer({ body: 'x' }));
    expect(readdirSync(dir)).toEqual(['composer.json']);
    expect(JSON.parse(readFileSync(join(dir, 'composer.json'), 'utf8')).drafts.compose.body).toBe('x');
  });

  it('moves an unreadable file aside instead of overwriting the user’s templates', () => {
    const dir = tempDir();
    const file = join(dir, 'composer.json');
    writeFileSync(file, '{"version":1,"templates":[{"broken":');
    const problems: string[] = [];
    const store = new ComposerStore(
      file,
      () => 42,
      (message) => problems.push(message),
    );
    expect(store.templates()).toEqual([]);
    expect(readdirSync(dir)).toEqual(['composer.json.unreadable-42']);
    expect(problems[0]).toMatch(/could not be read and was moved to/);
  });
});
