// Token-bearing text on a host without an OS clipboard (the browser host on a headless server): main
// writes it to a new file in its private exports folder — the page may suggest a name, never a place — and
// the screen says where it went. Covers the webhook intake URL and the Local profile's credentials as
// .env, each used afterwards by a real client, and the page's own view: whatever it sends over the
// bridge, no path it names is written and nothing the host serves over HTTP holds a token.
import { lstatSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseEnv } from 'node:util';
import { Client, Receiver } from '@upstash/qstash';
import { Redis } from '@upstash/redis';
import { expect, goOnceStackRuns, openWebhookIntake, test } from './fixtures';
import { expectSecretKeptFromPage, withoutClipboard } from './support/secrets';
import { DEV_TOKEN } from './support/stack-api';

withoutClipboard();

const RENDERER_DIR = join(process.cwd(), 'out', 'renderer');

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (lstatSync(path).isDirectory()) out.push(...filesUnder(path));
    else out.push(path);
  }
  return out;
}

test('webhook intake without a clipboard: main writes the URL into its exports folder and says where', async ({
  app,
  consoleHost,
  frames,
  sink,
}) => {
  const exportsDir = join(consoleHost.dataDir, 'exports');
  await openWebhookIntake(app, `${sink.url}/hook`);
  await expect(app.getByText('The back end writes a file instead of copying.')).toBeVisible();
  await expect(app.getByTestId('secret-delivery-method')).toContainText(
    'writes the URL, token included, to a new file in its exports folder',
  );
  await expect(app.getByTestId('exports-folder')).toHaveText(exportsDir);
  await expect(app.getByLabel('File name')).toHaveValue('switchyard-intake-url.txt');

  // The field takes a name, never a path: the button stays off and the field says why.
  await app.getByLabel('File name').fill('../leak.txt');
  await expect(app.getByText('A file name only, without folders (no / or \\).')).toBeVisible();
  await expect(app.getByRole('button', { name: 'Write file' })).toBeDisabled();

  await app.getByLabel('File name').fill('intake.txt');
  await app.getByRole('button', { name: 'Write file' }).click();
  const path = join(exportsDir, 'intake.txt');
  await expect(app.getByTestId('written-path')).toHaveText(path);
  const url = readFileSync(path, 'utf8').trim();
  expect(url).toContain(`qstash_token=${encodeURIComponent(DEV_TOKEN)}`);
  expect(statSync(path).mode & 0o777).toBe(0o600);
  expect(statSync(exportsDir).mode & 0o777).toBe(0o700);
  await expectSecretKeptFromPage(app, frames.received, DEV_TOKEN);

  // The same name again never replaces the file: main numbers the new one and shows its path.
  await app.getByRole('button', { name: 'Write file' }).click();
  await expect(app.getByTestId('written-path')).toHaveText(join(exportsDir, 'intake-2.txt'));
  expect(readFileSync(path, 'utf8').trim()).toBe(url);

  const response = await fetch(url, { method: 'POST', body: 'from the file' });
  expect(response.status).toBe(200);
  const [delivery] = await sink.waitFor('/hook');
  expect(delivery!.body).toBe('from the file');
});

test('Local profile: credentials as .env, written by main, drive the vendor SDKs against the stack', async ({
  app,
  consoleHost,
  frames,
  sink,
}) => {
  await goOnceStackRuns(app, '#/profiles/local');
  const card = app.getByRole('region', { name: 'Credentials as .env' });
  await expect(card.getByTestId('secret-delivery-method')).toContainText('writes the .env file');
  await card.getByRole('button', { name: 'Write file' }).click();
  const path = join(consoleHost.dataDir, 'exports', 'switchyard-local.env');
  await expect(card.getByTestId('written-path')).toHaveText(path);

  const env = parseEnv(readFileSync(path, 'utf8'));
  expect(Object.keys(env).sort()).toEqual([
    'QSTASH_CURRENT_SIGNING_KEY',
    'QSTASH_NEXT_SIGNING_KEY',
    'QSTASH_TOKEN',
    'QSTASH_URL',
    'UPSTASH_REDIS_REST_TOKEN',
    'UPSTASH_REDIS_REST_URL',
  ]);
  expect(statSync(path).mode & 0o777).toBe(0o600);
  const received = frames.received.join('\n');
  for (const name of ['QSTASH_TOKEN', 'QSTASH_CURRENT_SIGNING_KEY', 'UPSTASH_REDIS_REST_TOKEN'] as const) {
    expect(received).not.toContain(env[name]);
  }

  // The KV variables work with @upstash/redis …
  const redis = new Redis({ url: env.UPSTASH_REDIS_REST_URL!, token: env.UPSTASH_REDIS_REST_TOKEN! });
  await redis.set('from-env', 'yes');
  expect(await redis.get('from-env')).toBe('yes');
  // … the message ones with @upstash/qstash, and the signing keys verify what the stack signs.
  const client = new Client({ baseUrl: env.QSTASH_URL!, token: env.QSTASH_TOKEN! });
  await client.publish({ url: `${sink.url}/env`, body: 'signed' });
  const [delivery] = await sink.waitFor('/env');
  const receiver = new Receiver({
    currentSigningKey: env.QSTASH_CURRENT_SIGNING_KEY!,
    nextSigningKey: env.QSTASH_NEXT_SIGNING_KEY!,
  });
  const valid = await receiver.verify({
    signature: String(delivery!.headers['upstash-signature']),
    body: delivery!.body,
  });
  expect(valid).toBe(true);
});

test('the page’s own bridge calls cannot choose where main writes, and nothing served holds a token', async ({
  app,
  consoleHost,
}) => {
  await goOnceStackRuns(app, '#/profiles/local');
  const tag = `leak-${process.pid}-${test.info().repeatEachIndex}`;
  const attempts = [
    { kind: 'file', path: join(RENDERER_DIR, `${tag}.env`) },
    { kind: 'file', path: join(consoleHost.dataDir, 'exports', '..', '..', `${tag}.env`) },
    { kind: 'file', suggestedName: `../${tag}.env` },
    { kind: 'file', suggestedName: `../../../out/renderer/${tag}.env` },
    { kind: 'file', suggestedName: '..' },
  ];
  // What a hostile script in the page could do: its own socket to the bridge, with the tab's secret.
  const answers = await app.evaluate(async (targets) => {
    const secret = sessionStorage.getItem('switchyard.bridgeSecret');
    const ws = new WebSocket(`ws://${location.host}/bridge?secret=${secret}`);
    await new Promise((resolve, reject) => {
      ws.onopen = resolve;
      ws.onerror = reject;
    });
    const call = (id: number, name: string, input: unknown) =>
      new Promise<unknown>((resolve) => {
        ws.addEventListener('message', (event) => {
          const frame = JSON.parse(String(event.data)) as { type: string; id: number };
          if (frame.type === 'result' && frame.id === id) resolve(frame);
        });
        ws.send(JSON.stringify({ type: 'call', id, name, input }));
      });
    const out: unknown[] = [];
    let id = 1;
    for (const to of targets) out.push(await call(id++, 'profiles.copyLocalEnv', { to }));
    out.push(
      await call(id++, 'profiles.copyLocalEnv', { to: { kind: 'file', suggestedName: 'index.html' } }),
    );
    ws.close();
    return out;
  }, attempts);

  for (const [index, answer] of answers.slice(0, attempts.length).entries()) {
    expect(answer, JSON.stringify(attempts[index])).toMatchObject({
      ok: false,
      error: { code: 'INVALID_INPUT' },
    });
  }
  // A plain name is fine, and lands in the exports folder, not in the served one.
  const last = answers[attempts.length] as { ok: boolean; value: { path: string } };
  expect(last.ok).toBe(true);
  expect(last.value.path).toBe(join(consoleHost.dataDir, 'exports', 'index.html'));
  const localToken = parseEnv(readFileSync(last.value.path, 'utf8')).QSTASH_TOKEN!;
  expect(localToken).toBe(DEV_TOKEN);

  // Nothing written under the served folder, and nothing it serves holds the token.
  const served = filesUnder(RENDERER_DIR);
  expect(served.filter((file) => file.includes(tag))).toEqual([]);
  for (const file of served) {
    const response = await app.request.get(new URL(`/${relative(RENDERER_DIR, file)}`, consoleHost.url).href);
    expect(await response.text(), file).not.toContain(localToken);
  }
  for (const url of [`/${tag}.env`, '/../exports/index.html', '/%2e%2e/exports/index.html']) {
    const response = await app.request.get(new URL(url, consoleHost.url).href);
    expect(response.status(), url).toBe(404);
  }
});
