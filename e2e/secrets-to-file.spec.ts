// Token-bearing text on a host without an OS clipboard (the browser host on a headless server): main
// writes it to a file the user names, the page only picks the path and sees the masked text. Covers the
// webhook intake URL and the Local profile's credentials as .env, each used afterwards by a real client.
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseEnv } from 'node:util';
import { Client, Receiver } from '@upstash/qstash';
import { Redis } from '@upstash/redis';
import { expect, goOnceStackRuns, openWebhookIntake, test } from './fixtures';
import { expectSecretKeptFromPage } from './support/secrets';
import { DEV_TOKEN } from './support/stack-api';

let dir: string;
const saved = { DISPLAY: process.env.DISPLAY, WAYLAND_DISPLAY: process.env.WAYLAND_DISPLAY };
test.beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'switchyard-secret-file-'));
  // The host each test starts inherits this: no graphical session, so no clipboard.
  delete process.env.DISPLAY;
  delete process.env.WAYLAND_DISPLAY;
});
test.afterAll(async () => {
  for (const [name, value] of Object.entries(saved)) if (value !== undefined) process.env[name] = value;
  rmSync(dir, { recursive: true, force: true });
});

test('webhook intake without a clipboard: main writes the URL to the named file; the page never sees the token', async ({
  app,
  frames,
  sink,
}) => {
  await openWebhookIntake(app, `${sink.url}/hook`);
  await expect(app.getByText('The back end writes a file instead of copying.')).toBeVisible();
  await expect(app.getByTestId('secret-delivery-method')).toContainText(
    'writes the URL, token included, to this file',
  );
  const path = join(dir, `intake-${test.info().repeatEachIndex}.txt`);
  await app.getByLabel('File to write').fill(path);
  await app.getByRole('button', { name: 'Write file' }).click();
  await expect(app.getByText(`Written to ${path}.`)).toBeVisible();

  const url = readFileSync(path, 'utf8').trim();
  expect(url).toContain(`qstash_token=${encodeURIComponent(DEV_TOKEN)}`);
  expect(statSync(path).mode & 0o777).toBe(0o600);
  await expectSecretKeptFromPage(app, frames.received, DEV_TOKEN);

  // Asking again for the same file never overwrites it: the service's reason is shown.
  await app.getByRole('button', { name: 'Write file' }).click();
  await expect(
    app.getByText(`${path} already exists: Switchyard never overwrites a file.`, { exact: false }),
  ).toBeVisible();

  const response = await fetch(url, { method: 'POST', body: 'from the file' });
  expect(response.status).toBe(200);
  const [delivery] = await sink.waitFor('/hook');
  expect(delivery!.body).toBe('from the file');
});

test('Local profile: credentials as .env, written by main, drive the vendor SDKs against the stack', async ({
  app,
  frames,
  sink,
}) => {
  await goOnceStackRuns(app, '#/profiles/local');
  const card = app.getByRole('region', { name: 'Credentials as .env' });
  await expect(card.getByTestId('secret-delivery-method')).toContainText('writes the .env file');
  const path = join(dir, `local-${test.info().repeatEachIndex}.env`);
  await card.getByLabel('File to write').fill(path);
  await card.getByRole('button', { name: 'Write file' }).click();
  await expect(card.getByText(`Written to ${path}.`)).toBeVisible();

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
