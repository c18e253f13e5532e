import { openApp, send, transcript } from '../e2e/support/fixtures';
import { portableTestMcpServerCommand, TEST_MCP_TOOLS } from '../src/main/test-support/mcp-test-tools';
import { currentEntry, expect, newSessionOn, pinned, QWEN_TURN, test } from './support/interop';
import { TOOLS_ANSWER_PREFIX, TOOLS_FOUND_PREFIX } from './support/stand-in-model';

const SERVER = 'switchboard-tools';

test('an MCP server added in Settings reaches a real Qwen Code session, which starts it and finds its tools', async ({ page, interop }) => {
  await openApp(page, interop.serve.url);
  await page.getByRole('button', { name: 'Settings' }).click();
  const settings = page.getByRole('dialog', { name: 'Settings' });
  await settings.getByRole('tab', { name: 'MCP servers' }).click();
  await settings.getByRole('button', { name: 'Add MCP server' }).click();
  const form = settings.getByRole('form', { name: 'Add MCP server' });
  // Our small stdio server (echo, env, add), started by Qwen itself from the session's folder.
  const server = portableTestMcpServerCommand();
  await form.getByRole('textbox', { name: 'Name' }).fill(SERVER);
  await form.getByRole('textbox', { name: 'Command' }).fill(server.command);
  await form.getByRole('textbox', { name: 'Arguments' }).fill(server.args.join('\n'));
  await form.getByRole('button', { name: 'Save server' }).click();
  const entry = settings.getByRole('list', { name: 'MCP servers' }).getByRole('listitem', { name: SERVER });
  await expect(entry.getByRole('checkbox', { name: pinned('qwen').name })).toBeChecked();
  await settings.getByRole('button', { name: 'Done' }).click();

  await newSessionOn(page, pinned('qwen'));
  await expect(currentEntry(page)).toContainText('Idle');
  // Qwen takes stdio servers (every ACP agent must): given, none skipped.
  await page.getByText('1 MCP server', { exact: true }).click();
  await expect(page.getByRole('list', { name: 'MCP servers of this session' })).toContainText(`${SERVER} (stdio)`);

  // Qwen Code connects a session's MCP servers in the background once the session exists, and
  // keeps their tools behind its `tool_search`: the stand-in searches, then names what it found.
  // A question in the first seconds can come before the server's tools are in: asked again until
  // they are (each answer is a whole turn).
  const answers = transcript(page).getByText(TOOLS_ANSWER_PREFIX);
  await expect(async () => {
    const before = await answers.count();
    await send(page, QWEN_TURN.toolsTrigger);
    await expect(answers).toHaveCount(before + 1);
    await expect(answers.last()).toContainText(TOOLS_FOUND_PREFIX, { timeout: 1 });
  }).toPass({ intervals: [2_000], timeout: 90_000 });
  // Qwen started our server, listed its tools over MCP, and its search returned them by its own names.
  for (const tool of TEST_MCP_TOOLS) await expect(answers.last()).toContainText(new RegExp(`${SERVER}\\S*${tool}\\b`));
  const found = interop.model.requests.at(-1)?.messages?.filter((m) => m.role === 'tool').map((m) => JSON.stringify(m.content)).join('\n') ?? '';
  expect(found).toContain('Returns the text it is given.');
  expect(found).toContain('Adds two numbers.');
});
