import { demoAgents } from './support/processes';
import { expect, newSession, openApp, send, sidebar, test, transcript } from './support/fixtures';

test.use({ serveArgs: ['--idle-timeout-ms', '2000', '--reap-interval-ms', '500'] });

test('an idle session nobody watches releases its agent and resumes with its history', async ({ page, context, host }) => {
  await openApp(page, host.url());
  await newSession(page);
  await send(page, 'remember this');
  await expect(transcript(page)).toContainText('Echo: remember this');
  expect(demoAgents(host.dataDir)).toHaveLength(1);

  await page.close();
  await expect.poll(() => demoAgents(host.dataDir), { timeout: 15_000 }).toEqual([]);

  const again = await context.newPage();
  await openApp(again, host.url());
  const entry = sidebar(again).getByRole('link', { name: /remember this/ });
  await expect(entry).toContainText('Asleep');
  await entry.click();
  await expect(transcript(again)).toContainText('Echo: remember this');
  await send(again, '/history');
  await expect(transcript(again)).toContainText('History: 1 earlier prompts');
});
