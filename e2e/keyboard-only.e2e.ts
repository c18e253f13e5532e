import type { Page } from '@playwright/test';
import { MARKDOWN_END } from '../src/agents/demo/markdown-doc';
import { expect, messageBox, openApp, sidebar, test, transcript } from './support/fixtures';

/** Pointer, mouse and touch events the page saw: a keyboard-only day must see none. */
const POINTER_EVENTS = ['mousedown', 'mouseup', 'mousemove', 'pointerdown', 'pointerup', 'pointermove', 'touchstart', 'touchend', 'wheel'];

async function countPointerEvents(page: Page): Promise<void> {
  await page.addInitScript((types: string[]) => {
    const w = window as unknown as { __pointerEvents: string[] };
    w.__pointerEvents = [];
    for (const type of types) window.addEventListener(type, () => w.__pointerEvents.push(type), true);
  }, POINTER_EVENTS);
}

const pointerEvents = (page: Page) => page.evaluate(() => (window as unknown as { __pointerEvents: string[] }).__pointerEvents);
const polite = (page: Page) => page.locator('[data-live="polite"]');
const assertive = (page: Page) => page.locator('[data-live="assertive"]');
const focused = (page: Page) => page.locator(':focus');
const current = (page: Page) => sidebar(page).locator('[aria-current="page"]');

/** Types into whatever has the focus and presses Enter. */
async function typeEnter(page: Page, text: string): Promise<void> {
  await page.keyboard.type(text);
  await page.keyboard.press('Enter');
}

/** From anywhere: the filter box, then Shift+Tab back over the sidebar's buttons to New session, Enter, Enter. */
async function newSessionByKeys(page: Page): Promise<void> {
  await page.keyboard.press('Control+Shift+L');
  const start = sidebar(page).getByRole('button', { name: 'New session' });
  for (let i = 0; i < 6 && !(await start.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Shift+Tab');
  await expect(start).toBeFocused();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'New session' });
  await expect(dialog.getByRole('button', { name: 'Start' })).toBeEnabled();
  await page.keyboard.press('Enter');
  await expect(dialog).toHaveCount(0);
  await expect(messageBox(page)).toBeFocused();
}

test.describe('a whole day by keyboard, no pointer', () => {
  test('start a session, answer a permission and a question, read the transcript, switch, search, rename and archive', async ({ page, context, host }) => {
    test.setTimeout(120_000);
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await countPointerEvents(page);
    await openApp(page, host.url());

    // Start a session and talk to it.
    await newSessionByKeys(page);
    await typeEnter(page, 'plan the day');
    await expect(transcript(page)).toContainText('Echo: plan the day');
    await expect(polite(page)).toHaveText(/The agent finished/);

    // A permission request is announced at once; Ctrl+Shift+A goes to its answers.
    await typeEnter(page, '/permission Write notes');
    await expect(assertive(page)).toHaveText(/Permission requested: Write notes/);
    await page.keyboard.press('Control+Shift+A');
    await expect(focused(page)).toHaveAccessibleName('Allow once');
    await page.keyboard.press('Enter');
    await expect(transcript(page)).toContainText('Permission outcome: allow_once');

    // A question too: announced at once; the same keys go to its first field, Tab walks its form.
    await messageBox(page).focus();
    await typeEnter(page, '/elicit');
    await expect(assertive(page)).toHaveText(/Question from the agent: A few questions before the demo deploys/);
    await page.keyboard.press('Control+Shift+A');
    await expect(focused(page)).toHaveAccessibleName('Project name');
    const decline = page.getByRole('dialog', { name: 'Deploy the demo' }).getByRole('button', { name: 'Decline' });
    for (let i = 0; i < 40 && !(await decline.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab');
    await expect(decline).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(transcript(page)).toContainText('You declined the question.');

    // The transcript: the newest message, arrows between messages, Enter opens a tool call, C copies code.
    await messageBox(page).focus();
    await typeEnter(page, '/tool Run the tests');
    await expect(transcript(page).getByRole('region', { name: /Tool call: Run the tests/ })).toContainText('Done');
    await typeEnter(page, '/markdown 1 500');
    // The whole answer first: the Stop button may not have come yet, and the newest row would be the prompt.
    await expect(transcript(page)).toContainText(MARKDOWN_END);
    await expect(page.getByRole('button', { name: 'Stop' })).toHaveCount(0);
    await page.keyboard.press('Control+Shift+H');
    await expect(focused(page)).toHaveAttribute('role', 'article');
    for (let i = 0; i < 30 && !(await focused(page).locator('.code-copy').count()); i++) await page.keyboard.press('ArrowUp');
    const code = await focused(page).locator('pre code').first().innerText();
    await page.keyboard.press('c');
    await expect(focused(page).locator('.code-copy').first()).toHaveText('Copied');
    expect((await page.evaluate(() => navigator.clipboard.readText())).trim()).toBe(code.trim());
    for (let i = 0; i < 30 && !(await focused(page).getByRole('region', { name: /Tool call: Run the tests/ }).count()); i++) await page.keyboard.press('ArrowUp');
    const details = focused(page).locator('details.tool-more');
    await expect(details).not.toHaveAttribute('open');
    await page.keyboard.press('Enter');
    await expect(details).toHaveAttribute('open');
    await page.keyboard.press('End');
    await expect(focused(page)).toHaveAttribute('role', 'article');

    // A second session, then back to the first with the quick switcher.
    await page.keyboard.press('Control+j');
    await newSessionByKeys(page);
    await typeEnter(page, 'second thoughts');
    await expect(transcript(page)).toContainText('Echo: second thoughts');
    await page.keyboard.press('Control+k');
    await page.keyboard.type('plan the day');
    await page.keyboard.press('Enter');
    await expect(current(page)).toHaveAccessibleName(/plan the day/);
    await expect(messageBox(page)).toBeFocused();

    // Search from anywhere; the first hit opens its session at the hit.
    await page.keyboard.press('Alt+ArrowUp');
    await expect(current(page)).toHaveAccessibleName(/second thoughts/);
    await page.keyboard.press('Control+Shift+F');
    await page.keyboard.type('Write notes');
    await expect(page.getByRole('region', { name: 'Search results' }).getByRole('button').first()).toBeVisible();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect(current(page)).toHaveAccessibleName(/plan the day/);

    // Rename and archive from the entry's menu (Shift+F10; letters pick the item).
    await page.keyboard.press('Control+Shift+L');
    await page.keyboard.press('Tab');
    await expect(focused(page)).toHaveAttribute('aria-current', 'page');
    await page.keyboard.press('Shift+F10');
    await expect(page.getByRole('menu')).toBeVisible();
    await page.keyboard.press('r');
    await expect(focused(page)).toHaveAccessibleName('Rename');
    await page.keyboard.press('Enter');
    await expect(page.getByRole('textbox', { name: 'Session name' })).toBeFocused();
    await typeEnter(page, 'Planned by keys');
    await expect(current(page)).toHaveAccessibleName(/Planned by keys/);
    await page.keyboard.press('Control+Shift+L');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Shift+F10');
    await page.keyboard.press('a');
    await expect(focused(page)).toHaveAccessibleName('Archive');
    await page.keyboard.press('Enter');
    await expect(sidebar(page).getByRole('button', { name: /Archived \(1\)/ })).toBeVisible();

    expect(await pointerEvents(page)).toEqual([]);
  });
});

test('a prompt that has the focus while it is sent keeps it as its stored row, so the arrow keys go on', async ({ page, host }) => {
  // Holds the window's prompt:send frames until released: the prompt stays a row being sent.
  const held: string[] = [];
  let hold = false;
  let release = () => {};
  await page.routeWebSocket(/./, (ws) => {
    const server = ws.connectToServer();
    ws.onMessage((m) => {
      if (hold && typeof m === 'string' && m.includes('"prompt:send"')) held.push(m);
      else server.send(m);
    });
    server.onMessage((m) => ws.send(m));
    release = () => {
      hold = false;
      for (const m of held.splice(0)) server.send(m);
    };
  });
  await openApp(page, host.url());
  await newSessionByKeys(page);
  await typeEnter(page, 'first of two');
  await expect(transcript(page)).toContainText('Echo: first of two');
  await expect(polite(page)).toHaveText(/The agent finished/);

  hold = true;
  await typeEnter(page, 'held back');
  await expect.poll(() => held.length).toBe(1);
  await page.keyboard.press('Control+Shift+H');
  await expect(focused(page)).toHaveAttribute('role', 'article');
  await expect(focused(page)).toContainText('held back');
  const before = await focused(page).elementHandle();
  release();
  await expect(transcript(page)).toContainText('Echo: held back');
  // The stored row takes the sent row's place and element (one key from Enter to stored): the
  // focus stays on it, a message no longer being sent, and ↑ goes to the one above.
  await expect(focused(page)).not.toContainText('Sending…');
  expect(await before?.evaluate((el) => el === document.activeElement)).toBe(true);
  await expect(focused(page)).toHaveAttribute('role', 'article');
  await expect(focused(page)).toContainText('held back');
  await page.keyboard.press('ArrowUp');
  await expect(focused(page)).toContainText('Echo: first of two');
});

test('a focused message scrolled out of the drawn rows does not hand the focus to another', async ({ page, host }) => {
  await openApp(page, host.url());
  await newSessionByKeys(page);
  for (let i = 1; i <= 20; i++) await typeEnter(page, `line ${i} of a long talk`);
  await expect(transcript(page)).toContainText('Echo: line 20 of a long talk');
  await transcript(page).evaluate((el) => el.scrollTo({ top: 0 }));
  const first = transcript(page).locator('[data-row="0"]');
  await first.focus();
  await expect(first).toBeFocused();
  // To the end: the first rows leave the virtualised list and their elements go.
  await transcript(page).evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
  await expect(first).toHaveCount(0);
  await expect.poll(() => page.evaluate(() => document.activeElement?.closest('[data-row]') === null || document.activeElement === null)).toBe(true);
});
