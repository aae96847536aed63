// Profile steps that several specs take on the Profiles page.
import { expect, type Page } from '@playwright/test';

/** Marks the profile open in the editor production and read-only, saves it, and makes it the active one. */
export async function useAsReadOnlyProduction(page: Page, profile: string): Promise<void> {
  const editor = page.getByRole('form', { name: `Edit profile ${profile}` });
  await editor.getByRole('button', { name: 'Prod', exact: true }).click();
  await editor.getByRole('switch', { name: /Read-only/ }).check();
  await editor.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('Profile saved')).toBeVisible();
  await page.getByRole('button', { name: 'Use this profile' }).click();
}
