import type { Page } from '@playwright/test';
import { expect, newSessionDialog } from './fixtures';

/** New session in `repo` with Separate worktree (on by default) on `branch`; the worktree's folder. */
export async function worktreeSession(page: Page, repo: string, branch: string, also: string[] = []): Promise<string> {
  await page.getByRole('button', { name: 'New session' }).click();
  const dialog = newSessionDialog(page);
  await dialog.getByRole('textbox', { name: 'Folder' }).fill(repo);
  const box = dialog.getByRole('checkbox', { name: 'Separate worktree' });
  await expect(box).toBeChecked();
  const name = dialog.getByRole('textbox', { name: 'Branch' });
  await expect(name).not.toHaveValue('');
  await name.fill(branch);
  for (const agent of also) {
    await dialog.getByRole('combobox', { name: 'Also run on' }).selectOption({ label: agent });
    await dialog.getByRole('button', { name: 'Add agent' }).click();
  }
  const start = dialog.getByRole('button', { name: 'Start' });
  await expect(start).toBeEnabled();
  await start.click();
  await expect(dialog).toHaveCount(0);
  await expect(page.locator('.workspace-branch')).toHaveText(also.length ? new RegExp(`^${branch}-`) : branch);
  const cwd = await page.locator('header .cwd').getAttribute('title');
  expect(cwd).not.toBe(repo);
  return cwd!;
}
