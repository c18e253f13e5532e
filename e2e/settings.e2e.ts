import { expect, openApp, test } from './support/fixtures';

test.describe('Settings in sections', () => {
  test('the sections are reached by keyboard alone, and focus comes back to what opened Settings', async ({ page, host }) => {
    await openApp(page, host.url());
    const opener = page.getByRole('button', { name: 'Settings' });
    await opener.focus();
    await page.keyboard.press('Enter');
    const settings = page.getByRole('dialog', { name: 'Settings' });
    const tabs = settings.getByRole('tablist', { name: 'Settings sections' });
    // In this order (other sections may follow; the checks below do not count them).
    await expect(tabs.getByRole('tab')).toContainText(['General', 'Agents', 'MCP servers', 'Permissions']);
    // Focus starts on the chosen section; the panel shows it.
    await expect(tabs.getByRole('tab', { name: 'General' })).toBeFocused();
    await expect(settings.getByRole('tabpanel', { name: 'General' }).getByRole('textbox', { name: 'Idle timeout' })).toHaveValue('30 min');

    await page.keyboard.press('ArrowDown');
    await expect(tabs.getByRole('tab', { name: 'Agents' })).toBeFocused();
    await expect(tabs.getByRole('tab', { name: 'Agents' })).toHaveAttribute('aria-selected', 'true');
    await expect(settings.getByRole('tabpanel', { name: 'Agents' }).getByRole('list', { name: 'Agents' })).toBeVisible();
    await page.keyboard.press('ArrowDown');
    await expect(settings.getByRole('tabpanel', { name: 'MCP servers' }).getByRole('button', { name: 'Add MCP server' })).toBeVisible();
    await page.keyboard.press('ArrowDown');
    await expect(settings.getByRole('tabpanel', { name: 'Permissions' }).getByRole('textbox', { name: 'Permission timeout' })).toHaveValue('5 min');
    // End, then past the end: around to the first.
    await page.keyboard.press('End');
    await expect(tabs.getByRole('tab').last()).toBeFocused();
    await expect(tabs.getByRole('tab').last()).toHaveAttribute('aria-selected', 'true');
    await page.keyboard.press('ArrowDown');
    await expect(tabs.getByRole('tab', { name: 'General' })).toBeFocused();
    await page.keyboard.press('ArrowUp');
    await expect(tabs.getByRole('tab').last()).toBeFocused();
    await page.keyboard.press('Home');
    await expect(tabs.getByRole('tab', { name: 'General' })).toHaveAttribute('aria-selected', 'true');

    // Only the chosen tab is a Tab stop: Tab leaves the list for the panel, and stays in the dialog.
    await page.keyboard.press('Tab');
    await expect(settings.getByRole('tabpanel', { name: 'General' })).toBeFocused();
    await page.keyboard.press('Shift+Tab');
    await expect(tabs.getByRole('tab', { name: 'General' })).toBeFocused();
    await page.keyboard.press('Shift+Tab');
    await expect(settings.getByRole('button', { name: 'Done' })).toBeFocused();
    await page.keyboard.press('Shift+Tab');
    await expect(settings.getByRole('button', { name: 'Save' })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(settings.getByRole('button', { name: 'Done' })).toBeFocused();

    await page.keyboard.press('Escape');
    await expect(settings).toHaveCount(0);
    await expect(opener).toBeFocused();
  });

  test('durations are typed in minutes and seconds, refused with the reason until they read as one', async ({ page, host }) => {
    await openApp(page, host.url());
    await page.getByRole('button', { name: 'Settings' }).click();
    const settings = page.getByRole('dialog', { name: 'Settings' });
    const idle = settings.getByRole('textbox', { name: 'Idle timeout' });
    await expect(idle).toHaveAccessibleDescription(/its agent stops, and your next message wakes it/);

    await idle.fill('1800000');
    await settings.getByRole('button', { name: 'Save' }).click();
    await expect(idle).toHaveAttribute('aria-invalid', 'true');
    await expect(idle).toBeFocused();
    await expect(idle).toHaveAccessibleDescription(/Add a unit to 1800000: min or s/);
    await expect(settings).not.toContainText('Saved');

    await idle.fill('1 h 30 min');
    await settings.getByRole('textbox', { name: 'Check for idle sessions every' }).fill('off');
    await settings.getByRole('button', { name: 'Save' }).click();
    await expect(settings).toContainText('Saved');
    await expect(idle).not.toHaveAttribute('aria-invalid', 'true');
    await settings.getByRole('button', { name: 'Done' }).click();

    // What was saved reads back the same way, in this window and after a reload.
    await page.reload();
    await page.getByRole('button', { name: 'Settings' }).click();
    await expect(settings.getByRole('textbox', { name: 'Idle timeout' })).toHaveValue('1 h 30 min');
    await expect(settings.getByRole('textbox', { name: 'Check for idle sessions every' })).toHaveValue('off');

    await settings.getByRole('tab', { name: 'Permissions' }).click();
    const permission = settings.getByRole('textbox', { name: 'Permission timeout' });
    await permission.fill('500 ms');
    await settings.getByRole('button', { name: 'Save' }).click();
    await expect(permission).toHaveAccessibleDescription(/not milliseconds/);
    await permission.fill('90 s');
    await settings.getByRole('button', { name: 'Save' }).click();
    await expect(settings.getByRole('tabpanel', { name: 'Permissions' })).toContainText('Saved');
    await settings.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('button', { name: 'Settings' }).click();
    await settings.getByRole('tab', { name: 'Permissions' }).click();
    await expect(settings.getByRole('textbox', { name: 'Permission timeout' })).toHaveValue('1 min 30 s');
  });
});
