import { MARKDOWN_END } from '../src/agents/demo/markdown-doc';
import { codeHighlighted, expect, newSession, openApp, running, send, test, transcript } from './support/fixtures';

test.describe('code blocks', () => {
  test('a streamed answer ends as the same highlighted DOM as the answer loaded whole', async ({ page, host }) => {
    await openApp(page, host.url());
    await newSession(page);
    // 8 KB: its ~170 chunks fit the first page after the reload (a longer answer is split
    // across pages, and the reloaded view would start inside it).
    await send(page, '/markdown 8 1000');
    const answer = transcript(page).locator('.row-agent .markdown').last();
    await expect(answer).toContainText(MARKDOWN_END);
    await expect(running(page)).toHaveCount(0);
    await codeHighlighted(answer);
    await expect(answer.locator('pre > code.hljs').first()).toBeVisible();
    const streamed = await answer.innerHTML();
    expect(streamed).toContain('<span class="hljs-');
    expect(streamed).toContain('aria-label="Copy code"');

    await page.reload();
    await expect(answer).toContainText(MARKDOWN_END);
    await codeHighlighted(answer);
    expect(await answer.innerHTML()).toBe(streamed);
  });

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
