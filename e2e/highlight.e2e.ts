import { MARKDOWN_END } from '../src/agents/demo/markdown-doc';
import { expect, newSession, openApp, send, test, transcript } from './support/fixtures';

/** Highlighting that keeps a stream's DOM identical to the loaded one: `stream-render.e2e.ts`. */
test.describe('code blocks', () => {
  test('Copy puts the code on the clipboard and says Copied', async ({ page, host, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(host.url()).origin });
    await openApp(page, host.url());
    await newSession(page);
    await send(page, '/markdown 4 2000');
    const answer = transcript(page).locator('.row-agent .markdown').last();
    await expect(answer).toContainText(MARKDOWN_END);
    const block = answer.locator('.code-block').first();
    const code = await block.locator('pre > code').innerText();
    await block.getByRole('button', { name: 'Copy code' }).click();
    await expect(block.getByRole('button', { name: 'Copied' })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(code);
  });
});
