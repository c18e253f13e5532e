import { MARKDOWN_END } from '../src/agents/demo/markdown-doc';
import { codeHighlighted, expect, newSession, openApp, running, send, test, transcript } from './support/fixtures';

/**
 * Correctness, never timing: a long Markdown answer streamed chunk by chunk must end up as the
 * very same DOM as the same message loaded whole from the store after a reload.
 */
test.describe('a long streamed Markdown answer', () => {
  test('renders the same streamed as loaded whole', async ({ page, host }) => {
    // Tall enough that every part of the answer is near the view, so none of it is an empty
    // box of a long message (markdown-virtual.e2e.ts): the whole DOM is compared.
    await page.setViewportSize({ width: 1280, height: 4000 });
    await openApp(page, host.url());
    await newSession(page);
    // 8 KB: its ~170 chunks fit the first page after the reload (a longer answer is split
    // across pages, and the reloaded view would start inside it).
    await send(page, '/markdown 8 1000');
    const answer = transcript(page).locator('.row-agent .markdown').last();
    await expect(answer).toContainText(MARKDOWN_END);
    await expect(running(page)).toHaveCount(0);
    // Code blocks are highlighted lazily, closed fences only: compare once every one of them is.
    await codeHighlighted(answer);
    await expect(answer.locator('pre > code.hljs').first()).toBeVisible();
    const streamed = await answer.innerHTML();
    // Highlighted (tokens as elements) and each with its Copy button, streamed as loaded.
    expect(streamed).toContain('<span class="hljs-');
    expect(streamed).toContain('aria-label="Copy code"');
    // The answer has the structures the splitter has to get right.
    for (const tag of ['h2', 'pre', 'table', 'ol', 'blockquote']) expect(streamed).toMatch(new RegExp(`<${tag}[ >]`));

    await page.reload();
    await expect(answer).toContainText(MARKDOWN_END);
    await codeHighlighted(answer);
    expect(await answer.innerHTML()).toBe(streamed);
  });
});
