/**
 * Issue 19: a repository's setup command (Settings → Repositories) run in each new worktree with
 * its output in the transcript, and a repository folder shared when `Separate worktree` is off.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gitSandbox, type GitSandbox } from '../src/main/test-support/git-repos';
import { expect, newSessionDialog, openApp, send, test, transcript } from './support/fixtures';

let sb: GitSandbox;
test.beforeEach(() => {
  sb = gitSandbox();
});
test.afterEach(() => sb.cleanup());

test('a setup command saved in Settings → Repositories runs in the next new worktree; its failure shows and the session stays usable', async ({ page, host }) => {
  const repo = sb.repo('setup', { 'README.md': 'setup\n' });
  await openApp(page, host.url());

  // A first session makes the repository known to Settings.
  await page.getByRole('button', { name: 'New session' }).click();
  let dialog = newSessionDialog(page);
  await dialog.getByRole('textbox', { name: 'Folder' }).fill(repo);
  await expect(dialog.getByRole('checkbox', { name: 'Separate worktree' })).toBeChecked();
  await expect(dialog.getByRole('button', { name: 'Start' })).toBeEnabled();
  await dialog.getByRole('button', { name: 'Start' }).click();
  await expect(page.locator('.workspace-branch')).toBeVisible();

  await page.getByRole('button', { name: 'Settings' }).click();
  await page.getByRole('dialog', { name: 'Settings' }).getByRole('tab', { name: 'Repositories' }).click();
  const repos = page.getByRole('dialog', { name: 'Settings' }).getByRole('region', { name: 'Repositories' });
  const command = repos.getByRole('textbox', { name: `Setup command for ${repo}` });
  await command.fill('echo preparing the worktree; exit 3');
  await repos.getByRole('button', { name: `Save setup command for ${repo}` }).click();
  await expect(repos).toContainText('Saved');
  await page.getByRole('button', { name: 'Done' }).click();

  await page.getByRole('button', { name: 'New session' }).click();
  dialog = newSessionDialog(page);
  await dialog.getByRole('textbox', { name: 'Folder' }).fill(repo);
  await expect(dialog).toContainText('Runs first in the new worktree: echo preparing the worktree; exit 3');
  await dialog.getByRole('textbox', { name: 'Branch' }).fill('with-setup');
  await expect(dialog.getByRole('button', { name: 'Start' })).toBeEnabled();
  await dialog.getByRole('button', { name: 'Start' }).click();
  await expect(page.locator('.workspace-branch')).toHaveText('with-setup');

  const setup = transcript(page).getByRole('region', { name: 'Setup command: echo preparing the worktree; exit 3' });
  await expect(setup).toContainText('failed (exit 3)');
  await expect(setup).toContainText('preparing the worktree');
  await send(page, 'still here?');
  await expect(transcript(page)).toContainText('Echo: still here?');
});

test('with Separate worktree off the session shares the repository folder: its writes are there, Changes lists them against HEAD, and a turn can be restored', async ({ page, host }) => {
  const repo = sb.repo('shared', { 'README.md': 'shared\n' });
  await openApp(page, host.url());
  await page.getByRole('button', { name: 'New session' }).click();
  const dialog = newSessionDialog(page);
  await dialog.getByRole('textbox', { name: 'Folder' }).fill(repo);
  await dialog.getByRole('checkbox', { name: 'Separate worktree' }).uncheck();
  await expect(dialog.getByRole('textbox', { name: 'Branch' })).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Start' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByLabel('Workspace')).toContainText('Shared folder');
  await expect(page.locator('header .cwd')).toHaveText(repo);

  await send(page, '/write shared.txt in the checkout');
  await expect(transcript(page)).toContainText('Wrote 15 bytes to shared.txt.');
  expect(readFileSync(join(repo, 'shared.txt'), 'utf8')).toBe('in the checkout');

  await page.getByRole('button', { name: 'Changes', exact: true }).click();
  const region = page.getByRole('region', { name: 'Changes' });
  await expect(region.getByRole('list', { name: 'Changed files' })).toContainText('shared.txt');
  await expect(region).toContainText('against HEAD');
  await expect(region.getByRole('button', { name: 'Commit', exact: true })).toHaveCount(0);

  await transcript(page).getByRole('button', { name: 'Restore to before this turn' }).click();
  await page.getByRole('alertdialog', { name: 'Restore to before this turn?' }).getByRole('button', { name: 'Restore files' }).click();
  await expect.poll(() => existsSync(join(repo, 'shared.txt'))).toBe(false);
  await expect(region).toContainText('No changes.');

  // The box's choice is remembered for this repository.
  await page.getByRole('button', { name: 'New session' }).click();
  await newSessionDialog(page).getByRole('textbox', { name: 'Folder' }).fill(repo);
  await expect(newSessionDialog(page).getByRole('checkbox', { name: 'Separate worktree' })).not.toBeChecked();
});
