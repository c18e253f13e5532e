import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, newSession, openApp, send, test, transcript } from './support/fixtures';

const root = resolve(import.meta.dirname, '..');
/** The test MCP server (echo, env, add), startable from any folder. */
const SERVER_ARGS = ['--import', pathToFileURL(join(root, 'node_modules/tsx/dist/loader.mjs')).href, join(root, 'src/main/test-support/mcp-test-server.ts')];
const SECRET = 'mcp-e2e-secret-4711';

test('an MCP server added in Settings is tested and reaches a new session, its secret never shown; edited, turned off for the agent, removed', async ({ page, host }) => {
  await openApp(page, host.url());
  await page.getByRole('button', { name: 'Settings' }).click();
  const settings = page.getByRole('dialog', { name: 'Settings' });
  await settings.getByRole('tab', { name: 'MCP servers' }).click();
  await settings.getByRole('button', { name: 'Add MCP server' }).click();

  const form = settings.getByRole('form', { name: 'Add MCP server' });
  // Checked before anything is sent: the reason sits next to the field.
  await form.getByRole('button', { name: 'Save server' }).click();
  await expect(form.getByRole('textbox', { name: 'Name' })).toHaveAttribute('aria-invalid', 'true');
  await expect(form.getByRole('textbox', { name: 'Name' })).toBeFocused();
  await expect(form.getByRole('textbox', { name: 'Name' })).toHaveAccessibleDescription(/Give the server a name/);

  await form.getByRole('textbox', { name: 'Name' }).fill('tools');
  await form.getByRole('textbox', { name: 'Command' }).fill(process.execPath);
  await form.getByRole('textbox', { name: 'Arguments' }).fill(SERVER_ARGS.join('\n'));
  await form.getByRole('button', { name: 'Add variable' }).click();
  await form.getByRole('textbox', { name: 'Variable 1 name' }).fill('TEST_TOKEN');
  await form.getByRole('checkbox', { name: 'Secret' }).check();
  await form.getByLabel('Variable 1 value').fill(SECRET);
  await form.getByRole('button', { name: 'Save server' }).click();

  const entry = settings.getByRole('list', { name: 'MCP servers' }).getByRole('listitem', { name: 'tools' });
  await expect(entry).toContainText('TEST_TOKEN (secret, set)');
  await expect(entry.getByRole('checkbox', { name: 'Demo agent' })).toBeChecked();
  await expect(settings).not.toContainText(SECRET);

  await entry.getByRole('button', { name: 'Test' }).click();
  await expect(entry.getByRole('list', { name: 'Tools of tools' })).toContainText('echo');
  await expect(entry).toContainText('answered in');
  await settings.getByRole('button', { name: 'Done' }).click();

  await newSession(page);
  await send(page, '/mcp');
  await expect(transcript(page)).toContainText('This session was given 1 MCP server (values not shown):');
  await expect(transcript(page)).toContainText('tools (stdio): ');
  await expect(transcript(page)).toContainText('environment: TEST_TOKEN');
  await expect(transcript(page)).toContainText('MCP servers given to Demo agent: tools (stdio).');
  // The agent reaches the server with the MCP SDK and lists its tools.
  await send(page, '/mcp tools');
  await expect(transcript(page)).toContainText('tools has 3 tools: echo, env, add');
  // The header says what the session was given.
  await page.getByText('1 MCP server', { exact: true }).click();
  await expect(page.getByRole('list', { name: 'MCP servers of this session' })).toContainText('tools (stdio)');
  await expect(page.locator('body')).not.toContainText(SECRET);

  // Edited: renamed, its secret kept without being typed again; then turned off for the agent.
  await page.getByRole('button', { name: 'Settings' }).click();
  await settings.getByRole('tab', { name: 'MCP servers' }).click();
  await entry.getByRole('button', { name: 'Edit' }).click();
  const edit = settings.getByRole('form', { name: 'Edit tools' });
  await edit.getByRole('textbox', { name: 'Name', exact: true }).fill('tools-renamed');
  await edit.getByRole('button', { name: 'Save server' }).click();
  const renamed = settings.getByRole('list', { name: 'MCP servers' }).getByRole('listitem', { name: 'tools-renamed' });
  await expect(renamed).toContainText('TEST_TOKEN (secret, set)');
  // The switch shows what the host stored: it turns once the host answered.
  await renamed.getByRole('checkbox', { name: 'Demo agent' }).click();
  await expect(renamed.getByRole('checkbox', { name: 'Demo agent' })).not.toBeChecked();
  await settings.getByRole('button', { name: 'Done' }).click();
  await newSession(page);
  await send(page, '/mcp');
  await expect(transcript(page)).toContainText('This session was given no MCP servers.');

  // Removed, after a confirmation.
  await page.getByRole('button', { name: 'Settings' }).click();
  await settings.getByRole('tab', { name: 'MCP servers' }).click();
  await renamed.getByRole('button', { name: 'Remove' }).click();
  await renamed.getByRole('button', { name: 'Keep it' }).click();
  await expect(renamed).toBeVisible();
  await renamed.getByRole('button', { name: 'Remove' }).click();
  await renamed.getByRole('button', { name: 'Yes, remove' }).click();
  await expect(settings.getByRole('list', { name: 'MCP servers' })).toHaveCount(0);
  await expect(settings).toContainText('No MCP servers yet.');
});
