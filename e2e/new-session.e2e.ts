import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { expect, newSessionDialog, openApp, send, sidebar, test, transcript } from './support/fixtures';

test('New session: agent and folder chosen in a dialog, checked as typed; Ctrl+N repeats the last choices', async ({ page, host }) => {
  const project = join(host.dataDir, 'projects', 'switchboard-app');
  mkdirSync(project, { recursive: true });
  const aFile = join(host.dataDir, 'notes.txt');
  writeFileSync(aFile, 'not a folder');
  await openApp(page, host.url());

  await page.getByRole('button', { name: 'New session' }).click();
  const dialog = newSessionDialog(page);
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('combobox', { name: 'Agent' })).toHaveValue('demo');
  await dialog.getByRole('combobox', { name: 'Agent' }).selectOption({ label: 'Demo agent' });
  const folder = dialog.getByRole('textbox', { name: 'Folder' });
  const start = dialog.getByRole('button', { name: 'Start' });
  // Headless: there is no native picker to offer.
  await expect(dialog.getByRole('button', { name: 'Browse…' })).toHaveCount(0);

  // A folder that is not there, then a file: the reason shows and Start stays disabled.
  await folder.fill(join(host.dataDir, 'no-such-folder'));
  await expect(dialog.getByRole('alert')).toHaveText(`There is no folder ${join(host.dataDir, 'no-such-folder')}.`);
  await expect(start).toBeDisabled();
  await folder.fill(aFile);
  await expect(dialog.getByRole('alert')).toHaveText(`${aFile} is a file, not a folder.`);
  await expect(start).toBeDisabled();

  // A good one: Start, by keyboard.
  await folder.fill(`${project}/`);
  await expect(start).toBeEnabled();
  await expect(dialog.getByRole('alert')).toHaveCount(0);
  await folder.press('Enter');
  await expect(dialog).toHaveCount(0);

  // The folder in the header, and in short form (whole path in the tooltip) in the sidebar.
  await expect(page.locator('header .cwd')).toHaveText(project);
  const current = sidebar(page).locator('[aria-current="page"]');
  await expect(current.locator('.session-folder')).toHaveText(`…/projects/${basename(project)}`);
  await expect(current.locator('.session-folder')).toHaveAttribute('title', project);
  // The agent runs there.
  await send(page, '/cwd');
  await expect(transcript(page)).toContainText(`Working folder: ${project}`);

  // Ctrl+N: at once, no dialog, the same agent and folder.
  await expect(sidebar(page).getByRole('link')).toHaveCount(1);
  await page.locator('body').press('Control+n');
  await expect(sidebar(page).getByRole('link')).toHaveCount(2);
  await expect(newSessionDialog(page)).toHaveCount(0);
  await expect(page.locator('header .cwd')).toHaveText(project);
  await send(page, '/cwd');
  await expect(transcript(page)).toContainText(`Working folder: ${project}`);

  // The dialog now offers that folder first.
  await page.getByRole('button', { name: 'New session' }).click();
  await expect(newSessionDialog(page).getByRole('textbox', { name: 'Folder' })).toHaveValue(project);
  await page.keyboard.press('Escape');
  await expect(newSessionDialog(page)).toHaveCount(0);
});
