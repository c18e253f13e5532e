import { newSessionDialog, openApp, sidebar } from '../e2e/support/fixtures';
import { expect, expectHandshake, manifest, newSessionOn, test } from './support/interop';

test('every pinned agent is in the Agent picker and answers the handshake in a session the window shows', async ({ page, interop }) => {
  await openApp(page, interop.serve.url);
  // The New session dialog's Agent picker lists every pinned agent.
  await page.getByRole('button', { name: 'New session' }).click();
  const picker = newSessionDialog(page).getByRole('combobox', { name: 'Agent' });
  for (const agent of manifest.agents) await expect(picker.getByRole('option', { name: agent.name, exact: true })).toHaveCount(1);
  await page.keyboard.press('Escape');
  await expect(newSessionDialog(page)).toHaveCount(0);

  for (const agent of manifest.agents) {
    await test.step(`${agent.name} ${agent.version}`, async () => {
      await newSessionOn(page, agent);
      await expectHandshake(page, agent);
    });
  }
  await expect(sidebar(page).getByRole('link')).toHaveCount(manifest.agents.length);
});
