// A job rides out a short outage of its service: a bulk DLQ retry whose service answers 503 for a while
// (a cloud blip, the local stack restarting behind it) waits and asks again for the same chunk, the dialog
// says it is waiting instead of looking frozen, and the job ends with every entry retried once. The
// service is a real HTTP service (support/scripted-service.ts) in front of the console's real local stack.
// A retry whose answer is lost after the stack retried (a gateway's 503) ends with the entries retried, not
// failed: asked again the stack no longer knows them, and the summary says their new messages are unknown.
import { expect, go, test } from './fixtures';
import { createProfile } from './support/profiles';
import { startScriptedService } from './support/scripted-service';
import { DEV_TOKEN } from './support/stack-api';

const ENTRIES = 60;

test('a DLQ retry job waits through a 503 outage, says so, and retries every entry once', async ({
  app,
  sink,
  stack: { api },
}) => {
  test.setTimeout(120_000);
  // 60 entries in the DLQ (the sink refuses, no retries): two chunks, 50 and 10.
  sink.respond(() => ({ status: 500, body: 'no' }));
  const items = Array.from({ length: ENTRIES }, (_, index) => ({
    destination: `${sink.url}/outage`,
    headers: { 'Upstash-Retries': '0', 'Upstash-Label': 'outage' },
    body: `item ${index}`,
  }));
  expect((await api.request('POST', '/v2/batch', items)).ok).toBe(true);
  const inDlq = async () => {
    const page = await api.request('GET', '/v2/dlq?label=outage&count=100');
    return ((await page.json()) as { messages: unknown[] }).messages.length;
  };
  await expect.poll(inDlq, { timeout: 30_000 }).toBe(ENTRIES);
  sink.respond(() => ({ status: 200, body: 'ok' }));

  // The profile reaches the stack through a service that passes the first retry request (one chunk) on,
  // then answers 503 until the test has seen the dialog wait through it twice.
  const retries: string[] = [];
  let outage = true;
  const service = await startScriptedService(({ method, path }) => {
    if (method !== 'POST' || !path.startsWith('/v2/dlq/retry')) return 'forward';
    retries.push(path);
    return retries.length > 1 && outage
      ? { status: 503, json: { error: 'service unavailable, back in a moment' } }
      : 'forward';
  }, api.url);
  try {
    await app.keyboard.press('Alt+6');
    await createProfile(app, 'Blip', { messagesUrl: service.url, messageToken: DEV_TOKEN });
    await app.getByRole('button', { name: 'Use this profile' }).click();
    await expect(app.getByRole('button', { name: /Blip/ }).first()).toBeVisible();

    await go(app, '#/dlq');
    await app.getByRole('form', { name: 'DLQ filters' }).getByLabel('Label').fill('outage');
    await app.getByRole('button', { name: 'Apply' }).click();
    await expect(app.getByTestId('dlq-summary')).toHaveText(`${ENTRIES} entries`);
    await app.getByRole('button', { name: 'Retry all matching…' }).click();
    const dialog = app.getByRole('dialog', { name: 'Retry matching DLQ entries' });
    await expect(dialog.getByTestId('bulk-count')).toHaveText(`${ENTRIES} entries`);
    await dialog.getByRole('button', { name: `Retry ${ENTRIES} entries` }).click();

    // The second chunk meets the outage: the dialog says the job waits, why, and counts the attempts.
    const waiting = dialog.getByTestId('job-waiting');
    await expect(waiting).toContainText('The service is unavailable — trying again');
    await expect(waiting).toContainText('HTTP 503: service unavailable, back in a moment');
    await expect(dialog.getByTestId('bulk-running')).toContainText('50 of 60 processed');
    // Asked again after the first wait, it met the 503 again: it still waits, and counts the attempts.
    await expect(waiting).toContainText(/\(attempt [3-9]\)/, { timeout: 30_000 });

    // The service is back: the same chunk goes again and the job ends with every entry retried.
    outage = false;
    await expect(dialog.getByTestId('bulk-summary')).toContainText(`${ENTRIES} of ${ENTRIES} retried`, {
      timeout: 30_000,
    });
    await expect(waiting).toBeHidden();
    await expect(dialog.getByTestId('bulk-summary')).not.toContainText('failed');
    // The first chunk once, the second through two or more 503s and once more when it passed.
    expect(retries.length).toBeGreaterThanOrEqual(4);
    expect(new Set(retries.slice(1)).size).toBe(1);
    await expect.poll(inDlq).toBe(0);
    // The new messages are delivered (the sink's first 60 requests were the refused originals).
    await sink.waitFor('/outage', 2 * ENTRIES);
    await dialog.getByRole('button', { name: 'Done' }).click();

    // The journal says why the job took long.
    await go(app, '#/jobs');
    const row = app.getByTestId('job-row').first();
    await expect(row).toHaveAttribute('data-status', 'done');
    await expect(row.getByTestId('job-waited')).toHaveText(
      /^waited \d+ times for the service \(\d+ s in all\)$/,
    );
  } finally {
    await service.close();
  }
});

test('a DLQ retry whose answer is lost after the stack retried counts the entries as retried, not failed', async ({
  app,
  sink,
  stack: { api },
}) => {
  test.setTimeout(90_000);
  sink.respond(() => ({ status: 500, body: 'no' }));
  const items = Array.from({ length: 3 }, (_, index) => ({
    destination: `${sink.url}/lost`,
    headers: { 'Upstash-Retries': '0', 'Upstash-Label': 'lost' },
    body: `item ${index}`,
  }));
  expect((await api.request('POST', '/v2/batch', items)).ok).toBe(true);
  const inDlq = async () => {
    const page = await api.request('GET', '/v2/dlq?label=lost&count=100');
    return ((await page.json()) as { messages: unknown[] }).messages.length;
  };
  await expect.poll(inDlq, { timeout: 30_000 }).toBe(3);
  sink.respond(() => ({ status: 200, body: 'ok' }));

  // The first bulk retry reaches the stack, which retries the three entries; the gateway loses its answer.
  const retries: string[] = [];
  const service = await startScriptedService(({ method, path }) => {
    if (method !== 'POST' || !path.startsWith('/v2/dlq/retry')) return 'forward';
    retries.push(path);
    return retries.length === 1
      ? { forwardThen: { status: 503, json: { error: 'gateway failed' } } }
      : 'forward';
  }, api.url);
  try {
    await app.keyboard.press('Alt+6');
    await createProfile(app, 'Lossy', { messagesUrl: service.url, messageToken: DEV_TOKEN });
    await app.getByRole('button', { name: 'Use this profile' }).click();
    await expect(app.getByRole('button', { name: /Lossy/ }).first()).toBeVisible();

    await go(app, '#/dlq');
    await app.getByRole('form', { name: 'DLQ filters' }).getByLabel('Label').fill('lost');
    await app.getByRole('button', { name: 'Apply' }).click();
    await expect(app.getByTestId('dlq-summary')).toHaveText('3 entries');
    await app.getByRole('button', { name: 'Retry all matching…' }).click();
    const dialog = app.getByRole('dialog', { name: 'Retry matching DLQ entries' });
    await dialog.getByRole('button', { name: 'Retry 3 entries' }).click();

    const summary = dialog.getByTestId('bulk-summary');
    await expect(summary).toContainText('3 of 3 retried.', { timeout: 30_000 });
    await expect(summary).toContainText('3 were retried by a first request whose answer got lost');
    await expect(summary).not.toContainText('failure');
    await expect(summary.getByRole('table', { name: 'Failures' })).toHaveCount(0);
    // Each entry was retried once: three new messages reach the sink after the three refused originals.
    await expect.poll(inDlq).toBe(0);
    await sink.waitFor('/lost', 6);
  } finally {
    await service.close();
  }
});
