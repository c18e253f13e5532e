/**
 * Issue 19 in the window: sessions in their own git worktrees, driven through the real renderer
 * against `serve` and the demo agent, on real repositories made in temp folders.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { gitSandbox, type GitSandbox } from '../src/main/test-support/git-repos';
import { expect, newSessionDialog, openApp, send, sidebar, test, transcript } from './support/fixtures';
import { worktreeSession } from './support/worktree-session';

let sb: GitSandbox;
test.beforeEach(() => {
  sb = gitSandbox();
});
test.afterEach(() => sb.cleanup());

const changes = (page: Page) => page.getByRole('region', { name: 'Changes' });
const read = (dir: string, file: string) => readFileSync(join(dir, file), 'utf8');
/** The repository's linked worktrees (its main checkout left out). */
const linkedWorktrees = (repo: string): string[] =>
  sb
    .sh(repo, 'worktree', 'list', '--porcelain')
    .split('\n')
    .filter((l) => l.startsWith('worktree '))
    .map((l) => l.slice('worktree '.length))
    .filter((p) => p !== repo);

test('two sessions in one repository write the same file differently: each keeps its own, the checkout is untouched until Merge; a conflicting merge is left clean', async ({ page, host }) => {
  const repo = sb.repo('app', { 'README.md': 'app\n' });
  await openApp(page, host.url());

  // The dialog checks the branch as it is typed: a taken name is refused, with the reason.
  await page.getByRole('button', { name: 'New session' }).click();
  const dialog = newSessionDialog(page);
  await dialog.getByRole('textbox', { name: 'Folder' }).fill(repo);
  await dialog.getByRole('textbox', { name: 'Branch' }).fill('main');
  await expect(dialog.getByRole('alert')).toContainText(/main/);
  await expect(dialog.getByRole('button', { name: 'Start' })).toBeDisabled();
  await dialog.getByRole('textbox', { name: 'Branch' }).fill('bad..name');
  await expect(dialog.getByRole('alert')).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  const alpha = await worktreeSession(page, repo, 'alpha');
  await send(page, '/write notes.txt from alpha');
  await expect(transcript(page)).toContainText('Wrote 10 bytes to notes.txt.');
  const beta = await worktreeSession(page, repo, 'beta');
  await send(page, '/write notes.txt from beta');
  await expect(transcript(page)).toContainText('Wrote 9 bytes to notes.txt.');

  expect(read(alpha, 'notes.txt')).toBe('from alpha');
  expect(read(beta, 'notes.txt')).toBe('from beta');
  expect(existsSync(join(repo, 'notes.txt'))).toBe(false);
  expect(sb.sh(repo, 'status', '--porcelain')).toBe('');

  // The header: branch, base, dirty.
  await expect(page.locator('.workspace-base')).toHaveText('main');
  await expect(page.getByLabel('Workspace')).toContainText('1 uncommitted');

  // Changes: the file, its highlighted diff, Commit prefilled from the prompt, Merge.
  await page.getByRole('button', { name: 'Changes', exact: true }).click();
  const region = changes(page);
  await expect(region.getByRole('list', { name: 'Changed files' })).toContainText('notes.txt');
  await expect(region.getByRole('list', { name: 'Changed files' })).toContainText(/untracked|added/);
  await region.getByRole('button', { name: 'notes.txt', exact: true }).click();
  const diff = region.getByRole('figure', { name: 'Diff of notes.txt' });
  await expect(diff).toContainText('+from beta');
  await expect(diff.locator('code.hljs')).toHaveCount(1);
  await expect(region.getByRole('textbox', { name: 'Commit message' })).toHaveValue('/write notes.txt from beta');
  await region.getByRole('textbox', { name: 'Commit message' }).fill('Notes from beta');
  await region.getByRole('button', { name: 'Commit', exact: true }).click();
  await expect(region).toContainText(/Committed [0-9a-f]{7}/);
  await expect(page.getByLabel('Workspace')).toContainText('1 ahead');
  await expect(page.getByLabel('Workspace')).toContainText('clean');
  expect(existsSync(join(repo, 'notes.txt'))).toBe(false);
  await region.getByRole('button', { name: /^Merge/ }).click();
  await expect(region).toContainText('Merged beta into its base');
  expect(read(repo, 'notes.txt')).toBe('from beta');
  expect(sb.sh(repo, 'status', '--porcelain')).toBe('');

  // alpha: the same file, differently: the merge conflicts, names the file, and leaves both as they were.
  await sidebar(page).getByRole('link', { name: /notes\.txt from alpha/ }).click();
  await expect(page.locator('.workspace-branch')).toHaveText('alpha');
  await page.getByRole('button', { name: 'Changes', exact: true }).click();
  await expect(changes(page).getByRole('list', { name: 'Changed files' })).toContainText('notes.txt');
  await changes(page).getByRole('textbox', { name: 'Commit message' }).fill('Notes from alpha');
  await changes(page).getByRole('button', { name: 'Commit', exact: true }).click();
  await expect(changes(page)).toContainText(/Committed [0-9a-f]{7}/);
  const mainHead = sb.sh(repo, 'rev-parse', 'HEAD');
  await changes(page).getByRole('button', { name: /^Merge/ }).click();
  const failure = changes(page).getByRole('alert');
  await expect(failure).toContainText('conflict');
  await expect(failure.getByRole('list', { name: 'Conflicting files' })).toContainText('notes.txt');
  expect(sb.sh(repo, 'status', '--porcelain')).toBe('');
  expect(sb.sh(repo, 'rev-parse', 'HEAD')).toBe(mainHead);
  expect(read(repo, 'notes.txt')).toBe('from beta');
  expect(read(alpha, 'notes.txt')).toBe('from alpha');
  expect(sb.sh(alpha, 'status', '--porcelain')).toBe('');
});

test('Restore to before this turn brings the files back, says so in the transcript, and can be undone', async ({ page, host }) => {
  const repo = sb.repo('restore', { 'README.md': 'restore\n' });
  await openApp(page, host.url());
  const wt = await worktreeSession(page, repo, 'turns');
  await send(page, '/write notes.txt turn one');
  await expect(transcript(page)).toContainText('Wrote 8 bytes to notes.txt.');
  await send(page, '/write notes.txt turn two, longer');
  await expect(transcript(page)).toContainText('Wrote 16 bytes to notes.txt.');
  expect(read(wt, 'notes.txt')).toBe('turn two, longer');

  const restores = transcript(page).getByRole('button', { name: 'Restore to before this turn' });
  await expect(restores).toHaveCount(2);
  await restores.nth(1).click();
  const confirm = page.getByRole('alertdialog', { name: 'Restore to before this turn?' });
  await expect(confirm).toBeVisible();
  // Cancel changes nothing.
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toHaveCount(0);
  expect(read(wt, 'notes.txt')).toBe('turn two, longer');

  await restores.nth(1).click();
  await page.getByRole('alertdialog', { name: 'Restore to before this turn?' }).getByRole('button', { name: 'Restore files' }).click();
  await expect(transcript(page).getByRole('note').filter({ hasText: 'Files restored' })).toBeVisible();
  await expect.poll(() => read(wt, 'notes.txt')).toBe('turn one');

  // The restore was itself checkpointed: Undo brings the second turn's file back.
  await transcript(page).getByRole('note').filter({ hasText: 'Files restored' }).getByRole('button', { name: 'Undo' }).click();
  await page.getByRole('alertdialog', { name: 'Undo this restore?' }).getByRole('button', { name: 'Undo' }).click();
  await expect.poll(() => read(wt, 'notes.txt')).toBe('turn two, longer');

  // Restoring the first turn goes back to before the file existed.
  await restores.nth(0).click();
  await page.getByRole('alertdialog', { name: 'Restore to before this turn?' }).getByRole('button', { name: 'Restore files' }).click();
  await expect.poll(() => existsSync(join(wt, 'notes.txt'))).toBe(false);
});

test('Archive removes the worktree folder after confirming and keeps the branch; Restore makes it again with its uncommitted files', async ({ page, host }) => {
  const repo = sb.repo('archive', { 'README.md': 'archive\n' });
  await openApp(page, host.url());
  const wt = await worktreeSession(page, repo, 'keep-me');
  await send(page, '/write draft.txt not committed yet');
  await expect(transcript(page)).toContainText('Wrote 17 bytes to draft.txt.');

  await page.getByRole('button', { name: 'Archive', exact: true }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Archive this worktree session?' });
  await expect(confirm).toContainText('keep-me');
  await confirm.getByRole('button', { name: 'Archive' }).click();
  await expect(page.getByRole('button', { name: 'Restore', exact: true })).toBeVisible();
  await expect.poll(() => existsSync(wt)).toBe(false);
  expect(sb.sh(repo, 'branch', '--list', 'keep-me').trim()).toContain('keep-me');
  expect(linkedWorktrees(repo)).toEqual([]);

  await page.getByRole('button', { name: 'Restore', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Archive', exact: true })).toBeVisible();
  await expect.poll(() => existsSync(join(wt, 'draft.txt'))).toBe(true);
  expect(read(wt, 'draft.txt')).toBe('not committed yet');

  // Delete with the branch: it has work not in its base, so a second confirmation names it.
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  const del = page.getByRole('alertdialog').filter({ hasText: 'Delete “' });
  await del.getByRole('checkbox', { name: /Also delete the branch keep-me/ }).check();
  await del.getByRole('button', { name: 'Delete for good' }).click();
  const unmerged = page.getByRole('alertdialog', { name: 'Delete unmerged work?' });
  await expect(unmerged).toContainText('uncommitted');
  await unmerged.getByRole('button', { name: 'Delete branch and work' }).click();
  await expect(sidebar(page).getByRole('link')).toHaveCount(0);
  await expect.poll(() => sb.sh(repo, 'branch', '--list', 'keep-me').trim()).toBe('');
  expect(linkedWorktrees(repo)).toEqual([]);
});

test('Compare shows three siblings side by side and merges the one picked', async ({ page, host }) => {
  const repo = sb.repo('task', { 'README.md': 'task\n' });
  await openApp(page, host.url());
  await worktreeSession(page, repo, 'task', ['Demo agent', 'Demo agent']);
  await expect(sidebar(page).getByRole('link')).toHaveCount(3);
  expect(linkedWorktrees(repo)).toHaveLength(3);
  await send(page, '/write answer.txt forty-two');
  await expect(transcript(page)).toContainText('Wrote 9 bytes to answer.txt.');
  for (const wt of linkedWorktrees(repo)) await expect.poll(() => existsSync(join(wt, 'answer.txt'))).toBe(true);

  await page.getByRole('button', { name: 'Compare', exact: true }).click();
  const compare = page.getByRole('region', { name: 'Compare' });
  const siblings = compare.locator('.compare-sibling');
  await expect(siblings).toHaveCount(3);
  for (let i = 0; i < 3; i++) {
    await expect(siblings.nth(i)).toContainText('answer.txt');
    await expect(siblings.nth(i)).toContainText('+1 −0');
    await expect(siblings.nth(i)).toContainText(/1 turn\b/);
  }
  // Pick the second: open it, commit its work, and Merge it from Compare.
  await siblings.nth(1).getByRole('link').click();
  await expect(compare.locator('.compare-sibling.is-current')).toHaveCount(1);
  const picked = compare.locator('.compare-sibling.is-current');
  const branch = (await picked.locator('code').first().textContent())!;
  expect(branch).toMatch(/^task-/);
  await page.getByRole('button', { name: 'Changes', exact: true }).click();
  await expect(changes(page).getByRole('list', { name: 'Changed files' })).toContainText('answer.txt');
  await changes(page).getByRole('textbox', { name: 'Commit message' }).fill('The answer');
  await changes(page).getByRole('button', { name: 'Commit', exact: true }).click();
  await expect(changes(page)).toContainText(/Committed [0-9a-f]{7}/);
  await page.getByRole('button', { name: 'Changes', exact: true }).click();
  await expect(picked).toContainText(/Commits\s*1/);
  await picked.getByRole('button', { name: /^Merge/ }).click();
  await expect(compare).toContainText(`Merged ${branch} into its base`);
  expect(read(repo, 'answer.txt')).toBe('forty-two');
  expect(sb.sh(repo, 'log', '--format=%s', '-1')).toContain(branch);
});

test('start-up prunes a worktree whose folder vanished, marks its session, and makes it again on request', async ({ page, host }) => {
  const repo = sb.repo('prune', { 'README.md': 'prune\n' });
  await openApp(page, host.url());
  const wt = await worktreeSession(page, repo, 'vanishing');
  await send(page, '/write a.txt a');
  await expect(transcript(page)).toContainText('Wrote 1 bytes to a.txt.');
  await host.current.stop();
  rmSync(wt, { recursive: true, force: true });
  await host.restart();
  await expect.poll(() => linkedWorktrees(repo)).toEqual([]);
  await openApp(page, host.url());
  await sidebar(page).getByRole('link').first().click();
  await expect(page.getByLabel('Workspace')).toContainText('the worktree folder is gone');
  await page.getByRole('button', { name: 'Make the worktree again' }).click();
  await expect(page.getByLabel('Workspace')).not.toContainText('gone');
  await expect.poll(() => existsSync(wt) || linkedWorktrees(repo).length === 1).toBe(true);
});

/** Presses Tab until `target` has the focus (at most `limit` times): the keyboard's way there. */
async function tabTo(page: Page, target: ReturnType<Page['locator']>, limit = 40): Promise<void> {
  for (let i = 0; i < limit; i++) {
    if (await target.evaluate((el) => el === document.activeElement).catch(() => false)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${String(target)}`);
}

test('the Changes panel by keyboard alone: open it, choose a file, read its diff, commit', async ({ page, host }) => {
  const repo = sb.repo('keys', { 'README.md': 'keys\n' });
  await openApp(page, host.url());
  await worktreeSession(page, repo, 'keys');
  await send(page, '/write notes.txt typed by keyboard');
  await expect(transcript(page)).toContainText('Wrote');

  await tabTo(page, page.getByRole('button', { name: 'Changes', exact: true }));
  await page.keyboard.press('Enter');
  const region = changes(page);
  const file = region.getByRole('button', { name: 'notes.txt', exact: true });
  await expect(file).toBeVisible();
  await tabTo(page, file);
  await page.keyboard.press('Enter');
  await expect(region.getByRole('figure', { name: 'Diff of notes.txt' })).toContainText('+typed by keyboard');
  const message = region.getByRole('textbox', { name: 'Commit message' });
  await tabTo(page, message);
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type('Notes, by keyboard');
  await tabTo(page, region.getByRole('button', { name: 'Commit', exact: true }));
  await page.keyboard.press('Enter');
  await expect(region).toContainText(/Committed [0-9a-f]{7}/);
  expect(sb.sh(repo, 'log', '-1', '--format=%s', 'keys').trim()).toBe('Notes, by keyboard');
});
