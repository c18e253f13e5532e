/**
 * The demo agent's slash commands: what it advertises in
 * `available_commands_update` and how a prompt's text selects one.
 * Each command exists to make one client behaviour easy to reproduce.
 */
import type { AvailableCommand } from '@agentclientprotocol/sdk';

export const COMMAND_NAMES = ['slow', 'permission', 'tool', 'plan', 'title', 'flood', 'markdown', 'pace', 'hang', 'crash', 'history', 'ext', 'terminal', 'read', 'write', 'commands', 'cwd', 'hostile', 'mode', 'usage', 'elicit', 'mcp', 'fork', 'logout', 'cancel-request'] as const;
export type CommandName = (typeof COMMAND_NAMES)[number];

const specs: Record<CommandName, { description: string; hint?: string }> = {
  slow: { description: 'Stream a tick every 100 ms for N seconds (cancellable)', hint: 'seconds' },
  permission: { description: 'Propose a file edit and ask for permission', hint: 'title' },
  tool: { description: 'Run a tool call through pending, in progress and completed', hint: 'title' },
  plan: { description: 'Show a three-step plan' },
  title: { description: 'Rename this session', hint: 'new title' },
  flood: { description: 'Send N message chunks as fast as possible', hint: 'count' },
  markdown: { description: 'Stream about KB kilobytes of Markdown (mixed or dense blocks) at RATE chunks per second (cancellable)', hint: 'KB RATE [mixed|dense] [CHARS]' },
  pace: { description: 'Send N chunks at RATE per second, each carrying its send time (latency probe)', hint: 'count rate' },
  hang: { description: 'Never answer until the turn is cancelled' },
  crash: { description: 'Exit the agent process with code 1 mid-turn' },
  history: { description: 'Count the earlier prompts of this session' },
  ext: { description: 'Send the client an extension notification and requests it does not know' },
  terminal: { description: "Run a command in the client's terminal, shown live in a tool call", hint: 'command' },
  read: { description: "Read a file through the client (fs/read_text_file)", hint: 'path [line] [limit]' },
  write: { description: 'Write a file through the client (fs/write_text_file)', hint: 'path text' },
  commands: { description: 'Send the command list again, with extra commands named NAME…', hint: 'NAME…' },
  cwd: { description: "Say this session's working folder and additional folders, as the client gave them" },
  hostile: { description: 'Send Markdown and HTML that would run script or navigate if rendered as HTML' },
  mode: { description: 'Switch the mode from the agent side (ask, code, bypass)', hint: 'mode id' },
  usage: { description: 'Report token usage and cost for this turn and the session' },
  elicit: { description: 'Ask a question: a form with every kind of field, a URL to open (url), or a malformed form (malformed)', hint: '[url [URL] | malformed]' },
  mcp: { description: 'List the MCP servers this session was given, or connect to one and list its tools', hint: '[tools [NAME]]' },
  fork: { description: 'Say whether this session is a fork, and of which session' },
  logout: { description: 'Sign out from the agent side (needs --auth)' },
  'cancel-request': { description: 'Ask the client something, then withdraw the request with $/cancel_request', hint: '[permission | elicit | terminal] [ms]' },
};

export const availableCommands: AvailableCommand[] = COMMAND_NAMES.map((name) => {
  const spec = specs[name];
  return spec.hint === undefined
    ? { name, description: spec.description }
    : { name, description: spec.description, input: { hint: spec.hint } };
});

/** What `/commands a b` advertises: the usual list and one command per extra name. */
export function commandsWith(arg: string): AvailableCommand[] {
  const extra = arg.split(/\s+/).filter((n) => /^[a-z][\w-]*$/.test(n) && !availableCommands.some((c) => c.name === n));
  return [...availableCommands, ...[...new Set(extra)].map((name) => ({ name, description: `Added by /commands` }))];
}

export type ParsedPrompt = { command: CommandName; arg: string } | { command: 'echo'; text: string };

/** Unknown `/words` are echoed like any other text, as a chat agent would. */
export function parsePrompt(text: string): ParsedPrompt {
  const match = /^\/([a-z][a-z-]*)(?:\s+([\s\S]*))?$/.exec(text.trim());
  const name = match?.[1];
  if (match && name !== undefined && isCommandName(name)) {
    return { command: name, arg: (match[2] ?? '').trim() };
  }
  return { command: 'echo', text };
}

function isCommandName(name: string): name is CommandName {
  return (COMMAND_NAMES as readonly string[]).includes(name);
}

/** Whole, non-negative numbers only; anything else falls back so a typo still does something visible. */
export function parseCount(arg: string, fallback: number, max: number): number {
  const n = Number.parseInt(arg, 10);
  if (!Number.isFinite(n) || n < 0) return fallback;
  return Math.min(n, max);
}
