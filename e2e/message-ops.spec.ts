// URL groups, logs, queues, the message DLQ and signing keys, end to end: Chromium → browser host → main →
// the real local stack → real HTTP sinks on 127.0.0.1.
import { JOB_CHUNK } from '../shared/bridge/job';
import { confirm, expect, go, goOnceStackRuns, runJobDialog, test } from './fixtures';

test('a failing sink → retries → DLQ → retry from the DLQ screen → delivered', async ({
  app,
  sink,
  stack: { api },
}) => {
  let healthy = false;
  sink.respond(() =>
    healthy ? { status: 200, body: 'thanks' } : { status: 500, body: '{"error":"db is down"}' },
  );
  const { messageId } = (await api.publish(`${sink.url}/orders`, {
    'Upstash-Retries': '1',
    'Upstash-Retry-Delay': '200',
    'Upstash-Forward-X-Order': '42',
  })) as { messageId: string };
  await sink.waitFor('/orders', 2);

  // The logs show the whole trail of the failed message.
  await go(app, `#/messages/logs/${messageId}`);
  const detail = app.getByRole('complementary', { name: 'Message detail' });
  await expect(async () => {
    await app.getByRole('button', { name: 'Refresh' }).click();
    await expect(
      detail.getByRole('list', { name: 'Attempt trail' }).getByRole('listitem').last(),
    ).toContainText('FAILED', { timeout: 1000 });
  }).toPass({ timeout: 20_000 });
  await expect(detail.getByRole('list', { name: 'Attempt trail' }).getByRole('listitem')).toHaveText([
    /CREATED/,
    /ACTIVE/,
    /ERROR.*HTTP 500/,
    /RETRY/,
    /ACTIVE/,
    /ERROR.*HTTP 500/,
    /FAILED/,
  ]);
  await expect(app.getByRole('listitem').filter({ hasText: messageId })).toContainText('FAILED');
  // The panel's close button goes back to the list (the tab's own address).
  await detail.getByRole('button', { name: 'Close detail' }).click();
  await expect(app).toHaveURL(/#\/messages\/logs$/);
  await expect(detail).toHaveCount(0);

  // The DLQ shows the failing response.
  await app.getByRole('navigation', { name: 'Areas' }).getByRole('button', { name: 'DLQ' }).click();
  const row = app.getByRole('table', { name: 'DLQ entries' }).getByRole('row').filter({ hasText: '/orders' });
  await expect(row).toContainText('HTTP 500');
  // The list shows which message each entry was.
  await expect(row).toHaveAttribute('data-testid', /^dlq-/);
  await expect(row.getByRole('cell', { name: messageId })).toBeVisible();
  await row.click();
  const entry = app.getByRole('complementary', { name: 'DLQ entry' });
  await expect(entry.getByLabel('Response body')).toContainText('"error": "db is down"');
  await expect(entry).toContainText('X-Order');
  // Closed, it goes back to the DLQ's own address; the row opens it again.
  await entry.getByRole('button', { name: 'Close detail' }).click();
  await expect(app).toHaveURL(/#\/dlq$/);
  await expect(entry).toHaveCount(0);
  await row.click();
  await expect(entry.getByLabel('Response body')).toContainText('"error": "db is down"');

  // Fix the sink, retry from the screen with an override.
  healthy = true;
  await entry.getByRole('button', { name: 'Retry…' }).click();
  const dialog = app.getByRole('dialog', { name: 'Retry DLQ entry' });
  // Blank keeps the entry's own setting, so the placeholder shows that (1 here), not the default 3.
  await expect(dialog.getByLabel('Retries')).toHaveAttribute('placeholder', '1');
  await dialog.getByLabel('Retries').fill('0');
  await dialog.getByRole('button', { name: 'Retry 1 entry' }).click();
  await expect(dialog.getByTestId('bulk-summary')).toContainText('1 of 1 retried');
  // The retried entry left the DLQ: its panel closes instead of saying "Entry not found".
  await expect(entry).toHaveCount(0);
  await expect(app.getByText('Entry not found.')).toHaveCount(0);
  const received = await sink.waitFor('/orders', 3);
  expect(received[2]!.headers['x-order']).toBe('42');
  expect(received[2]!.body).toBe('{"hello":"world"}');

  // The new message's log trail ends in DELIVERED; the DLQ is empty.
  await dialog.getByRole('link', { name: /^msg_/ }).click();
  await expect(async () => {
    await app.getByRole('button', { name: 'Refresh' }).click();
    await expect(
      app.getByRole('complementary', { name: 'Message detail' }).getByRole('list', { name: 'Attempt trail' }),
    ).toContainText('DELIVERED', { timeout: 1000 });
  }).toPass({ timeout: 20_000 });
  await go(app, '#/dlq');
  await expect(app.getByRole('heading', { name: 'The DLQ is empty' })).toBeVisible();
});

test('URL group: create by pasting endpoints, edit default headers with a diff, fan out, remove the last endpoint', async ({
  app,
  sink,
  stack: { api },
}) => {
  await app.getByRole('navigation', { name: 'Areas' }).getByRole('button', { name: 'URL groups' }).click();
  await app.getByRole('button', { name: 'New URL group' }).first().click();
  const create = app.getByRole('dialog', { name: 'New URL group' });
  await create.getByLabel('Name').fill('orders');
  await create
    .getByLabel('Endpoints, one per line')
    .fill(`billing ${sink.url}/billing\nftp://nope\n${sink.url}/audit`);
  await expect(create.getByRole('row').filter({ hasText: 'ftp://nope' })).toContainText('Invalid');
  await expect(create.getByRole('button', { name: 'Create group' })).toBeDisabled();
  await create.getByLabel('Endpoints, one per line').fill(`billing ${sink.url}/billing\n${sink.url}/audit`);
  await create.getByRole('button', { name: 'Create group' }).click();

  await expect(app.getByRole('heading', { level: 1 })).toContainText('orders');
  const endpoints = app.getByRole('region', { name: 'Endpoints' });
  await expect(endpoints.getByRole('row')).toHaveCount(3);

  // Default headers, reviewed as a diff before they are applied.
  await app.getByRole('region', { name: 'Default headers' }).getByRole('button', { name: 'Edit' }).click();
  const editor = app.getByRole('dialog', { name: 'Default headers of orders' });
  await editor.getByLabel('Header 1 name').fill('Upstash-Forward-X-Team');
  await editor.getByLabel('Header 1 value').fill('payments');
  await editor.getByRole('button', { name: 'Review 1 change' }).click();
  const review = app.getByRole('dialog', { name: 'Review the change' });
  await expect(review.getByRole('table', { name: 'Header changes' }).getByRole('row').nth(1)).toContainText(
    'Upstash-Forward-X-Team',
  );
  await expect(review.getByRole('table', { name: 'Header changes' })).toContainText('added');
  await review.getByRole('button', { name: 'Apply' }).click();
  await expect(app.getByRole('region', { name: 'Default headers' })).toContainText('payments');

  // Fan-out through the API: both endpoints receive, with the group's default header.
  const results = (await api.publish('orders', {}, 'fan out')) as { messageId: string; url: string }[];
  expect(results.map((result) => result.url).sort()).toEqual([`${sink.url}/audit`, `${sink.url}/billing`]);
  const [billing] = await sink.waitFor('/billing');
  const [audit] = await sink.waitFor('/audit');
  expect(billing!.headers['x-team']).toBe('payments');
  expect(audit!.headers['x-team']).toBe('payments');
  expect(audit!.body).toBe('fan out');

  // The publish shortcut opens a clean composer addressed to the group; the prefill route is replaced by
  // plain compose (so a reload keeps what was typed), and Back returns to the group.
  await app.getByRole('button', { name: 'Publish to this group' }).click();
  await expect(app.getByRole('combobox', { name: 'URL group' })).toHaveValue('orders');
  await expect(app.getByText('nothing of the previous draft was carried over')).toBeVisible();
  await expect(app).toHaveURL(/#\/messages\/compose$/);
  await app.goBack();

  // Removing endpoints: the last one deletes the group, and the UI says so first.
  await endpoints.getByRole('button', { name: 'Remove billing' }).click();
  await confirm(app, 'Remove this endpoint from orders?', 'Remove endpoint');
  await expect(endpoints.getByRole('row')).toHaveCount(2);
  await endpoints.getByRole('button', { name: `Remove ${sink.url}/audit` }).click();
  const last = app.getByRole('dialog', { name: 'Remove the last endpoint and delete orders?' });
  await expect(last).toContainText('deletes the group');
  await last.getByRole('button', { name: 'Remove and delete group' }).click();
  await expect(app.getByRole('heading', { name: 'No URL groups yet' })).toBeVisible();
});

test('logs group events by message with the trail; cancel is a job that asks first and never goes out empty', async ({
  app,
  frames,
  sink,
  stack: { api },
}) => {
  const delivered = (await api.publish(`${sink.url}/now`, { 'Upstash-Label': 'demo' })) as {
    messageId: string;
  };
  const later = [];
  for (let i = 0; i < 2; i += 1) {
    later.push(
      ((await api.publish(`${sink.url}/later`, { 'Upstash-Delay': '1h' })) as { messageId: string })
        .messageId,
    );
  }
  await sink.waitFor('/now');
  await go(app, '#/messages/logs');
  const list = app.getByRole('list', { name: 'Messages' });
  await expect(async () => {
    await app.getByRole('button', { name: 'Refresh' }).click();
    await expect(list.getByRole('listitem').filter({ hasText: delivered.messageId })).toContainText(
      /CREATED\s*→\s*ACTIVE\s*→\s*DELIVERED/,
      { timeout: 1000 },
    );
  }).toPass({ timeout: 20_000 });

  // Cancel is a job: the preview is what main lists, it asks first, and nothing starts on the way back.
  const opened = (from: number) =>
    frames.sent.slice(from).flatMap((frame) => {
      const parsed = JSON.parse(frame) as { type: string; name?: string; input?: { target: unknown } };
      return parsed.type === 'open' && parsed.name === 'messages.logs.job' ? [parsed.input!.target] : [];
    });
  const started = (from: number) =>
    frames.sent.slice(from).filter((frame) => frame.includes('"type":"start"'));

  // With no filter at all, "matching" is "all": asked for by name and typed, never an empty filter.
  let from = frames.sent.length;
  await app.getByRole('button', { name: 'Cancel all pending…' }).click();
  const everything = app.getByRole('dialog', { name: 'Cancel messages' });
  await expect(everything.getByTestId('bulk-count')).toHaveText('2 pending messages');
  await expect(everything.getByRole('button', { name: 'Cancel 2 pending messages' })).toBeDisabled();
  await expect(everything.getByRole('textbox', { name: /type all to confirm/i })).toBeVisible();
  // The way back is not a second "Cancel" beside "Cancel 2 pending messages".
  await expect(everything.getByRole('button', { name: 'Cancel', exact: true })).toHaveCount(0);
  await everything.getByRole('button', { name: 'Go back' }).click();
  expect(opened(from)).toEqual([{ all: true }]);
  expect(started(from)).toEqual([]);

  for (const id of later) await list.getByRole('checkbox', { name: `Select ${id}` }).check();
  await expect(list.getByRole('checkbox', { name: `Select ${delivered.messageId}` })).toBeDisabled();
  from = frames.sent.length;
  await app.getByRole('button', { name: 'Cancel selected…' }).click();
  const dialog = app.getByRole('dialog', { name: 'Cancel messages' });
  await expect(dialog).toContainText('cannot be undone');
  await runJobDialog(dialog, 'Cancel', '2 pending messages', '2 of 2 cancelled.');
  expect((opened(from)[0] as { ids: string[] }).ids.sort()).toEqual([...later].sort());
  await dialog.getByRole('button', { name: 'Done' }).click();
  for (const id of later) {
    await expect(list.getByRole('listitem').filter({ hasText: id })).toContainText('CANCELLED');
  }
  expect(sink.receivedAt('/later')).toHaveLength(0);

  // Filters: by label, then by state.
  await app.getByRole('form', { name: 'Log filters' }).getByLabel('Label').fill('demo');
  await app.getByRole('button', { name: 'Apply' }).click();
  await expect(list.getByRole('listitem')).toHaveCount(2); // the message and the end-of-list line
  await expect(app.getByRole('button', { name: 'Cancel matching…' })).toBeEnabled();
  await app.getByRole('form', { name: 'Log filters' }).getByLabel('State').selectOption('DELIVERED');
  await app.getByRole('button', { name: 'Apply' }).click();
  await expect(list.getByRole('listitem')).toHaveCount(2);
  // The state filter does not narrow a cancel: the label still does, and says so.
  await app.getByRole('button', { name: 'Cancel matching…' }).click();
  const matching = app.getByRole('dialog', { name: 'Cancel messages' });
  await expect(matching).toContainText('every pending message matching label demo');
  await expect(matching.getByTestId('bulk-count')).toHaveText('0 pending messages');
  await matching.getByRole('button', { name: 'Go back' }).click();

  // The job is in the console's journal, with every other service's.
  await go(app, '#/jobs');
  const job = app.getByTestId('job-row').first();
  await expect(job).toHaveAttribute('data-status', 'done');
  await expect(job).toContainText('the 2 selected messages');
});

test('queues: create, pause (messages wait), resume (delivered), delete', async ({
  app,
  sink,
  stack: { api },
}) => {
  await go(app, '#/messages/queues');
  await app.getByRole('button', { name: 'New queue' }).click();
  const dialog = app.getByRole('dialog', { name: 'New queue' });
  await dialog.getByLabel('Name').fill('emails');
  await dialog.getByRole('button', { name: 'Create queue' }).click();
  const row = app.getByTestId('queue-emails');
  await expect(row).toContainText('Active');

  await row.getByRole('button', { name: 'Pause' }).click();
  await confirm(app, 'Pause emails?', 'Pause queue');
  await expect(row).toContainText('Paused');

  for (let i = 0; i < 2; i += 1) {
    const response = await api.request('POST', `/v2/enqueue/emails/${sink.url}/mail`, `mail ${i}`);
    expect(response.ok).toBe(true);
  }
  await app.getByRole('button', { name: 'Refresh' }).click();
  await expect(row.getByLabel('Lag')).toHaveText('2');
  expect(sink.receivedAt('/mail')).toHaveLength(0);

  await row.getByRole('button', { name: 'Resume' }).click();
  await expect(row).toContainText('Active');
  const mails = await sink.waitFor('/mail', 2);
  expect(mails.map((mail) => mail.body)).toEqual(['mail 0', 'mail 1']);
  await app.getByRole('button', { name: 'Refresh' }).click();
  await expect(row.getByLabel('Lag')).toHaveText('0');

  await row.getByRole('button', { name: 'Delete emails' }).click();
  await confirm(app, 'Delete queue emails?', 'Delete queue');
  await expect(app.getByRole('heading', { name: 'No queues yet' })).toBeVisible();
});

test('signing keys are shown masked and rotate after a confirmation; no key reaches the page', async ({
  app,
  frames,
}) => {
  await goOnceStackRuns(app, '#/messages/keys');
  await expect(app.getByTestId('key-current')).toHaveText('••••RJ6r');
  await expect(app.getByTestId('key-next')).toHaveText('••••dnhs');
  await app.getByRole('button', { name: 'Rotate keys…' }).click();
  const question = app.getByRole('dialog', { name: 'Rotate the signing keys?' });
  await expect(question).toContainText('becomes the current key');
  await question.getByRole('button', { name: 'Rotate keys' }).click();
  await expect(app.getByTestId('key-current')).toHaveText('••••dnhs');
  await expect(app.getByTestId('key-next')).not.toHaveText('••••dnhs');
  const received = frames.received.join('\n');
  expect(received).not.toContain('sig_7kYjw48mhY7kAjqNGcy6cr29RJ6r');
  expect(received).not.toContain('sig_5ZB6DVzB1wjE8S6rZ7eenA8Pdnhs');
  expect(received).not.toMatch(/sig_[A-Za-z0-9]{20,}/);
});

test('DLQ delete job by filter: preview count, chunks with progress, summary', async ({
  app,
  frames,
  sink,
  stack: { api },
}) => {
  sink.respond(() => ({ status: 500, body: 'no' }));
  for (let start = 0; start < 250; start += 100) {
    const items = Array.from({ length: Math.min(100, 250 - start) }, (_, index) => ({
      destination: `${sink.url}/bulk`,
      headers: { 'Upstash-Retries': '0', 'Upstash-Label': 'bulk' },
      body: `item ${start + index}`,
    }));
    expect((await api.request('POST', '/v2/batch', items)).ok).toBe(true);
  }
  await api.publish(`${sink.url}/other`, { 'Upstash-Retries': '0', 'Upstash-Label': 'keep' });
  await sink.waitFor('/bulk', 250);
  await sink.waitFor('/other');

  await go(app, '#/dlq');
  await app.getByRole('form', { name: 'DLQ filters' }).getByLabel('Label').fill('bulk');
  await app.getByRole('button', { name: 'Apply' }).click();
  await expect(app.getByTestId('dlq-summary')).toHaveText('100 entries loaded (more below)');
  await app.getByRole('button', { name: 'Delete all matching…' }).click();
  const dialog = app.getByRole('dialog', { name: 'Delete matching DLQ entries' });
  await runJobDialog(dialog, 'Delete', '250 entries', '250 of 250 deleted');
  const progress = frames.received.filter((frame) => frame.includes('"type":"progress"')).join('\n');
  for (let processed = 0; processed <= 250; processed += JOB_CHUNK)
    expect(progress).toContain(`"processed":${processed},`);
  // One job, opened once (its listing is the preview) and started once.
  expect(frames.sent.filter((frame) => frame.includes('"messages.dlq.job"'))).toHaveLength(1);
  expect(frames.sent.filter((frame) => frame.includes('"type":"start"'))).toHaveLength(1);
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(app.getByRole('heading', { name: 'Nothing matches' })).toBeVisible();

  // The entry outside the filter is still there.
  const left = (await (await api.request('GET', '/v2/dlq')).json()) as {
    messages: { labels?: string[] }[];
  };
  expect(left.messages.map((message) => message.labels)).toEqual([['keep']]);
});
