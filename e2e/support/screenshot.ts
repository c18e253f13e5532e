/**
 * `node --import tsx e2e/support/screenshot.ts [out.png]`: the README's screenshot, taken from
 * the built app served headless, in Chromium, with a few demo-agent sessions.
 */
import { chromium } from '@playwright/test';
import { resolve } from 'node:path';
import { chromiumExecutable } from './browser';
import { startServe, tempDataDir } from './serve';

const out = resolve(process.argv[2] ?? 'docs/screenshot.png');
const dir = tempDataDir();
const serve = await startServe(dir.path);
const browser = await chromium.launch({
  executablePath: chromiumExecutable(),
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
});
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(serve.url);
  const log = page.getByRole('log', { name: 'Transcript' });
  const message = page.getByRole('combobox', { name: 'Message' });
  const send = async (text: string, waitFor: string): Promise<void> => {
    await message.fill(text);
    await message.press('Enter');
    await log.getByText(waitFor).first().waitFor();
  };
  const newSession = async (): Promise<void> => {
    await page.getByRole('button', { name: 'New session' }).click();
    await page.getByRole('dialog', { name: 'New session' }).getByRole('button', { name: 'Start' }).click();
    await page.locator('nav [aria-current="page"]').waitFor();
  };
  for (const first of ['Refactor the config loader', 'Why does the build fail on CI?']) {
    await newSession();
    await send(first, `Echo: ${first}`);
  }
  await newSession();
  await send('Add a `--json` flag to the list command', 'Echo: Add a');
  await send('/plan', 'Here is the plan');
  await send('/tool Read src/cli.ts', 'finished');
  await message.fill('/permission Edit src/cli.ts');
  await message.press('Enter');
  await page.getByRole('dialog', { name: 'Edit src/cli.ts' }).waitFor();
  await page.screenshot({ path: out });
  console.log(`wrote ${out}`);
} finally {
  await browser.close();
  await serve.stop();
  dir.cleanup();
}
