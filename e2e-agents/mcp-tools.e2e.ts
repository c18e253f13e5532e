import { openApp, send, transcript } from '../e2e/support/fixtures';
import { portableTestMcpServerCommand } from '../src/main/test-support/mcp-test-tools';
import { currentEntry, expect, newSessionOn, pinned, QWEN_TURN, test } from './support/interop';
import { TOOLS_ANSWER_PREFIX } from './support/stand-in-model';

const SERVER = 'switchboard-tools';

test('an MCP server added in Settings reaches a real Qwen Code session, which offers its tools to the model', async ({ page, interop }) => {
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

  await send(page, QWEN_TURN.toolsTrigger);
  await expect(transcript(page)).toContainText(TOOLS_ANSWER_PREFIX);
  // Qwen started the server, listed its tools over MCP and offered them to the model under its own names.
  const lastAsked = interop.model.requests.findLast((r) => JSON.stringify(r.messages ?? []).includes(QWEN_TURN.toolsTrigger));
  const offered = (description: string) => lastAsked?.tools?.find((t) => t.function?.description?.includes(description))?.function?.name;
  const echo = offered('Returns the text it is given.');
  const add = offered('Adds two numbers.');
  expect(echo, 'the MCP server\'s echo tool was offered to the model').toBeDefined();
  expect(add, 'the MCP server\'s add tool was offered to the model').toBeDefined();
  // The agent's answer in the window lists them.
  await expect(transcript(page)).toContainText(echo!);
  await expect(transcript(page)).toContainText(add!);
});
