import type { Page } from '@playwright/test';
import { openApp } from '../e2e/support/fixtures';
import { currentEntry, expect, newSessionOn, pinned, test } from './support/interop';

const control = (page: Page, name: string) => page.getByRole('combobox', { name, exact: true });
const warning = (page: Page) => page.getByRole('status').filter({ hasText: 'without asking you' });

/**
 * Real agents answer `session/new` with their modes and settings, offline and signed out
 * (ACP.md): Claude's adapter starts in `auto`, which lets it act without asking; Qwen Code
 * would too, but the suite's settings start it in `default` (e2e-agents/support/qwen-home.ts).
 * Both offer a mode that skips every prompt. The header shows them as the agent named them,
 * marks those modes, warns while the session runs in one, and switches them on the agent.
 */
const cases = [
  { id: 'claude', modes: ['default', 'acceptEdits', 'plan', 'auto', 'bypassPermissions'], startsIn: 'auto', skipsAll: 'bypassPermissions', others: ['Effort'] },
  { id: 'qwen', modes: ['plan', 'default', 'auto-edit', 'auto', 'yolo'], startsIn: 'default', skipsAll: 'yolo', others: ['Reasoning effort'] },
];

for (const c of cases) {
  const agent = pinned(c.id);
  test(`${agent.name}: the header shows its Mode and Model, marks the modes that skip prompts, warns while one is on, and switches them on the agent`, async ({ page, interop }) => {
    await openApp(page, interop.serve.url);
    await newSessionOn(page, agent);
    await expect(currentEntry(page)).toContainText('Idle');
    const mode = control(page, 'Mode');
    await expect(mode).toHaveValue(c.startsIn);
    await expect(mode.locator('option')).toHaveCount(c.modes.length);
    for (const id of c.modes) await expect(mode.locator(`option[value="${id}"]`)).toHaveCount(1);
    await expect(mode.locator(`option[value="${c.skipsAll}"]`)).toContainText('skips all permission prompts');
    await expect(control(page, 'Model')).toBeVisible();
    expect(await control(page, 'Model').locator('option').count()).toBeGreaterThan(0);
    for (const name of c.others) await expect(control(page, name)).toBeVisible();
    await expect(warning(page)).toHaveCount(c.startsIn === 'auto' ? 1 : 0);
    // One Mode control, though the agent sent its modes twice (`modes` and a `mode` option).
    await expect(page.getByRole('combobox', { name: 'Mode', exact: true })).toHaveCount(1);

    // Switched on the agent itself: the mode that skips every prompt is warned about…
    await mode.selectOption(c.skipsAll);
    await expect(mode).toHaveValue(c.skipsAll);
    await expect(warning(page)).toContainText('runs every tool without asking you');
    // …and the warning goes with the mode that asks first.
    await mode.selectOption('default');
    await expect(mode).toHaveValue('default');
    await expect(page.getByRole('alert').filter({ hasText: 'Could not change' })).toHaveCount(0);
    await expect(warning(page)).toHaveCount(0);
  });
}
