import { expect, newSessionDialog, openApp, test } from './support/fixtures';

test('an agent is added from the registry (the bundled copy, offline), pinned, and offered for new sessions', async ({ page, host }) => {
  await openApp(page, host.url());
  await page.getByRole('button', { name: 'Settings' }).click();
  const settings = page.getByRole('dialog', { name: 'Settings' });
  await settings.getByRole('tab', { name: 'Agents' }).click();
  await settings.getByRole('button', { name: 'Add from registry' }).click();

  const panel = settings.getByRole('region', { name: 'Add from registry' });
  await expect(panel).toContainText('The copy bundled with Switchboard');
  const list = panel.getByRole('list', { name: 'Registry agents' });
  await expect(list.getByRole('listitem').first()).toBeVisible();
  await panel.getByRole('searchbox', { name: 'Search the registry' }).fill('qwen');
  const qwen = list.getByRole('listitem', { name: 'Qwen Code' });
  await expect(list.getByRole('listitem', { name: 'Gemini CLI' })).toHaveCount(0);
  await expect(qwen).toContainText('Node (npx)');
  await expect(qwen).toContainText('Apache-2.0');
  await qwen.getByRole('button', { name: 'Add' }).click();
  await expect(qwen).toContainText(/Added as qwen-code, version \d+\.\d+\.\d+\./);

  // Offline, Check for updates falls back to the same copy and says why.
  await panel.getByRole('button', { name: 'Check for updates' }).click();
  await expect(panel).toContainText('It could not be fetched');
  await panel.getByRole('button', { name: 'Close' }).click();

  const agent = settings.getByRole('list', { name: 'Agents' }).getByRole('listitem', { name: 'Qwen Code' });
  await expect(agent).toContainText(/From the ACP registry \(qwen-code, npx\): version \d+\.\d+\.\d+\./);
  await expect(agent).toContainText(/npx -y @qwen-code\/qwen-code@\d+\.\d+\.\d+/);
  await agent.getByRole('button', { name: 'Pin' }).click();
  await expect(agent).toContainText('pinned');
  await expect(agent.getByRole('button', { name: 'Unpin' })).toBeVisible();
  await settings.getByRole('button', { name: 'Done' }).click();

  await page.getByRole('button', { name: 'New session' }).click();
  await expect(newSessionDialog(page).getByRole('combobox', { name: 'Agent' }).getByRole('option')).toHaveText(['Demo agent', 'Qwen Code']);
  await newSessionDialog(page).getByRole('button', { name: 'Cancel' }).click();
});
