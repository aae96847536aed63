// Moving around the console page the way a user would, and waiting for the local stack it supervises.
import { expect, type Locator, type Page } from '@playwright/test';

/** Waits until the local stack reports Running in the sidebar. */
export async function waitForStack(page: Page): Promise<void> {
  await expect(page.getByTestId('stack-state')).toHaveText('Running', { timeout: 30_000 });
}

/** Moves the single-page app to `hash` (e.g. `#/messages/logs`), as a link would. */
export async function go(page: Page, hash: string): Promise<void> {
  await page.evaluate((target) => (location.hash = target), hash);
}

/** Waits until the local stack runs, then moves to `hash`: the start of most tests of a screen. */
export async function goOnceStackRuns(page: Page, hash: string): Promise<void> {
  await waitForStack(page);
  await go(page, hash);
}

/** Opens Webhook intake, once the stack runs, with `destination` as its destination URL. */
export async function openWebhookIntake(page: Page, destination: string): Promise<void> {
  await goOnceStackRuns(page, '#/messages/webhook');
  await page.getByLabel('Destination URL', { exact: true }).fill(destination);
}

/**
 * Runs a job dialog whose preview is on screen, as a user does: the preview counts `count` (e.g. "2 keys"),
 * the user presses "<verb> <count>", and the summary says `summary` (e.g. "2 of 2 paused.").
 */
export async function runJobDialog(
  dialog: Locator,
  verb: string,
  count: string,
  summary: string,
): Promise<void> {
  await expect(dialog.getByTestId('bulk-count')).toHaveText(count);
  await dialog.getByRole('button', { name: `${verb} ${count}` }).click();
  await expect(dialog.getByTestId('bulk-summary')).toContainText(summary);
}

/** Answers the confirmation dialog named `dialog` by pressing its `button`. */
export async function confirm(page: Page, dialog: string, button: string): Promise<void> {
  await page.getByRole('dialog', { name: dialog }).getByRole('button', { name: button }).click();
}
