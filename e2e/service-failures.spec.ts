// When the service a screen talks to fails, as an operator meets it: a service answering 500 and then coming
// back, a service that does not answer at all, a refused token, the local stack exiting under open screens,
// a job whose service goes away mid-way. The error stays in place and says what to do, requests stay few
// (polling backs off while the service fails), a hung request can be given up, nothing typed is lost, and
// screens and streams pick up again by themselves when the service is back.
import type { Page } from '@playwright/test';
import { expect, type FrameLog, go, runJobDialog, test } from './fixtures';
import { kvApi } from './support/kv-api';
import { createProfile, useKvProfile } from './support/profiles';
import { type Answer, startScriptedService } from './support/scripted-service';
import { DEV_TOKEN } from './support/stack-api';

/** Creates a profile whose message API is `url` and makes it the active one. */
async function useProfileAt(app: Page, name: string, url: string): Promise<void> {
  await app.keyboard.press('Alt+6');
  await createProfile(app, name, { messagesUrl: url, messageToken: DEV_TOKEN });
  await app.getByRole('button', { name: 'Use this profile' }).click();
  await expect(app.getByRole('button', { name: new RegExp(name) }).first()).toBeVisible();
}

/** The local stack's process id, read from the Local stack page (the page is left where it was). */
async function stackPid(app: Page): Promise<number> {
  const back = await app.evaluate(() => location.hash);
  await go(app, '#/stack');
  await expect(app.getByTestId('stack-page-state')).toHaveText('Running', { timeout: 30_000 });
  const text = await app.getByText(/^pid \d+$/).textContent();
  await go(app, back);
  return Number(text!.slice(4));
}

/**
 * The KV API of the local stack now running, as main last told the page (a restarted stack may listen on
 * new ports: tests give it free ones), without leaving the screen under test.
 */
function runningKv(frames: FrameLog) {
  const urls = frames.received.flatMap((frame) =>
    [...frame.matchAll(/"kvUrl":"([^"]+)"/g)].map((m) => m[1]!),
  );
  return kvApi(urls.at(-1)!);
}

/** The line above data shown while its refresh waits (`status`), and once it was stopped (`stopped`). */
function refreshLines(app: Page, service: string) {
  return {
    status: app
      .getByRole('status')
      .filter({ hasText: new RegExp(`^Refreshing: still waiting for ${service}…\\d+ s`) }),
    stopped: app.getByRole('status').filter({
      hasText: new RegExp(
        `^Stopped refreshing: ${service} did not answer\\. Shown as of \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d\\.`,
      ),
    }),
  };
}

/** Kills the local stack's process, as a crash would, and waits for the console to see it gone. */
async function crashStack(app: Page, pid: number): Promise<void> {
  process.kill(pid, 'SIGKILL');
  await expect(app.getByTestId('stack-state')).not.toHaveText('Running');
}

test('a service answering 500: the error stays while the screen polls, and the screen recovers when it answers; a refusal is asked once', async ({
  app,
}) => {
  // Its polls back off while the service fails (4, 8, 16 s apart): slower than a steady 2 s on purpose.
  test.setTimeout(120_000);
  const failing: Answer = { status: 500, json: { error: 'internal boom' } };
  const service = await startScriptedService(() => failing);
  try {
    await useProfileAt(app, 'Flaky', service.url);
    await go(app, '#/messages/flow-control');
    const failure = app.getByRole('alert').filter({ hasText: 'Could not load the flow-control keys.' });
    await expect(failure).toContainText('internal boom');
    await expect(app.getByTestId('fc-summary')).toHaveText('Not loaded');

    // The screen polls (every 2 s, less often while it fails): the error never leaves it for a spinner meanwhile.
    await app.evaluate(() => {
      const page = window as unknown as { errorLeft: number };
      page.errorLeft = 0;
      new MutationObserver(() => {
        if (!document.body.textContent?.includes('Could not load the flow-control keys.'))
          page.errorLeft += 1;
      }).observe(document.body, { childList: true, subtree: true, characterData: true });
    });
    // Two more polls: the list and the global numbers, each asked again once (a 500 may pass).
    await service.waitForRequests(service.requests.length + 8);
    expect(await app.evaluate(() => (window as unknown as { errorLeft: number }).errorLeft)).toBe(0);

    // The service is back: the screen shows its keys by itself, without a reload or a click (at its next
    // poll, which has backed off to 16 s by now).
    service.answer(({ path }) =>
      path.startsWith('/v2/flowControl')
        ? { status: 200, json: [] }
        : { status: 200, json: { parallelismMax: 10, parallelismCount: 0 } },
    );
    await expect(app.getByText('No flow-control keys yet')).toBeVisible({ timeout: 45_000 });
    await expect(failure).toBeHidden();

    // A refused token is asked once (a second try gets the same answer), and says what to do.
    service.answer(() => ({ status: 401, json: { error: 'invalid token' } }));
    await go(app, '#/messages/keys');
    await expect(app.getByRole('alert').filter({ hasText: 'Could not load the keys.' })).toContainText(
      'The service refused the message token of profile “Flaky”',
    );
    expect(service.requests.filter(({ path }) => path === '/v2/keys')).toHaveLength(1);
  } finally {
    await service.close();
  }
});

test('a service that does not answer: the screen says how long it has waited, gives the request up on Stop waiting, and asks again on Retry', async ({
  app,
}) => {
  const service = await startScriptedService(() => 'hang');
  try {
    await useProfileAt(app, 'Stuck', service.url);
    await go(app, '#/messages/flow-control');
    // The overview asks for the keys and the global numbers: two requests, neither answered.
    await service.waitForRequests(2);
    await expect(app.getByText(/^Still waiting for the message service… \(\d+ s\)$/)).toBeVisible();
    expect(service.abandoned).toHaveLength(0);

    await app.getByRole('button', { name: 'Stop waiting' }).click();
    await expect(app.getByText('Stopped waiting for the message service.')).toBeVisible();
    // main gave both requests up when the page stopped waiting, long before its own 30 s timeout.
    await service.waitForAbandoned(2, 15_000);
    expect(service.abandoned.map(({ path }) => path.split('?')[0]).sort()).toEqual([
      '/v2/flowControl',
      '/v2/globalParallelism',
    ]);

    // Retry asks again; the service answers now.
    service.answer(({ path }) =>
      path.startsWith('/v2/flowControl')
        ? { status: 200, json: [] }
        : { status: 200, json: { parallelismMax: 10, parallelismCount: 0 } },
    );
    await app.getByRole('button', { name: 'Retry' }).click();
    await expect(app.getByText('No flow-control keys yet')).toBeVisible();
  } finally {
    await service.close();
  }
});

test('polling backs off while the service fails and is back to its rate once it answers', async ({ app }) => {
  test.setTimeout(180_000);
  // The open key answers (its panel polls every 2 s: the yardstick); the key list fails (same 2 s rate).
  let listFails = true;
  const service = await startScriptedService(({ path }) => {
    if (path === '/v2/flowControl/orders')
      return { status: 200, json: { flowControlKey: 'orders', parallelismMax: 2 } };
    if (path.startsWith('/local/')) return { status: 405, json: { error: 'not here' } };
    if (listFails) return { status: 500, json: { error: 'internal boom' } };
    return path.startsWith('/v2/flowControl')
      ? { status: 200, json: [{ flowControlKey: 'orders', parallelismMax: 2 }] }
      : { status: 200, json: { parallelismMax: 10, parallelismCount: 0 } };
  });
  const reads = (path: string) =>
    service.requests.filter((request) => request.path.split('?')[0] === path).length;
  /** Requests for the key list while the open key's panel polls `polls` more times (counted, not timed). */
  async function listReadsOver(polls: number): Promise<number> {
    const [key, list] = [reads('/v2/flowControl/orders'), reads('/v2/flowControl')];
    await expect
      .poll(() => reads('/v2/flowControl/orders'), { timeout: 90_000 })
      .toBeGreaterThanOrEqual(key + polls);
    return reads('/v2/flowControl') - list;
  }
  try {
    await useProfileAt(app, 'Failing list', service.url);
    await go(app, '#/messages/flow-control/orders');
    await expect(
      app.getByRole('alert').filter({ hasText: 'Could not load the flow-control keys.' }),
    ).toContainText('internal boom');
    await expect(app.getByTestId('fc-explain')).toBeVisible();
    // Twelve polls of the key (24 s at 2 s) ask for the failing list a few times: 4, 8, then 16 s apart,
    // each failure asked again once — where the same 2 s rate would ask at least 12 times.
    expect(await listReadsOver(12)).toBeLessThanOrEqual(8);

    // Back: Refresh shows the keys, and the list is polled at the key's rate again.
    listFails = false;
    await app.getByRole('button', { name: 'Refresh' }).first().click();
    await expect(
      app.getByRole('alert').filter({ hasText: 'Could not load the flow-control keys.' }),
    ).toBeHidden();
    expect(await listReadsOver(6)).toBeGreaterThanOrEqual(4);
  } finally {
    await service.close();
  }
});

test('a refresh the service keeps waiting: the data stays, a line above it says so, Stop waiting gives the request up and says what is shown', async ({
  app,
}, testInfo) => {
  test.setTimeout(120_000);
  const answering = ({ path }: { path: string }): Answer =>
    path.startsWith('/v2/flowControl')
      ? { status: 200, json: [{ flowControlKey: 'orders', parallelismMax: 2 }] }
      : path.startsWith('/v2/queues')
        ? { status: 200, json: [{ name: 'emails', parallelism: 1, lag: 3, paused: false }] }
        : { status: 200, json: { parallelismMax: 10, parallelismCount: 0 } };
  const service = await startScriptedService(answering);
  const { status, stopped } = refreshLines(app, 'the message service');
  try {
    await useProfileAt(app, 'Slow refresh', service.url);
    await go(app, '#/messages/queues');
    await expect(app.getByRole('cell', { name: 'emails', exact: true })).toBeVisible();
    await go(app, '#/messages/flow-control');
    const row = app.getByText('orders', { exact: true });
    await expect(row).toBeVisible();

    // The service stops answering: the list's next poll waits, the keys stay, and the line says so.
    const asked = service.requests.length;
    service.answer(() => 'hang');
    await service.waitForRequests(asked + 1);
    await expect(status).toBeVisible({ timeout: 15_000 });
    await expect(row).toBeVisible();
    await expect(app.getByTestId('fc-summary')).toContainText('1 key');
    await app.screenshot({ path: testInfo.outputPath('flow-control-refreshing.png') });

    // Stopped: main gives the hung requests up, the keys stay, the line says since when they are shown.
    const hung = service.requests.length - asked;
    await status.getByRole('button', { name: 'Stop waiting' }).click();
    await expect(stopped).toBeVisible();
    await service.waitForAbandoned(hung, 15_000);
    await expect(row).toBeVisible();
    await expect(app.getByTestId('fc-summary')).toContainText('1 key');
    await app.screenshot({ path: testInfo.outputPath('flow-control-stopped.png') });

    // A detail screen (QueryView): the queues shown before are refreshed on the way back, and kept waiting.
    await go(app, '#/messages/queues');
    await expect(status).toBeVisible({ timeout: 15_000 });
    await expect(app.getByRole('cell', { name: 'emails', exact: true })).toBeVisible();
    await app.screenshot({ path: testInfo.outputPath('queues-refreshing.png') });
    await status.getByRole('button', { name: 'Stop waiting' }).click();
    await expect(stopped).toBeVisible();

    // The service answers again: Refresh in the line asks it, and the line goes.
    service.answer(answering);
    await stopped.getByRole('button', { name: 'Refresh' }).click();
    await expect(app.getByRole('status').filter({ hasText: /refreshing/i })).toHaveCount(0);
    await expect(app.getByRole('cell', { name: 'emails', exact: true })).toBeVisible();
  } finally {
    await service.close();
  }
});

test('a key whose value the KV service keeps waiting on refresh: the value stays, one line says so for the key, Stop waiting and Refresh', async ({
  app,
  stack: { kv },
}, testInfo) => {
  test.setTimeout(120_000);
  // In front of the stack's KV service: the value's reads (HSCAN) hang while the test says so.
  let valueHangs = false;
  const service = await startScriptedService(
    ({ body }) => (valueHangs && body.includes('"HSCAN"') ? 'hang' : 'forward'),
    kv.url,
  );
  const { status, stopped } = refreshLines(app, 'the KV service');
  try {
    await kv.command('HSET', 'e2e:slow', 'theme', 'dark');
    await useKvProfile(app, 'Slow KV', service.url);
    await go(app, '#/kv/keys');
    await app.getByLabel('Open exact key').fill('e2e:slow');
    await app.getByLabel('Open exact key').press('Enter');
    const detail = app.getByTestId('key-detail');
    const rows = detail.getByTestId('value-row');
    await expect(rows.filter({ hasText: 'dark' })).toBeVisible();

    // An edit is saved; reading the value again after it hangs: the value shown stays, the line says so.
    valueHangs = true;
    const row = rows.filter({ hasText: 'theme' });
    await row.getByRole('button', { name: 'Edit' }).click();
    await row.getByLabel('Edit Value').fill('light');
    await row.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => kv.command('HGET', 'e2e:slow', 'theme')).toBe('light');
    await expect(status).toBeVisible({ timeout: 15_000 });
    await expect(status).toHaveCount(1);
    await expect(rows).toHaveCount(1);
    await app.screenshot({ path: testInfo.outputPath('kv-value-refreshing.png') });

    // Stopped: main gives the hung read up, the value stays, the line says since when it is shown.
    await status.getByRole('button', { name: 'Stop waiting' }).click();
    await expect(stopped).toBeVisible();
    await service.waitForAbandoned(1, 15_000);
    await expect(rows).toHaveCount(1);
    await app.screenshot({ path: testInfo.outputPath('kv-value-stopped.png') });

    // The service answers again: Refresh in the line reads the value, and the line goes.
    valueHangs = false;
    await stopped.getByRole('button', { name: 'Refresh' }).click();
    await expect(app.getByRole('status').filter({ hasText: /refreshing/i })).toHaveCount(0);
    await expect(rows.filter({ hasText: 'light' })).toBeVisible();

    // Reload reads the value too: a field another client added shows.
    await kv.command('HSET', 'e2e:slow', 'tz', 'Europe/Berlin');
    await detail.getByRole('button', { name: 'Reload' }).click();
    await expect(rows.filter({ hasText: 'Europe/Berlin' })).toBeVisible();
  } finally {
    await service.close();
  }
});

test('a service that comes back is asked again at once by the screen backing off from it, once another call to it answers', async ({
  app,
}) => {
  test.setTimeout(120_000);
  const service = await startScriptedService(() => ({ status: 500, json: { error: 'internal boom' } }));
  const listReads = () => service.requests.filter(({ path }) => path.split('?')[0] === '/v2/flowControl');
  try {
    await useProfileAt(app, 'Coming back', service.url);
    await go(app, '#/messages/flow-control');
    const failure = app.getByRole('alert').filter({ hasText: 'Could not load the flow-control keys.' });
    await expect(failure).toContainText('internal boom');
    // Three failed polls (each asked again once): the list's next poll is 16 s away.
    await expect.poll(() => listReads().length, { timeout: 60_000 }).toBeGreaterThanOrEqual(6);

    // Back. Opening a key asks the service something new; it answers, so the list is asked at once.
    service.answer(({ path }) =>
      path === '/v2/flowControl/orders'
        ? { status: 200, json: { flowControlKey: 'orders', parallelismMax: 2 } }
        : path.startsWith('/v2/flowControl')
          ? { status: 200, json: [{ flowControlKey: 'orders', parallelismMax: 2 }] }
          : path.startsWith('/local/')
            ? { status: 405, json: { error: 'not here' } }
            : { status: 200, json: { parallelismMax: 10, parallelismCount: 0 } },
    );
    const back = Date.now();
    await go(app, '#/messages/flow-control/orders');
    await expect(app.getByTestId('fc-explain')).toBeVisible();
    await expect(failure).toBeHidden({ timeout: 8_000 });
    await expect(app.getByTestId('fc-summary')).toContainText('1 key');
    // Well before the list's own poll, 16 s after its last failure.
    expect(Date.now() - back).toBeLessThan(8_000);
  } finally {
    await service.close();
  }
});

test('the local stack exits under open screens: they keep what was typed, streams reconnect, a send says to start it', async ({
  app,
  frames,
  stack,
  sink,
}) => {
  test.setTimeout(180_000);
  const errors: string[] = [];
  app.on('pageerror', (error) => errors.push(error.message));
  const kv = stack.kv.redis();

  // The monitor: its kept lines stay, and it is live again by itself once the stack is back.
  let pid = await stackPid(app);
  await go(app, '#/kv/monitor');
  await expect(app.getByTestId('monitor-state')).toHaveText('Live');
  await kv.set('before-crash', '1');
  await expect(app.getByText('before-crash')).toBeVisible();
  await crashStack(app, pid);
  await expect(app.getByText('The local stack exited (signal SIGKILL); restarting…')).toBeVisible();
  await expect(app.getByTestId('monitor-state')).toHaveText('Live', { timeout: 30_000 });
  await runningKv(frames).command('SET', 'after-crash', '1');
  await expect(app.getByText('after-crash')).toBeVisible();
  await expect(app.getByText('before-crash')).toBeVisible();

  // Pub/sub: the channels typed stay, and the subscription is active again by itself.
  pid = await stackPid(app);
  await go(app, '#/kv/pubsub');
  await app.getByLabel('Channels').fill('orders');
  await app.getByRole('button', { name: 'Subscribe' }).click();
  const subscriptions = app.getByTestId('pubsub-subscriptions');
  await expect(subscriptions.getByText('orders · active')).toBeVisible();
  await crashStack(app, pid);
  await expect(subscriptions.getByText('orders · active')).toBeVisible({ timeout: 30_000 });
  await expect(app.getByLabel('Channels')).toHaveValue('orders');
  await expect.poll(() => runningKv(frames).command('PUBLISH', 'orders', '{"id":42}')).toBe(1);
  await expect(app.getByTestId('pubsub-messages')).toContainText('{"id":42}');

  // The workbench: a command typed and not yet run is still there.
  pid = await stackPid(app);
  await go(app, '#/kv/workbench');
  await app.getByLabel('Command', { exact: true }).fill('SET half written');
  await crashStack(app, pid);
  await expect(app.getByTestId('stack-state')).toHaveText('Running', { timeout: 30_000 });
  await expect(app.getByLabel('Command', { exact: true })).toHaveValue('SET half written');

  // A fourth exit in a row: the stack stays down. A send says so and where to start it; the message stays.
  pid = await stackPid(app);
  await go(app, '#/messages/compose');
  await app.getByLabel('Destination URL', { exact: true }).fill(`${sink.url}/after-restart`);
  process.kill(pid, 'SIGKILL');
  await expect(app.getByTestId('stack-state')).toHaveText('Failed', { timeout: 30_000 });
  await app.getByRole('button', { name: 'Send' }).click();
  await expect(app.getByTestId('send-result')).toContainText(
    'Not sent. The local stack is not running right now: start it, or see why it stopped, on the Local stack page.',
  );
  await expect(app.getByLabel('Destination URL', { exact: true })).toHaveValue(`${sink.url}/after-restart`);

  // Its page says why once, and its log shows how it ended; started again from there, the same message goes.
  await go(app, '#/stack');
  await expect(app.getByText(/exited \(signal SIGKILL\) 3 times in a row/)).toHaveCount(1);
  await expect(app.getByLabel('Local stack log')).toContainText('exited (signal SIGKILL)');
  await app.getByRole('button', { name: 'Start' }).click();
  await expect(app.getByTestId('stack-state')).toHaveText('Running', { timeout: 30_000 });
  await go(app, '#/messages/compose');
  await expect(app.getByLabel('Destination URL', { exact: true })).toHaveValue(`${sink.url}/after-restart`);
  await app.getByRole('button', { name: 'Send' }).click();
  await expect(app.getByTestId('send-result')).toContainText('Accepted.');
  await sink.waitFor('/after-restart');
  expect(errors).toEqual([]);
});

test('a job whose service goes away mid-way waits for it, stops at once when cancelled, and resumes once it is back', async ({
  app,
  stack,
  sink,
}) => {
  test.setTimeout(120_000);
  for (let i = 0; i < 60; i += 1) {
    const response = await stack.api.request('POST', `/v2/schedules/${sink.url}/tick-${i}`, '{}', {
      'Upstash-Cron': '0 3 * * *',
    });
    expect(response.ok).toBe(true);
  }
  // The profile reaches the stack through a service that passes 50 pauses on (one chunk), then goes away.
  let pauses = 0;
  let passes = 50;
  const service = await startScriptedService(({ path }) => {
    if (!path.endsWith('/pause')) return 'forward';
    pauses += 1;
    return pauses <= passes ? 'forward' : 'reset';
  }, stack.api.url);
  try {
    await useProfileAt(app, 'Through a proxy', service.url);
    await go(app, '#/messages/schedules');
    await app.getByRole('checkbox', { name: 'Select every schedule shown' }).check();
    await app.getByRole('button', { name: 'Pause selected…' }).click();
    const dialog = app.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Pause 60 schedules' }).click();
    // A connection lost may be back in a moment: the job waits for it and says so, one request per try.
    // (after the first chunk's 50 requests through the proxy: slow on a loaded machine)
    await expect(dialog.getByTestId('job-waiting')).toContainText('The connection to 127.0.0.1', {
      timeout: 45_000,
    });
    await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
    await expect(dialog).toContainText('50 of 60 processed');
    await app.keyboard.press('Escape');

    // The job ended, cancelled; the Jobs screen resumes it once the service is back, where it stopped.
    await go(app, '#/jobs');
    await expect(app.getByTestId('job-row')).toHaveAttribute('data-status', 'cancelled');
    // One request per try (each a second or more apart), not one per schedule.
    const asked = pauses;
    expect(asked - 50).toBeGreaterThanOrEqual(1);
    expect(asked - 50).toBeLessThan(10);
    passes = Infinity;
    await app.getByRole('button', { name: 'Resume', exact: true }).click();
    await runJobDialog(app.getByRole('dialog'), 'Resume: pause', '10 items left', 'done');
    expect(pauses).toBe(asked + 10);
  } finally {
    await service.close();
  }
});
