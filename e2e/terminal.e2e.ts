import { expect, newSession, openApp, send, test, transcript } from './support/fixtures';

test('a terminal the agent runs shows its output live inside the tool call, and again after a reload', async ({ page, host }) => {
  test.skip(process.platform === 'win32', 'the demo command is a POSIX shell loop');
  await openApp(page, host.url());
  await newSession(page);
  await send(page, '/terminal for i in 1 2 3 4 5; do echo "tick $i"; sleep 0.5; done');

  const card = transcript(page).getByRole('region', { name: /^Tool call: for i in/ });
  const output = card.getByLabel('Terminal output');
  // Live: the first lines are on screen while the command still runs.
  await expect(output).toContainText('tick 1');
  await expect(card.getByText('Running…')).toBeVisible();
  await expect(output).not.toContainText('tick 5');

  await expect(output).toContainText('tick 5');
  await expect(card.getByText('Exited with code 0', { exact: true })).toBeVisible();
  await expect(transcript(page)).toContainText('exited with code 0; 5 lines of output');

  // The final output is in the transcript: a reload shows it inside the same tool call.
  await page.reload();
  const again = transcript(page).getByRole('region', { name: /^Tool call: for i in/ });
  await expect(again.getByLabel('Terminal output')).toHaveText('tick 1\ntick 2\ntick 3\ntick 4\ntick 5\n');
  await expect(again.getByText('Exited with code 0', { exact: true })).toBeVisible();
});
