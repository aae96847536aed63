// Profile steps that several specs take on the Profiles page.
import { expect, type Page } from '@playwright/test';
import { LOCAL_KV_READ_ONLY_TOKEN, LOCAL_KV_TOKEN } from './kv-api';

/** Marks the profile open in the editor production and read-only, saves it, and makes it the active one. */
export async function useAsReadOnlyProduction(page: Page, profile: string): Promise<void> {
  const editor = page.getByRole('form', { name: `Edit profile ${profile}` });
  await editor.getByRole('button', { name: 'Prod', exact: true }).click();
  await editor.getByRole('switch', { name: /Read-only/ }).check();
  await editor.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('Profile saved')).toBeVisible();
  await page.getByRole('button', { name: 'Use this profile' }).click();
}

/** The tokens a profile made by createProfile carries unless told otherwise (profiles.spec.ts checks them). */
export const E2E_TOKEN = 'SY-E2E-TOKEN-7c1d9e3f5a2b4c6d';
export const E2E_KV_TOKEN = 'SY-E2E-KVTOKEN-0a9b8c7d6e5f4a3b';

/** Creates a profile on the Profiles page (which must be open) and waits until it is saved. */
export async function createProfile(
  page: Page,
  name: string,
  options: { env?: 'Dev' | 'Prod'; messagesUrl?: string; messageToken?: string } = {},
): Promise<void> {
  await page.getByRole('button', { name: 'New profile' }).click();
  const form = page.getByRole('form', { name: 'New profile' });
  await form.getByLabel('Name').fill(name);
  if (options.env) await form.getByRole('button', { name: options.env, exact: true }).click();
  if (options.messagesUrl) {
    await form.getByLabel('Region').selectOption('custom');
    await form.getByLabel('Base URL').fill(options.messagesUrl);
  }
  await form.getByLabel('Message token', { exact: true }).fill(options.messageToken ?? E2E_TOKEN);
  await form.getByLabel('KV standard token', { exact: true }).fill(E2E_KV_TOKEN);
  await form.getByRole('button', { name: 'Create profile' }).click();
  await expect(page.getByRole('heading', { level: 2, name })).toBeVisible();
}

/**
 * Creates a profile whose KV REST URL is `url` with the local tokens (read-only: also the read-only token,
 * and the profile marked read-only) and makes it the active one.
 */
export async function useKvProfile(
  app: Page,
  name: string,
  url: string,
  { readOnly = false }: { readOnly?: boolean } = {},
): Promise<void> {
  await app.keyboard.press('Alt+6');
  await app.getByRole('button', { name: 'New profile' }).click();
  const form = app.getByRole('form', { name: 'New profile' });
  await form.getByLabel('Name').fill(name);
  await form.getByLabel('REST URL').fill(url);
  await form.getByLabel('KV standard token', { exact: true }).fill(LOCAL_KV_TOKEN);
  if (readOnly) {
    await form.getByLabel('KV read-only token', { exact: true }).fill(LOCAL_KV_READ_ONLY_TOKEN);
    await form.getByRole('switch', { name: /Read-only/ }).check();
  }
  await form.getByRole('button', { name: 'Create profile' }).click();
  await app.getByRole('button', { name: 'Use this profile' }).click();
}
