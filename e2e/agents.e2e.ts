import { join, resolve } from 'node:path';
import { expect, newSession, newSessionDialog, openApp, send, sidebar, test, transcript } from './support/fixtures';

const root = resolve(import.meta.dirname, '..');

test('an agent added by hand in Settings is tested, runs a session, and is removed', async ({ page, host }) => {
  await openApp(page, host.url());
  await page.getByRole('button', { name: 'Settings' }).click();
  const settings = page.getByRole('dialog', { name: 'Settings' });
  const agentsTab = settings.getByRole('tab', { name: 'Agents' });
  await agentsTab.click();
  const agents = settings.getByRole('list', { name: 'Agents' });
  await expect(agents.getByRole('listitem', { name: 'Demo agent' })).toBeVisible();

  // Add by hand: the built demo agent under another name, with a secret in its environment.
  await settings.getByRole('button', { name: 'Add agent' }).click();
  const form = settings.getByRole('form', { name: 'Add agent' });
  await form.getByRole('textbox', { name: 'Name' }).fill('Hand demo');
  await form.getByRole('textbox', { name: 'Command' }).fill(process.execPath);
  await form.getByRole('textbox', { name: 'Arguments' }).fill([join(root, 'out/main/demo-agent.js'), '--data-dir', join(host.dataDir, 'hand-demo')].join('\n'));
  await form.getByRole('button', { name: 'Add variable' }).click();
  await form.getByRole('textbox', { name: 'Variable 1 name' }).fill('DEMO_TOKEN');
  await form.getByRole('checkbox', { name: 'Secret' }).check();
  await form.getByLabel('Variable 1 value').fill('tok-e2e-123');
  await form.getByRole('button', { name: 'Save agent' }).click();

  const entry = agents.getByRole('listitem', { name: 'Hand demo' });
  await expect(entry).toContainText('Added here');
  await expect(entry).toContainText('Installed');
  await expect(entry).toContainText('DEMO_TOKEN (secret, set)');
  await expect(settings).not.toContainText('tok-e2e-123');

  // Test: the initialize answer, as the agent gave it.
  await entry.getByRole('button', { name: 'Test' }).click();
  await expect(entry).toContainText('Switchboard demo agent 0.1.0');
  await expect(entry).toContainText('version 1');
  await expect(entry).toContainText('Sign-in methodsnone needed');
  await settings.getByRole('button', { name: 'Done' }).click();

  // New session offers it; a session on it answers.
  await newSession(page, { agent: 'Hand demo' });
  await send(page, 'hello hand');
  await expect(transcript(page)).toContainText('Echo: hello hand');

  // Removing it is refused while the session is open, then done once it is closed.
  await page.getByRole('button', { name: 'Settings' }).click();
  await agentsTab.click();
  await agents.getByRole('listitem', { name: 'Hand demo' }).getByRole('button', { name: 'Remove' }).click();
  await expect(agents.getByRole('listitem', { name: 'Hand demo' }).getByRole('alert')).toContainText('used by 1 open session');
  await settings.getByRole('button', { name: 'Done' }).click();
  await page.getByRole('button', { name: 'Close session' }).click();
  // Closed: the session ended (its agent released), so the agent is no longer in use.
  await expect(sidebar(page)).toContainText('Ended');
  await page.getByRole('button', { name: 'Settings' }).click();
  await agentsTab.click();
  await agents.getByRole('listitem', { name: 'Hand demo' }).getByRole('button', { name: 'Remove' }).click();
  await expect(agents.getByRole('listitem', { name: 'Hand demo' })).toHaveCount(0);
  await expect(agents.getByRole('listitem')).toHaveCount(1);
  await settings.getByRole('button', { name: 'Done' }).click();
  await page.getByRole('button', { name: 'New session' }).click();
  await expect(newSessionDialog(page).getByRole('combobox', { name: 'Agent' }).getByRole('option')).toHaveText(['Demo agent']);
  await newSessionDialog(page).getByRole('button', { name: 'Cancel' }).click();
});
