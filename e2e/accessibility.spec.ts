// Every screen of the console checked with axe (WCAG 2.0 and 2.1, levels A and AA, axe's best practices:
// headings in order, named and distinct landmarks, no empty table headers…; and the label-in-name rule,
// so a list row or a button says what it shows) in the light and the dark theme, with data in the local stack so lists and detail panels are not empty: messages (composer,
// batch, webhook intake, logs and a message's trail, schedules and the new-schedule dialog, queues, flow
// control and a key, signing keys and the rotate confirmation), URL groups and a group, the DLQ and an
// entry, a job dialog and its summary, the Jobs screen, workflow runs with a run's panel, the run page,
// compare and DLQ triage, every KV tab, the Local stack page with the clock ahead and its Advance dialog,
// Profiles and a new profile, and the command palette. One test: the data is made once, and each screen is
// checked in one theme, then the other. It fails listing every violation: the screen and theme, the rule,
// its impact, and each element's selector with what axe says of it. A second test walks the sidebar, a
// tab strip and a list with the keyboard, the focus seen at each step. A third reads Chrome's own
// accessibility tree (not Playwright's names): a message row, a step row and a run row each named once by
// what they show, and a run checked for a cancel on its row, with the mouse and with Space.
import { AxeBuilder } from '@axe-core/playwright';
import type { Locator, Page } from '@playwright/test';
import { expect, go, test } from './fixtures';
import { chromeAxNodes } from './support/chrome-ax';
import { seedSampleKeys, seedSearchIndex } from './support/kv-api';
import { startWorkflowApp } from './support/workflow-app';

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];

/**
 * Rules run beside the tags: WCAG 2.5.3 (label in name), which axe marks experimental and so leaves out of
 * its wcag21a tag. It keeps a row, a pill or a button from being named by less than it shows.
 */
const ALSO = { 'label-content-name-mismatch': { enabled: true } };

/**
 * Findings not counted, each one rule on the elements of one selector, with the reason why the rule is
 * wrong there. There are none: every rule runs on every element of every screen.
 */
const EXCEPTIONS: { rule: string; selector: string; why: string }[] = [];

interface Finding {
  screen: string;
  theme: string;
  rule: string;
  impact: string;
  help: string;
  /** Each element: its selector, and what axe says of it. */
  elements: string[];
}

/** Whether each element (by axe's selector) is one `selector` leaves out. */
function excepted(page: Page, targets: string[], selector: string): Promise<boolean[]> {
  return page.evaluate(
    ({ targets, selector }) => targets.map((target) => !!document.querySelector(target)?.matches(selector)),
    { targets, selector },
  );
}

/**
 * Runs axe on what `page` shows now, in the light theme and then the dark one; what it finds fails the test
 * (softly: the other screens are still checked, and the report lists every violation of every screen).
 */
async function axeInBothThemes(page: Page, screen: string): Promise<void> {
  await page.mouse.move(0, 0);
  for (const theme of ['light', 'dark'] as const) {
    const findings: Finding[] = [];
    await page.emulateMedia({ colorScheme: theme });
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
    // Legacy mode runs axe in the page itself, without opening a blank page to gather frames' results for
    // every run (half this test's time): the console has no frames (its CSP says frame-src 'none').
    const results = await new AxeBuilder({ page })
      .options({ rules: ALSO }) // before withTags, which adds to the options
      .withTags(TAGS)
      .setLegacyMode()
      .analyze();
    for (const violation of results.violations) {
      let nodes = violation.nodes;
      for (const exception of EXCEPTIONS.filter((e) => e.rule === violation.id)) {
        const out = await excepted(
          page,
          nodes.map((node) => node.target.join(' ')),
          exception.selector,
        );
        nodes = nodes.filter((_, index) => !out[index]);
      }
      if (nodes.length === 0) continue;
      findings.push({
        screen,
        theme,
        rule: violation.id,
        impact: violation.impact ?? 'unknown',
        help: violation.help,
        elements: nodes.map((node) => {
          const detail = [...node.any, ...node.all, ...node.none][0]?.message;
          return `${node.target.join(' ')}${detail ? ` — ${detail}` : ''}`;
        }),
      });
    }
    expect.soft(findings.length, `axe found violations:\n${report(findings)}`).toBe(0);
  }
}

function report(findings: Finding[]): string {
  return findings
    .map(
      (f) =>
        `${f.screen} (${f.theme}): ${f.rule} [${f.impact}] ${f.help}\n${f.elements.map((e) => `    ${e}`).join('\n')}`,
    )
    .join('\n');
}

/** No transitions: a colour caught halfway would be measured instead of the theme's own. */
async function noTransitions(page: Page): Promise<void> {
  await page.addStyleTag({
    content: '*, *::before, *::after { transition: none !important; animation: none !important; }',
  });
}

test.use({ viewport: { width: 1440, height: 900 }, colorScheme: 'light' });

test('every screen passes axe (WCAG 2.x A and AA, best practices, label in name) in both themes', async ({
  app: page,
  stack,
  sink,
}) => {
  // 36 screens, axe twice each (WCAG and best-practice rules): about a minute alone, four and more with two
  // workers on a loaded machine.
  test.setTimeout(480_000);
  /** Moves to `hash` (when given), waits until `ready` shows, then checks the screen in both themes. */
  const check = async (screen: string, ready: Locator, hash?: string) => {
    if (hash) await go(page, hash);
    await expect(ready).toBeVisible();
    await axeInBothThemes(page, screen);
  };
  await noTransitions(page);
  const { api, kv } = stack;
  sink.respond((request) =>
    request.path.startsWith('/fail') ? { status: 503, body: 'down' } : { status: 200, body: 'ok' },
  );
  const dialog = (name: string) => page.getByRole('dialog', { name });
  const testId = (id: string, hasText?: string) => page.getByTestId(id).filter({ hasText });

  // Workflow runs, started first (they take a few seconds): one that succeeds, one that fails.
  const wf = await startWorkflowApp(api.url);
  try {
    const order = await wf.trigger('/order', { body: { order: 7 }, label: 'web' });
    const failed = await wf.failedCheckout();

    // Messages: a URL group, a queue, delivered, delayed and failed messages, a schedule, flow-control keys.
    await api.request('POST', '/v2/topics/orders/endpoints', {
      endpoints: [{ name: 'billing', url: `${sink.url}/billing` }, { url: `${sink.url}/audit` }],
    });
    await api.request('POST', '/v2/queues', { queueName: 'emails', parallelism: 1, paused: true });
    await api.request('POST', `/v2/enqueue/emails/${sink.url}/mail`, 'mail');
    await api.publish('orders', { 'Upstash-Label': 'checkout' });
    await api.publish(`${sink.url}/later`, { 'Upstash-Delay': '2h' });
    await api.publish(`${sink.url}/fail/payments`, { 'Upstash-Retries': '0' });
    await api.publish(`${sink.url}/fail/orders`, { 'Upstash-Retries': '0', 'Upstash-Label': 'nightly' });
    await api.request('POST', `/v2/schedules/${sink.url}/cleanup`, '{}', {
      'Upstash-Cron': '*/15 * * * *',
      'Upstash-Schedule-Id': 'cleanup',
    });
    await api.request('POST', '/local/schedules/cleanup/trigger');
    for (const [key, value] of [
      ['tenant-42', 'parallelism=2'],
      ['emails', 'rate=2, period=1m'],
    ] as const)
      await api.publish(`${sink.url}/${key}`, {
        'Upstash-Flow-Control-Key': key,
        'Upstash-Flow-Control-Value': value,
      });
    await api.request('POST', '/v2/flowControl/tenant-42/pause');
    await seedSampleKeys(kv);
    await sink.waitFor('/fail/orders');

    // Messages.
    await check(
      'composer',
      page.getByRole('form', { name: 'Message' }).locator('.cm-editor'),
      '#/messages/compose',
    );
    await check('batch', page.getByRole('list', { name: 'Batch items' }), '#/messages/batch');
    await check('webhook intake', page.getByLabel('Destination URL', { exact: true }), '#/messages/webhook');
    const logs = page.getByRole('list', { name: 'Messages' });
    await check('logs', logs.getByText('FAILED').first(), '#/messages/logs');
    await logs.getByRole('listitem').filter({ hasText: '/fail/payments' }).first().click();
    await check(
      'log detail',
      page.getByRole('list', { name: 'Attempt trail' }).filter({ hasText: 'FAILED' }),
    );
    await check('schedules', testId('schedule-cleanup', 'delivered'), '#/messages/schedules');
    await page.getByRole('button', { name: 'New schedule' }).click();
    await check('new schedule dialog', dialog('New schedule'));
    await page.keyboard.press('Escape');
    await check('queues', testId('queue-emails', 'Paused'), '#/messages/queues');
    const tenant = page.getByRole('option', { name: 'tenant-42' });
    await check('flow control', tenant, '#/messages/flow-control');
    await tenant.click();
    await check('flow-control key', page.getByRole('complementary', { name: 'Flow-control key' }));
    await check('signing keys', testId('key-current', '••••'), '#/messages/keys');
    await page.getByRole('button', { name: 'Rotate keys…' }).click();
    await check('confirm dialog', dialog('Rotate the signing keys?'));
    await page.keyboard.press('Escape');

    // URL groups.
    await check('URL groups', page.getByRole('link', { name: 'orders' }), '#/url-groups');
    await page.getByRole('link', { name: 'orders' }).click();
    await check(
      'URL group',
      page.getByRole('region', { name: 'Endpoints' }).getByRole('cell', { name: 'billing', exact: true }),
    );

    // The DLQ, an entry, a job on it and the Jobs screen.
    const payments = page
      .getByRole('table', { name: 'DLQ entries' })
      .getByRole('row')
      .filter({ hasText: '/fail/payments' });
    await check('DLQ', payments, '#/dlq');
    await payments.click();
    await check('DLQ entry', page.getByRole('complementary', { name: 'DLQ entry' }));
    await payments.getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Delete selected…' }).click();
    const job = page.getByRole('dialog');
    await check('job dialog', job.getByTestId('bulk-count').filter({ hasText: '1 entry' }));
    await job.getByRole('button', { name: 'Delete 1 entry' }).click();
    await check('job summary', job.getByTestId('bulk-summary').filter({ hasText: '1 of 1 deleted' }));
    await job.getByRole('button', { name: 'Done' }).click();
    await check('jobs', testId('job-row'), '#/jobs');

    // Workflows.
    await wf.waitForRun(order, 'RUN_SUCCESS');
    await go(page, '#/workflows/runs');
    await page.getByTestId('run-list').getByRole('option', { name: order }).click();
    await check('workflow runs', testId('step-panel'));
    await check('run page', testId('why-not-done', 'Failed at step charge'), `#/workflows/run/${failed}`);
    await check('compare', testId('compare-summary'), `#/workflows/compare/${failed}/${order}`);
    await check('workflow DLQ', testId('failure-group'), '#/workflows/dlq');
  } finally {
    await wf.close();
  }

  // KV.
  await go(page, '#/kv/workbench');
  const command = page.getByLabel('Command', { exact: true });
  await command.fill('HGETALL user:2:settings\nLRANGE queue:emails 0 -1\nGET counter:visits');
  await command.press('Enter');
  await check('KV workbench', testId('kv-result').nth(2));
  await go(page, '#/kv/keys');
  await page.getByTestId('folder-row').filter({ hasText: 'user' }).click();
  await page.locator('[data-path="user:2:"]').click();
  // A field with a TTL of its own: the hash shows its TTL column.
  await kv.command('HEXPIRE', 'user:2:settings', 3600, 'FIELDS', 1, 'theme');
  await page.locator('[data-key="user:2:settings"]').click();
  await check('KV keys', testId('value-row').nth(2).locator('.kv-field-ttl'));
  await page.getByRole('button', { name: 'TTL of theme' }).click();
  const fieldTtl = dialog('Time to live of theme');
  await check('field TTL dialog', fieldTtl.getByLabel('Seconds from now'));
  await fieldTtl.getByRole('button', { name: 'Cancel' }).click();
  await go(page, '#/kv/monitor');
  await expect(testId('monitor-state', 'Live')).toBeVisible();
  await kv.command('SET', 'user:3:name', 'Linus');
  await kv.command('GET', 'user:3:name');
  await check('KV monitor', testId('monitor-list').getByText('user:3:name').first());
  await go(page, '#/kv/pubsub');
  await page.getByLabel('Channels').fill('orders');
  await page.getByRole('button', { name: 'Subscribe' }).click();
  await expect(testId('pubsub-subscriptions').getByText('orders · active')).toBeVisible();
  await kv.command('PUBLISH', 'orders', '{"id":4200}');
  await check('KV pub/sub', testId('pubsub-messages').getByRole('option'));
  // KV search: the start with the indexes listed, an index with results (chosen fields), a filter not JSON,
  // an aggregation's buckets and metrics, and a refused one.
  await seedSearchIndex(kv, 12);
  await check('KV search start', testId('search-index-row').first(), '#/kv/search');
  await go(page, '#/kv/search/products');
  const searchFilter = page.getByLabel('Filter (JSON)');
  await searchFilter.fill('{"category": "furniture"}');
  await page.getByRole('group', { name: 'Return' }).getByRole('button', { name: 'Chosen fields' }).click();
  await page.getByRole('checkbox', { name: 'name' }).check();
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await check('KV search', testId('search-row').first());
  await searchFilter.fill('{"name": ');
  await check('KV search, a bad filter', page.getByRole('alert').filter({ hasText: 'Not valid JSON' }));
  await page.getByRole('group', { name: 'Mode' }).getByRole('button', { name: 'Aggregate' }).click();
  await searchFilter.fill('{}');
  const searchAggregations = page.getByLabel('Aggregations (JSON)');
  await searchAggregations.fill(
    '{"c": {"$terms": {"field": "category"}, "$aggs": {"a": {"$avg": {"field": "price"}}}}, "s": {"$stats": {"field": "price"}}, "p": {"$percentiles": {"field": "price", "percents": [50]}}}',
  );
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await check('KV search aggregate', testId('search-bucket').first());
  await searchAggregations.fill('{"x": {"$avg": {"field": "weight"}}}');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await check(
    'KV search aggregate, refused',
    page.getByRole('alert').filter({ hasText: 'The service refused the aggregation:' }),
  );

  // The console's own screens; the stack clock an hour ahead, so the status bar shows it too.
  await api.request('POST', '/local/clock/advance', { by: '1h' });
  await go(page, '#/stack');
  await expect(testId('stack-page-state')).toHaveText('Running');
  await check('local stack', testId('clock-pill'));
  await testId('stack-clock-card').getByRole('button', { name: 'Advance…' }).click();
  const advance = dialog('Advance the stack clock');
  await check('clock advance dialog', advance.getByText('Next due', { exact: true }));
  await advance.getByRole('button', { name: 'Cancel' }).click();
  await check('profiles', page.getByRole('heading', { name: 'Built-in: the local stack' }), '#/profiles');
  await page.getByRole('button', { name: 'New profile' }).click();
  await check('new profile', page.getByRole('form', { name: 'New profile' }));
  await page.keyboard.press('Control+k');
  await page.keyboard.type('open');
  await check('command palette', dialog('Command palette'));
});

/** Presses Tab until `target` has the focus (at most `presses` times), then expects it to have it. */
async function tabTo(page: Page, target: Locator, presses: number): Promise<void> {
  for (let press = 0; press < presses; press++) {
    if (await target.evaluate((element) => element === document.activeElement)) break;
    await page.keyboard.press('Tab');
  }
  await expect(target).toBeFocused();
}

/** Expects `target` to have the focus and to show it: it matches :focus-visible and has a solid outline. */
async function expectFocusSeen(target: Locator): Promise<void> {
  await expect(target).toBeFocused();
  const ring = await target.evaluate((element) => {
    const style = getComputedStyle(element);
    return {
      visible: element.matches(':focus-visible'),
      outline: style.outlineStyle,
      width: parseFloat(style.outlineWidth),
    };
  });
  expect(ring).toEqual({ visible: true, outline: 'solid', width: 2 });
}

test('the sidebar, a tab strip and a list are walked with the keyboard, the focus always seen', async ({
  app: page,
  stack,
  sink,
}) => {
  // Three flow-control keys, each with a message waiting (a rate of one an hour lets one of two through).
  for (const key of ['alpha', 'beta', 'gamma'])
    for (const n of [1, 2])
      await stack.api.publish(`${sink.url}/${key}/${n}`, {
        'Upstash-Flow-Control-Key': key,
        'Upstash-Flow-Control-Value': 'rate=1, period=1h',
      });

  // The sidebar: from the top of the page, Tab reaches every area in order, each focus seen.
  await go(page, '#/messages/compose');
  await expect(page.getByRole('tab', { name: 'Compose', selected: true })).toBeVisible();
  const areas = page
    .getByRole('complementary', { name: 'Sidebar' })
    .getByRole('navigation', { name: 'Areas' })
    .getByRole('button');
  await tabTo(page, areas.first(), 10);
  const count = await areas.count();
  expect(count).toBeGreaterThan(5);
  for (let index = 0; index < count; index++) {
    await expectFocusSeen(areas.nth(index));
    await page.keyboard.press('Tab');
  }

  // A tab strip is one stop of the Tab order, at the current tab; the arrows walk it (round the ends),
  // Home and End jump, and only Enter opens the tab the focus is on.
  const strip = page.getByRole('tablist', { name: 'Messages' });
  const tab = (name: string) => strip.getByRole('tab', { name, exact: true });
  await tabTo(page, tab('Compose'), 15);
  await expectFocusSeen(tab('Compose'));
  await page.keyboard.press('ArrowRight');
  await expectFocusSeen(tab('Batch'));
  await expect(tab('Batch')).toHaveAttribute('aria-selected', 'false');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await expectFocusSeen(tab('Signing keys'));
  await page.keyboard.press('Home');
  await expect(tab('Compose')).toBeFocused();
  await page.keyboard.press('End');
  await page.keyboard.press('ArrowLeft');
  await expectFocusSeen(tab('Flow control'));
  await page.keyboard.press('Enter');
  await expect(tab('Flow control')).toHaveAttribute('aria-selected', 'true');
  await expect(page).toHaveURL(/#\/messages\/flow-control$/);
  await expect(page.getByRole('tabpanel', { name: 'Flow control' })).toBeVisible();
  await expect(strip.locator('[tabindex="0"]')).toHaveCount(1);

  // A list: Tab reaches it, its focus is seen, and the arrows, Home and End move through its rows, each
  // one opened beside it and the one a screen reader is told about (aria-activedescendant).
  const list = page.getByRole('listbox', { name: 'Flow-control keys' });
  await expect(list.getByRole('option')).toHaveCount(3);
  await tabTo(page, list, 30);
  await expectFocusSeen(list);
  const expectActive = async (key: string) => {
    const option = list.getByRole('option', { name: key });
    await expect(option).toHaveAttribute('aria-selected', 'true');
    await expect(list).toHaveAttribute('aria-activedescendant', (await option.getAttribute('id'))!);
    await expect(page).toHaveURL(new RegExp(`#/messages/flow-control/${key}$`));
    await expect(list).toBeFocused();
  };
  const keys = await list.getByRole('option').evaluateAll((rows) => rows.map((row) => row.dataset.key!));
  expect([...keys].sort()).toEqual(['alpha', 'beta', 'gamma']);
  await page.keyboard.press('ArrowDown');
  await expectActive(keys[0]!);
  await page.keyboard.press('ArrowDown');
  await expectActive(keys[1]!);
  await page.keyboard.press('End');
  await expectActive(keys[2]!);
  await page.keyboard.press('Home');
  await expectActive(keys[0]!);
});

test('Chrome names a message row, a step row and a run row by what they show; a run is checked on its row', async ({
  app: page,
  sink,
  stack: { api },
  workflowApp: wf,
}) => {
  test.setTimeout(120_000);
  // Runs: one failed at its charge step, one active for an hour (only that one can be checked to cancel).
  const failed = await wf.failedCheckout();
  const active = await wf.trigger('/checkout', { delay: 3600 });
  await wf.waitForRun(active, 'RUN_STARTED');
  const { messageId } = (await api.publish(`${sink.url}/now`)) as { messageId: string };
  await sink.waitFor('/now');
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

  // A message row (a list item, which Chrome names by nothing of its content) has its own name: the
  // message's id, state, destination and time; not its checkbox, not its trail.
  await go(page, '#/messages/logs');
  const logs = page.getByRole('list', { name: 'Messages' });
  await expect(logs.getByRole('listitem').filter({ hasText: messageId })).toContainText('DELIVERED');
  const rows = await chromeAxNodes(page, '[data-testid="log-list"]', 'listitem');
  expect(rows.map((row) => row.name)).toContainEqual(
    expect.stringMatching(
      new RegExp(`^${escape(messageId)} DELIVERED ${escape(sink.url)}/now \\d\\d:\\d\\d:\\d\\d\\.\\d{3} \\S`),
    ),
  );

  // A step row says the step's name once: the timeline beside it adds only what it shows.
  await go(page, `#/workflows/run/${failed}`);
  await expect(page.getByTestId('why-not-done')).toContainText('Failed at step charge');
  const steps = await chromeAxNodes(page, '[data-testid="step-tree"]', 'treeitem');
  const charge = steps.find((step) => step.name.startsWith('charge '));
  expect(charge?.name).toMatch(/^charge Failed 1 failed attempt Timeline: [\d.]+ m?s$/);

  // A run row is an option holding no control: its check is the option's checked state (only an active
  // run has one), toggled by the box on it with the mouse and by Space on the open run.
  await go(page, '#/workflows/runs');
  const list = page.getByRole('listbox', { name: 'Workflow runs' });
  await expect(list).toHaveAttribute('data-rows', '2');
  // The list says how to check a run from the keyboard (a screen reader hears only "not checked").
  await expect(list).toHaveAccessibleDescription('Space checks or unchecks the open run for a cancel job.');
  const runs = async () => await chromeAxNodes(page, '[data-testid="run-list"]', 'option');
  const checkedOf = async (id: string) =>
    (await runs()).find((run) => run.name.includes(` ${id} `))?.states.checked;
  expect(await chromeAxNodes(page, '[data-testid="run-list"]', 'checkbox')).toEqual([]);
  expect(await checkedOf(active)).toBe('false');
  expect((await runs()).find((run) => run.name.includes(active))?.name).toContain(' 1 step ');
  expect(await checkedOf(failed)).toBeUndefined();
  const cancel = page.getByRole('button', { name: 'Cancel selected…' });
  await expect(cancel).toBeDisabled();
  const activeRow = list.getByRole('option', { name: active });
  await activeRow.getByTestId('row-check').click();
  await expect(activeRow).toHaveAttribute('aria-checked', 'true');
  await expect(page).toHaveURL(/#\/workflows\/runs$/); // the box does not open the run
  expect(await checkedOf(active)).toBe('true');
  await expect(cancel).toBeEnabled();
  await activeRow.click();
  await expect(activeRow).toHaveAttribute('aria-selected', 'true');
  await expect(list).toBeFocused();
  await page.keyboard.press('Space');
  await expect(activeRow).toHaveAttribute('aria-checked', 'false');
  await expect(cancel).toBeDisabled();
  await page.keyboard.press('Space');
  await expect(activeRow).toHaveAttribute('aria-checked', 'true');
  // A finished run cannot be checked: Space on it changes nothing.
  const failedRow = list.getByRole('option', { name: failed });
  await failedRow.click();
  await page.keyboard.press('Space');
  await expect(failedRow).not.toHaveAttribute('aria-checked');
  await expect(activeRow).toHaveAttribute('aria-checked', 'true');
  // The list with a checked run and one that cannot be checked passes axe too.
  await noTransitions(page);
  await axeInBothThemes(page, 'workflow runs with a checked run');
});
