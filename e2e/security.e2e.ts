import { expect, newSession, openApp, running, send, sidebar, test, transcript } from './support/fixtures';

/**
 * Issue 13, security checked by tests (headless host and Chromium): the page token does not
 * stay in the address bar, and agent output is never HTML: hostile Markdown and HTML from a
 * real demo agent process (`/hostile`) runs nothing, navigates nowhere, opens nothing.
 */

declare global {
  interface Window {
    __pwned?: unknown;
    __violations?: string[];
  }
}

test.describe('security: the headless window', () => {
  test('takes the token out of the address bar at load, and a reload still connects', async ({ page, host }) => {
    const token = host.current.token;
    await openApp(page, host.url());
    expect(page.url()).not.toContain(token);
    expect(await page.evaluate(() => [location.href, document.URL, JSON.stringify(history.state)].join(' '))).not.toContain(token);
    expect(new URL(page.url()).searchParams.has('token')).toBe(false);

    await page.reload();
    expect(page.url()).not.toContain(token);
    await newSession(page);
    await send(page, 'after reload');
    await expect(transcript(page)).toContainText('Echo: after reload');
  });

  test('hostile Markdown and HTML from a real agent: nothing runs, nothing navigates, bad links are not links', async ({ page, context, host }) => {
    const dialogs: string[] = [];
    const popups: string[] = [];
    const pageErrors: string[] = [];
    const cspErrors: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    context.on('page', (p) => popups.push(p.url()));
    page.on('pageerror', (e) => pageErrors.push(String(e)));
    page.on('console', (m) => {
      if (/Content Security Policy|Refused to/i.test(m.text())) cspErrors.push(m.text());
    });
    // A violation means something tried to run or load: the CSP is the second wall, not the first.
    await page.addInitScript(() => {
      window.__violations = [];
      document.addEventListener('securitypolicyviolation', (e) => window.__violations?.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}:${e.columnNumber}`));
    });

    await openApp(page, host.url());
    await newSession(page);
    // The session's own route is the window's address from here on; nothing may change it.
    await expect.poll(() => new URL(page.url()).hash).toMatch(/^#\/session\//);
    const url = page.url();
    await send(page, '/hostile');
    await expect(transcript(page)).toContainText('and the end of the hostile document.');
    await expect(running(page)).toHaveCount(0);
    // The raw HTML is dropped or shown as text; the title is text too.
    await expect(sidebar(page).getByRole('link', { name: /<img src=x onerror=.*Hostile/ })).toBeVisible();

    // Every refused link and image is plain text: clicking it does nothing.
    const refused = transcript(page).locator('.unsafe-link');
    expect(await refused.count()).toBeGreaterThanOrEqual(7);
    for (const el of await refused.all()) await el.click();

    const dom = await page.evaluate(() => {
      const all = [...document.querySelectorAll('*')];
      return {
        inlineScripts: document.querySelectorAll('script:not([src])').length,
        frames: document.querySelectorAll('iframe, frame, object, embed').length,
        svgScripts: document.querySelectorAll('svg script, svg [onload]').length,
        handlers: all.flatMap((el) => [...el.attributes].filter((a) => /^on/i.test(a.name)).map((a) => `${el.tagName} ${a.name}`)),
        // The app's own links (the sidebar's #session-… anchors) aside: every link in agent output.
        badHrefs: [...document.querySelectorAll('[role="log"] a[href], .markdown a[href]')].map((a) => a.getAttribute('href') ?? '').filter((h) => !/^(https?|mailto):/i.test(h)),
        badSrcs: [...document.querySelectorAll('[src]')].map((e) => e.getAttribute('src') ?? '').filter((s) => /^(javascript|data|vbscript):/i.test(s.trim())),
        agentStyles: [...document.querySelectorAll('style')].filter((s) => s.textContent?.includes('display: none !important')).length,
        overlay: document.getElementById('pwned-overlay') !== null,
        bodyShown: getComputedStyle(document.body).display !== 'none',
        base: document.querySelectorAll('base, meta[http-equiv="refresh" i]').length,
        pwned: window.__pwned,
        violations: window.__violations ?? [],
      };
    });
    expect(dom).toEqual({
      inlineScripts: 0,
      frames: 0,
      svgScripts: 0,
      handlers: [],
      badHrefs: [],
      badSrcs: [],
      agentStyles: 0,
      overlay: false,
      bodyShown: true,
      base: 0,
      pwned: undefined,
      violations: [],
    });
    // The safe links are real links that open outside the window.
    await expect(transcript(page).getByRole('link', { name: 'a safe link' }).first()).toHaveAttribute('target', '_blank');

    expect(page.url()).toBe(url);
    expect(page.frames()).toHaveLength(1);
    expect(dialogs).toEqual([]);
    expect(popups).toEqual([]);
    expect(pageErrors).toEqual([]);
    expect(cspErrors).toEqual([]);
    // Still the app, still working.
    await send(page, 'still here');
    await expect(transcript(page)).toContainText('Echo: still here');
  });
});
