// A job rides out a short outage of its service: a bulk DLQ retry whose service answers 503 for a while
// (a cloud blip, the local stack restarting behind it) waits and asks again for the same chunk, the dialog
// says it is waiting instead of looking frozen, and the job ends with every entry retried once. The
// service is a real HTTP service (support/scripted-service.ts) in front of the console's real local stack.
// A retry whose answer is lost after the stack retried (a gateway's 503) ends with the entries retried, not
// failed: asked again the stack no longer knows them, and the summary says their new messages are unknown.
// A listing that meets an outage waits the same way, and the dialog says so before the start.
import type { Page } from '@playwright/test';
import { expect, go, test } from './fixtures';
import { createProfile } from './support/profiles';
import { startScriptedService } from './support/scripted-service';
import type { Sink } from './support/sink';
import { DEV_TOKEN, type StackApi } from './support/stack-api';

const ENTRIES = 60;

/**
 * `count` entries labelled `label` in the DLQ (sent to the sink, which refuses them once; no retries), then
 * the sink accepts again. Answers how many entries with the label are in the DLQ now, to poll.
 */
async function dlqOf(api: StackApi, sink: Sink, label: string, count: number) {
  sink.respond(() => ({ status: 500, body: 'no' }));
  const items = Array.from({ length: count }, (_, index) => ({
    destination: `${sink.url}/${label}`,
    headers: { 'Upstash-Retries': '0', 'Upstash-Label': label },
    body: `item ${index}`,
  }));
  expect((await api.request('POST', '/v2/batch', items)).ok).toBe(true);
  const inDlq = async () => {
    const page = await api.request('GET', `/v2/dlq?label=${label}&count=100`);
    return ((await page.json()) as { messages: unknown[] }).messages.length;
  };
  await expect.poll(inDlq, { timeout: 30_000 }).toBe(count);
  sink.respond(() => ({ status: 200, body: 'ok' }));
  return inDlq;
}

/** A profile `name` whose message service is `url` (a scripted service in front of the stack), in use. */
async function useProfileAt(app: Page, name: string, url: string): Promise<void> {
  await app.keyboard.press('Alt+6');
  await createProfile(app, name, { messagesUrl: url, messageToken: DEV_TOKEN });
  await app.getByRole('button', { name: 'Use this profile' }).click();
  await expect(app.getByRole('button', { name: new RegExp(name) }).first()).toBeVisible();
}

/** The DLQ filtered by `label` (`count` entries), and its "Retry all matching" dialog started. */
async function retryAllLabelled(app: Page, label: string, count: number) {
  await go(app, '#/dlq');
  await app.getByRole('form', { name: 'DLQ filters' }).getByLabel('Label').fill(label);
  await app.getByRole('button', { name: 'Apply' }).click();
  await expect(app.getByTestId('dlq-summary')).toHaveText(`${count} entries`);
  await app.getByRole('button', { name: 'Retry all matching…' }).click();
  const dialog = app.getByRole('dialog', { name: 'Retry matching DLQ entries' });
  await expect(dialog.getByTestId('bulk-count')).toHaveText(`${count} entries`);
  await dialog.getByRole('button', { name: `Retry ${count} entries` }).click();
  return dialog;
}

test('a DLQ retry job waits through a 503 outage, says so, and retries every entry once', async ({
  app,
  sink,
  stack: { api },
}) => {
  test.setTimeout(120_000);
  // 60 entries in the DLQ: two chunks, 50 and 10.
  const inDlq = await dlqOf(api, sink, 'outage', ENTRIES);

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
    await useProfileAt(app, 'Blip', service.url);
    const dialog = await retryAllLabelled(app, 'outage', ENTRIES);

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
  const inDlq = await dlqOf(api, sink, 'lost', 3);

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
    await useProfileAt(app, 'Lossy', service.url);
    const dialog = await retryAllLabelled(app, 'lost', 3);

    const summary = dialog.getByTestId('bulk-summary');
    await expect(summary).toContainText('3 of 3 retried.', { timeout: 30_000 });
    await expect(summary).toContainText('3 were retried by a first request whose answer got lost');
    await expect(summary).not.toContainText('failure');
    await expect(summary.getByRole('table', { name: 'Failures' })).toHaveCount(0);
    // Each entry was retried once: three new messages reach the sink after the three refused originals.
    await expect.poll(inDlq).toBe(0);
    await sink.waitFor('/lost', 6);
    await dialog.getByRole('button', { name: 'Done' }).click();

    // The Jobs screen keeps the count from the journal.
    await go(app, '#/jobs');
    const row = app.getByTestId('job-row').first();
    await expect(row).toHaveAttribute('data-status', 'done');
    await expect(row.getByTestId('job-unconfirmed')).toHaveText('· 3 unconfirmed');
  } finally {
    await service.close();
  }
});

test('a job whose listing meets an outage says it waits before the start, then previews', async ({
  app,
  sink,
  stack: { api },
}) => {
  test.setTimeout(90_000);
  await dlqOf(api, sink, 'listing', 3);

  // The DLQ's listing answers 503 from the moment the dialog opens until the test has seen it wait.
  let outage = false;
  const service = await startScriptedService(({ method, path }) => {
    if (outage && method === 'GET' && path.startsWith('/v2/dlq')) {
      return { status: 503, json: { error: 'listing unavailable' } };
    }
    return 'forward';
  }, api.url);
  try {
    await useProfileAt(app, 'Listing blip', service.url);
    await go(app, '#/dlq');
    await app.getByRole('form', { name: 'DLQ filters' }).getByLabel('Label').fill('listing');
    await app.getByRole('button', { name: 'Apply' }).click();
    await expect(app.getByTestId('dlq-summary')).toHaveText('3 entries');
    outage = true;
    await app.getByRole('button', { name: 'Retry all matching…' }).click();
    const dialog = app.getByRole('dialog', { name: 'Retry matching DLQ entries' });

    const waiting = dialog.getByTestId('job-waiting');
    await expect(waiting).toContainText('The service is unavailable — trying again');
    await expect(waiting).toContainText('HTTP 503: listing unavailable');
    outage = false;
    // Listed after the wait: the preview shows, the wait is gone, and nothing was retried yet.
    await expect(dialog.getByTestId('bulk-count')).toHaveText('3 entries', { timeout: 30_000 });
    await expect(waiting).toBeHidden();
    await dialog.getByRole('button', { name: 'Retry 3 entries' }).click();
    await expect(dialog.getByTestId('bulk-summary')).toContainText('3 of 3 retried.', { timeout: 30_000 });
  } finally {
    await service.close();
  }
});
