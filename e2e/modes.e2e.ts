import { expect, newSession, openApp, send, test, transcript } from './support/fixtures';
import type { Page } from '@playwright/test';

const control = (page: Page, name: string) => page.getByRole('combobox', { name, exact: true });
const bypassWarning = (page: Page) => page.getByRole('status').filter({ hasText: 'runs every tool without asking you' });

test.describe('modes, models and usage of the demo agent', () => {
  test('switches the mode in the header; the agent runs in it, and the header keeps it across a reload', async ({ page, host }) => {
    await openApp(page, host.url());
    await newSession(page);
    await expect(control(page, 'Mode')).toHaveValue('ask');
    await expect(control(page, 'Model')).toHaveValue('demo-fast');
    await expect(control(page, 'Verbosity')).toHaveValue('normal');

    await control(page, 'Mode').selectOption('code');
    await expect(control(page, 'Mode')).toHaveValue('code');
    await expect(control(page, 'Mode')).toBeEnabled();
    await send(page, '/mode');
    await expect(transcript(page)).toContainText('Mode: code');

    // An on/off option is a checkbox named after it, set on the agent too.
    const think = page.getByRole('checkbox', { name: 'Think aloud' });
    await expect(think).not.toBeChecked();
    await think.check();
    await expect(think).toBeChecked();
    await expect(think).toBeEnabled();

    await page.reload();
    await expect(control(page, 'Mode')).toHaveValue('code');
    await expect(page.getByRole('checkbox', { name: 'Think aloud' })).toBeChecked();
  });

  test('marks the mode that skips permission prompts, and warns while the session runs in it', async ({ page, host }) => {
    await openApp(page, host.url());
    await newSession(page);
    await expect(control(page, 'Mode').locator('option[value="bypass"]')).toHaveText('⚠ Bypass permissions (skips all permission prompts)');
    await expect(bypassWarning(page)).toHaveCount(0);

    // The agent switches itself: the header follows and warns.
    await send(page, '/mode bypass');
    await expect(control(page, 'Mode')).toHaveValue('bypass');
    await expect(bypassWarning(page)).toBeVisible();
    await expect(bypassWarning(page)).toContainText('Bypass permissions');

    await control(page, 'Mode').selectOption('ask');
    await expect(bypassWarning(page)).toHaveCount(0);
  });

  test('says why a change was refused and shows what the agent still holds', async ({ page, host }) => {
    await openApp(page, host.url());
    await newSession(page);
    await control(page, 'Model').selectOption('demo-offline');
    await expect(page.getByRole('alert').filter({ hasText: 'Could not change Model' })).toContainText('Demo Offline is not available right now');
    await expect(control(page, 'Model')).toHaveValue('demo-fast');
  });

  test('shows a turn\'s usage at its end and the session\'s in the header after /usage', async ({ page, host }) => {
    await openApp(page, host.url());
    await newSession(page);
    await send(page, '/usage');
    await expect(transcript(page).getByRole('note', { name: 'Turn usage' })).toHaveText('1.6k tokens (1.2k in, 300 out) · $0.0125 · context 1.6k / 200k');
    await expect(page.getByLabel('Session usage')).toHaveText('Context 1.6k / 200k · 1.6k tokens · $0.0125');
    await send(page, '/usage');
    await expect(page.getByLabel('Session usage')).toHaveText('Context 3.2k / 200k · 3.2k tokens · $0.025');
  });
});
