// The composer's handlers against the real local stack (a child process), through a recording proxy so
// the test sees exactly what main put on the wire, with real destinations receiving the deliveries.
import { execFile } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BatchOutcome } from '../../../../shared/bridge/procedures/messages/batch';
import type { CopyResult, HistoryEntry } from '../../../../shared/bridge/procedures/messages/composer';
import type { DestinationLists, PublishOutcome } from '../../../../shared/bridge/procedures/messages/publish';
import { emptyComposer, type ComposerModel } from '../../../../shared/composer/model';
import { MAX_BODY_BYTES } from '../../../../shared/messages/limits';
import { buildPublishRequest } from '../../../../shared/composer/request';
import type { Clipboard } from '../../clipboard/clipboard';
import { exportsFolderSaver } from '../../saving/exports-folder';
import { useTempDirs } from '../../../../shared/testing/temp-dir';
import { eventually, startDestination, useStackBehindProxy } from '../test-stack/real-stack';
import { routerWith, valueOf } from '../test-stack/router';
import { publishHandlers } from './publish';

const env = useStackBehindProxy();
let destination: Awaited<ReturnType<typeof startDestination>>;
const tempDir = useTempDirs();

beforeAll(async () => {
  destination = await startDestination();
}, 60_000);
afterAll(async () => {
  await destination?.close();
});

/** A copying "clipboard" that keeps the text in memory; the OS clipboard is tested in clipboard.test.ts. */
function memoryClipboard(): Clipboard & { texts: string[] } {
  const texts: string[] = [];
  return {
    texts,
    status: () => ({ available: true, method: 'memory' }),
    writeText: async (text) => {
      texts.push(text);
    },
  };
}

function setup(readOnly = false) {
  const clipboard = memoryClipboard();
  const dataDir = tempDir();
  const handlers = publishHandlers({
    profiles: env.profiles,
    dataDir,
    clipboard: () => clipboard,
    saver: exportsFolderSaver({ folder: join(dataDir, 'exports'), servedFolders: [] }),
  });
  const router = routerWith(handlers, readOnly ? new Set(['test']) : new Set());
  const call = async <T>(name: string, input: unknown) => valueOf<T>(await router.call(name, input));
  return { call, router, clipboard, dataDir };
}

const to = (path: string, overrides: Partial<ComposerModel> = {}) =>
  emptyComposer({ url: `${destination.url}${path}`, ...overrides });

describe('messages.publish', () => {
  it('sends exactly the headers the preview builds, plus the token, and the destination gets the forwarded ones', async () => {
    const { call } = setup();
    const model = to('/exact', {
      body: '{"hello":"world"}',
      headers: [
        { name: 'X-Trace', value: 't-1', enabled: true },
        { name: 'X-Off', value: 'no', enabled: false },
      ],
      retries: '0',
      labels: 'composer-test',
    });
    const before = env.proxy.requests.length;
    const outcome = await call<PublishOutcome>('messages.publish', { profileId: 'test', model });
    expect(outcome).toMatchObject({ status: 200, fanOut: false });
    expect(outcome.messages[0]?.messageId).toMatch(/^msg_/);

    const sent = env.proxy.requests.slice(before);
    expect(sent).toHaveLength(1);
    const preview = buildPublishRequest(model, Date.now());
    expect(sent[0]?.url).toBe(preview.path);
    expect(sent[0]?.body).toBe(preview.body);
    for (const [name, value] of preview.headers) expect(sent[0]?.headers[name.toLowerCase()]).toBe(value);
    expect(sent[0]?.headers.authorization).toBe(`Bearer ${env.stack.token}`);
    const upstash = Object.keys(sent[0]?.headers ?? {}).filter((name) => name.startsWith('upstash-'));
    expect(upstash.sort()).toEqual(
      preview.headers
        .map(([n]) => n.toLowerCase())
        .filter((n) => n.startsWith('upstash-'))
        .sort(),
    );

    const [delivery] = await eventually(async () => {
      const got = destination.received.filter((r) => r.url === '/exact');
      return got.length > 0 ? got : undefined;
    });
    expect(delivery?.headers['x-trace']).toBe('t-1');
    expect(delivery?.headers['x-off']).toBeUndefined();
    expect(delivery?.headers['upstash-message-id']).toBe(outcome.messages[0]?.messageId);
    expect(delivery?.body).toBe('{"hello":"world"}');
  });

  it('fans out to a URL group, one message per endpoint, and lists groups and queues', async () => {
    const { call } = setup();
    const auth = { authorization: `Bearer ${env.stack.token}`, 'content-type': 'application/json' };
    await fetch(`${env.stack.url}/v2/topics/composer-fanout/endpoints`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({
        endpoints: [
          { name: 'a', url: `${destination.url}/fan-a` },
          { name: 'b', url: `${destination.url}/fan-b` },
        ],
      }),
    });
    await fetch(`${env.stack.url}/v2/queues`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ queueName: 'composer-queue', parallelism: 1 }),
    });
    const lists = await call<DestinationLists>('messages.destinations', { profileId: 'test' });
    expect(lists.groups).toContainEqual(expect.objectContaining({ name: 'composer-fanout', endpoints: 2 }));
    expect(lists.queues).toContainEqual(expect.objectContaining({ name: 'composer-queue', paused: false }));

    const outcome = await call<PublishOutcome>('messages.publish', {
      profileId: 'test',
      model: emptyComposer({ destinationKind: 'group', group: 'composer-fanout', body: 'fan' }),
    });
    expect(outcome.fanOut).toBe(true);
    expect(outcome.messages.map((m) => m.url).sort()).toEqual([
      `${destination.url}/fan-a`,
      `${destination.url}/fan-b`,
    ]);

    const queued = await call<PublishOutcome>('messages.publish', {
      profileId: 'test',
      model: to('/queued', { destinationKind: 'queue', queue: 'composer-queue' }),
    });
    expect(queued.messages[0]?.messageId).toMatch(/^msg_/);
    await eventually(async () => (destination.received.some((r) => r.url === '/queued') ? true : undefined));
  });

  it('a duplicate comes back deduplicated with HTTP 202', async () => {
    const { call } = setup();
    const model = to('/dedup', { dedupMode: 'id', dedupId: `dedup-${Date.now()}` });
    const first = await call<PublishOutcome>('messages.publish', { profileId: 'test', model });
    const second = await call<PublishOutcome>('messages.publish', { profileId: 'test', model });
    expect(second.status).toBe(202);
    expect(second.messages[0]).toEqual({
      messageId: first.messages[0]?.messageId,
      url: first.messages[0]?.url,
      deduplicated: true,
    });
    expect(first.messages[0]?.url).toMatch(/\/dedup$/);
  });

  it('the service’s own error text comes back, and the history records it without the token', async () => {
    const { call, router } = setup();
    const result = await router.call('messages.publish', {
      profileId: 'test',
      model: emptyComposer({ destinationKind: 'group', group: 'no-such-group' }),
    });
    expect(result).toEqual({
      ok: false,
      error: { code: 'SERVICE_ERROR', status: 404, message: "URL group 'no-such-group' not found" },
    });
    const history = await call<HistoryEntry[]>('messages.composer.history', { profileId: 'test' });
    expect(history[0]).toMatchObject({
      kind: 'single',
      summary: 'group no-such-group',
      messageIds: [],
      error: "HTTP 404: URL group 'no-such-group' not found",
    });
    expect(JSON.stringify(history)).not.toContain(env.stack.token);
  });

  it('an invalid model is refused in main with per-field messages, and nothing is sent', async () => {
    const { router } = setup();
    const before = env.proxy.requests.length;
    const result = await router.call('messages.publish', {
      profileId: 'test',
      model: to('/never', { retryDelay: 'pow(2,', delay: '5x' }),
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe('INVALID_INPUT');
    expect(result.error.fields).toEqual({
      retryDelay: 'expression ends too early',
      delay: "unknown unit 'x' in '5x' (use s, m, h or d)",
    });
    expect(env.proxy.requests.length).toBe(before);
  });

  it('read-only profiles are refused by main before anything is sent', async () => {
    const { router } = setup(true);
    const before = env.proxy.requests.length;
    for (const [name, input] of [
      ['messages.publish', { profileId: 'test', model: to('/ro') }],
      ['messages.batch', { profileId: 'test', items: [to('/ro')] }],
    ] as const) {
      const result = await router.call(name, input);
      expect(result.ok ? 'ok' : result.error.code).toBe('READ_ONLY');
    }
    expect(env.proxy.requests.length).toBe(before);
  });
});

describe('messages.batch', () => {
  it('results are aligned with the items: a refused item carries its error, the others are delivered', async () => {
    const { call } = setup();
    const outcome = await call<BatchOutcome>('messages.batch', {
      profileId: 'test',
      items: [
        to('/batch-1', { body: 'one' }),
        emptyComposer({ destinationKind: 'group', group: 'missing-group-for-batch' }),
        to('/batch-3', { body: 'three', headers: [{ name: 'X-Item', value: '3', enabled: true }] }),
      ],
    });
    expect(outcome.items.map((item) => item.ok)).toEqual([true, false, true]);
    expect(outcome.items[1]).toEqual({ ok: false, error: "URL group 'missing-group-for-batch' not found" });
    const third = await eventually(async () => destination.received.find((r) => r.url === '/batch-3'));
    expect(third.headers['x-item']).toBe('3');
    expect(third.body).toBe('three');
  });

  it('invalid items are refused before sending, each error under its item', async () => {
    const { router } = setup();
    const before = env.proxy.requests.length;
    const result = await router.call('messages.batch', {
      profileId: 'test',
      items: [to('/ok'), emptyComposer({ url: 'not a url' }), to('/ok', { retries: '-1' })],
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toMatchObject({
      code: 'INVALID_INPUT',
      message: 'Items 2, 3 of the batch need fixing before anything is sent.',
      fields: {
        'items.1.url': 'destination URL must start with http:// or https://',
        'items.2.retries': 'a whole number from 0 to 100',
      },
    });
    expect(env.proxy.requests.length).toBe(before);
  });
});

describe('copying with the token goes to the clipboard only', () => {
  it('copy as curl: the clipboard gets a command that works, the answer only a masked one', async () => {
    const { call, clipboard } = setup();
    const result = await call<CopyResult & { masked: string }>('messages.composer.copyCurl', {
      profileId: 'test',
      model: to('/from-curl', {
        body: `{"quote":"it's"}`,
        headers: [{ name: 'X-C', value: 'c', enabled: true }],
      }),
    });
    expect(JSON.stringify(result)).not.toContain(env.stack.token);
    expect(result.masked).toContain(`Bearer ••••${env.stack.token.slice(-4)}`);
    const command = clipboard.texts[0] as string;
    expect(command).toContain(`Authorization: Bearer ${env.stack.token}`);
    // The copied command, run by a real shell and curl, publishes the message.
    // (Asynchronously: the recording proxy runs in this process.)
    const { stdout } = await promisify(execFile)('sh', ['-c', `${command} --silent`], { encoding: 'utf8' });
    expect(JSON.parse(stdout)).toHaveProperty('messageId');
    const delivered = await eventually(async () => destination.received.find((r) => r.url === '/from-curl'));
    expect(delivered.headers['x-c']).toBe('c');
    expect(delivered.body).toBe(`{"quote":"it's"}`);
  });

  it('webhook URL: the clipboard gets a URL that works on its own, the answer a masked one', async () => {
    const { call, clipboard } = setup();
    const result = await call<CopyResult & { masked: string }>('messages.composer.copyWebhookUrl', {
      profileId: 'test',
      model: to('/hook', { retries: '2', headers: [{ name: 'X-Src', value: 'gh', enabled: true }] }),
    });
    expect(result.masked).toBe(
      `${env.proxy.url}/v2/publish/${destination.url}/hook?qstash_token=••••${env.stack.token.slice(-4)}&upstash-method=POST&upstash-forward-x-src=gh&upstash-retries=2`,
    );
    const url = clipboard.texts[0] as string;
    expect(url).toContain(`qstash_token=${encodeURIComponent(env.stack.token)}`);
    // Whoever calls the intake URL needs no token of their own.
    const response = await fetch(url, {
      method: 'POST',
      body: 'from a webhook',
      headers: { 'content-type': 'text/plain' },
    });
    expect(response.status).toBe(200);
    const delivered = await eventually(async () => destination.received.find((r) => r.url === '/hook'));
    expect(delivered.headers['x-src']).toBe('gh');
    expect(delivered.body).toBe('from a webhook');
  });

  it('copy as curl to a file: main writes it in its exports folder (0600), and the file runs', async () => {
    const { call, clipboard, dataDir } = setup();
    const result = await call<CopyResult & { path: string }>('messages.composer.copyCurl', {
      profileId: 'test',
      model: to('/from-curl-file', { body: 'from the file' }),
      to: { kind: 'file', suggestedName: 'publish.sh' },
    });
    expect(result).toMatchObject({ to: 'file', path: join(dataDir, 'exports', 'publish.sh') });
    expect(JSON.stringify(result)).not.toContain(env.stack.token);
    expect(clipboard.texts).toEqual([]);
    expect(statSync(result.path).mode & 0o777).toBe(0o600);
    expect(readFileSync(result.path, 'utf8')).toContain(`Authorization: Bearer ${env.stack.token}`);
    const { stdout } = await promisify(execFile)('sh', [result.path], { encoding: 'utf8' });
    expect(stdout).toContain('messageId');
    const delivered = await eventually(async () =>
      destination.received.find((r) => r.url === '/from-curl-file'),
    );
    expect(delivered.body).toBe('from the file');
  });

  it('a missing clipboard is a readable error', async () => {
    const dataDir = tempDir();
    const handlers = publishHandlers({
      profiles: env.profiles,
      dataDir,
      saver: exportsFolderSaver({ folder: join(dataDir, 'exports'), servedFolders: [] }),
      clipboard: () => ({
        status: () => ({ available: false, problem: 'no clipboard' }),
        writeText: () => Promise.reject(new Error('No clipboard tool found: install xclip')),
      }),
    });
    const result = await routerWith(handlers).call('messages.composer.copyWebhookUrl', {
      profileId: 'test',
      model: to('/x'),
    });
    expect(result).toEqual({
      ok: false,
      error: { code: 'NOT_CONFIGURED', message: 'No clipboard tool found: install xclip' },
    });
  });
});

describe('drafts, history and templates', () => {
  it('live in main’s data folder and survive a restart', async () => {
    const first = setup();
    await first.call('messages.composer.saveDraft', {
      profileId: 'test',
      key: 'compose',
      value: to('/draft', { body: 'half-written' }),
    });
    await first.call('messages.composer.saveDraft', {
      profileId: 'test',
      key: 'batch',
      value: [to('/b1'), to('/b2')],
    });
    // A body over the send limit is still a draft: it is kept, not refused (the form says it cannot be sent).
    const overLimit = 'x'.repeat(MAX_BODY_BYTES + 1);
    await first.call('messages.composer.saveDraft', {
      profileId: 'test',
      key: 'webhook',
      value: to('/big', { body: overLimit }),
    });
    const saved = await first.call<{ id: string }>('messages.composer.saveTemplate', {
      name: 'Order created',
      model: to('/t'),
    });
    await first.call('messages.publish', { profileId: 'test', model: to('/history') });

    // A new console on the same folder (a restart).
    const handlers = publishHandlers({
      profiles: env.profiles,
      dataDir: first.dataDir,
      saver: exportsFolderSaver({ folder: join(first.dataDir, 'exports'), servedFolders: [] }),
    });
    const router = routerWith(handlers);
    const call = async <T>(name: string, input: unknown) => valueOf<T>(await router.call(name, input));
    const drafts = await call<{ compose: ComposerModel; batch: ComposerModel[]; webhook: ComposerModel }>(
      'messages.composer.drafts',
      { profileId: 'test' },
    );
    expect(drafts.compose.body).toBe('half-written');
    expect(drafts.webhook.body).toHaveLength(overLimit.length);
    // Drafts belong to their profile.
    expect(await call('messages.composer.drafts', { profileId: 'other' })).toEqual({});
    // Also for an id every object has as a key: the page names the profile.
    for (const profileId of ['constructor', '__proto__']) {
      expect(await call('messages.composer.drafts', { profileId })).toEqual({});
      expect(await call('messages.composer.history', { profileId })).toEqual([]);
    }
    expect(drafts.batch.map((m) => m.url)).toEqual([`${destination.url}/b1`, `${destination.url}/b2`]);
    expect(await call('messages.composer.templates', {})).toEqual([
      expect.objectContaining({ id: saved.id, name: 'Order created' }),
    ]);
    const history = await call<HistoryEntry[]>('messages.composer.history', { profileId: 'test' });
    expect(history).toHaveLength(1);
    expect(history[0]?.messageIds[0]).toMatch(/^msg_/);
    expect(await call('messages.composer.history', { profileId: 'other' })).toEqual([]);

    // Same name replaces; delete removes; clearing history is per profile.
    await call('messages.composer.saveTemplate', { name: 'Order created', model: to('/t2') });
    expect(await call<unknown[]>('messages.composer.templates', {})).toHaveLength(1);
    expect(await call('messages.composer.deleteTemplate', { id: saved.id })).toEqual({ deleted: saved.id });
    expect(await call('messages.composer.templates', {})).toEqual([]);
    expect(await call('messages.composer.clearHistory', { profileId: 'test' })).toEqual({ cleared: 1 });
    await call('messages.composer.saveDraft', { profileId: 'test', key: 'compose', value: null });
    expect(await call('messages.composer.drafts', { profileId: 'test' })).not.toHaveProperty('compose');
  });
});
