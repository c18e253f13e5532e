/**
 * What each prompt does. A turn only talks to the world through
 * `TurnContext`, so these functions hold the demo script and nothing about
 * connections, files or session bookkeeping.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { join } from 'node:path';
import type {
  AgentContext,
  ClientCapabilities,
  McpServer,
  PermissionOption,
  PlanEntry,
  RequestPermissionOutcome,
  SessionUpdate,
  StopReason,
  ToolCallUpdate,
  ToolKind,
} from '@agentclientprotocol/sdk';
import { delay, untilAborted } from './abortable';
import { cancelRequest } from './cancel-request-turn';
import * as clientTurns from './client-turns';
import { commandsWith, parseCount, parsePrompt } from './commands';
import { elicit } from './elicit-turn';
import { hostile } from './hostile-turn';
import { parseMarkdownArgs, streamMarkdown } from './markdown-turn';
import { mcp } from './mcp-turn';

export type TurnContext = {
  readonly sessionId: string;
  readonly cwd: string;
  /** `additionalDirectories` of the session's last `session/new`, `load` or `resume`. */
  readonly additionalDirectories: readonly string[];
  /** Aborts on `session/cancel`, `session/close` or a lost connection. */
  readonly signal: AbortSignal;
  /** The session's prompts before this one, including those from earlier processes. */
  readonly earlierPrompts: number;
  /** Sends a `session/update` and records it in the history. */
  send(update: SessionUpdate): Promise<void>;
  requestPermission(toolCall: ToolCallUpdate, options: PermissionOption[]): Promise<RequestPermissionOutcome>;
  /** Persists the title; the caller still announces it with `session_info_update`. */
  setTitle(title: string): void;
  crash(): never;
  /** The session's mode now. */
  mode(): string;
  /** Switches the mode from the agent's side; the mode's name, or undefined when there is no such mode. */
  switchMode(modeId: string): string | undefined;
  /** Counts a `/usage` turn; its number (1 for the first) sets the cost reported. */
  nextUsageTurn(): number;
  /** The tokens this turn used, sent in the prompt answer's `usage`. */
  reportUsage(usage: TurnUsage): void;
  /** Sends `method` as a notification the client has no handler for. */
  notifyUnknown(method: string): Promise<void>;
  /** Sends `method` as a request the client has no handler for; resolves with how it answered. */
  requestUnknown(method: string): Promise<string>;
  /** Requests and notifications to the client (`fs/*`, `terminal/*`, `elicitation/*`). */
  readonly client: Pick<AgentContext, 'request' | 'notify'>;
  /** What the client offered in `initialize` (elicitation modes, …); undefined before it. */
  readonly clientCapabilities: ClientCapabilities | undefined;
  /** The MCP servers of the session's last `session/new`, `load`, `resume` or `fork`. */
  mcpServers(): readonly McpServer[];
  /** Set when `session/fork` made this session: from which one, with how many of its prompts. */
  readonly forkedFrom: { sessionId: string; prompts: number } | undefined;
  /** Signs the agent out (`/logout`); says what happened. */
  logout(): string;
};

/** ACP's unstable `Usage` of a prompt answer (the SDK 2.4's stable types do not name it). */
export type TurnUsage = { inputTokens: number; outputTokens: number; totalTokens: number; thoughtTokens?: number; cachedReadTokens?: number };

/** What `/usage` reports: fixed numbers, so a client's totals can be checked. */
export const USAGE_PER_TURN = { inputTokens: 1200, outputTokens: 300, thoughtTokens: 100, totalTokens: 1600 };
export const COST_PER_TURN_USD = 0.0125;
export const CONTEXT_SIZE = 200_000;

/** What `/ext` sends: an extension notification and a request the client does not know. */
export const EXT_NOTIFICATION = '_demo/heartbeat';
export const EXT_REQUEST = 'demo/drainQueue';
/** A `_`-prefixed extension request, as the spec names them. */
export const EXT_METHOD = '_demo/status';

export const PERMISSION_OPTIONS: PermissionOption[] = [
  { optionId: 'allow_once', name: 'Allow once', kind: 'allow_once' },
  { optionId: 'allow_always', name: 'Allow always', kind: 'allow_always' },
  { optionId: 'reject_once', name: 'Reject once', kind: 'reject_once' },
  { optionId: 'reject_always', name: 'Reject always', kind: 'reject_always' },
];

const TICK_MS = 100;
const TOOL_STEP_MS = 50;
const ECHO_CHUNK_MS = 20;
// Enough concurrency to keep the pipe full, few enough promises to keep memory flat.
const FLOOD_BATCH = 256;

export async function runTurn(ctx: TurnContext, text: string): Promise<StopReason> {
  const parsed = parsePrompt(text);
  switch (parsed.command) {
    case 'echo':
      await echo(ctx, parsed.text);
      break;
    case 'slow':
      await slow(ctx, parseCount(parsed.arg, 3, 3600));
      break;
    case 'permission':
      await permission(ctx, parsed.arg || 'Edit a file');
      break;
    case 'tool':
      await tool(ctx, parsed.arg || 'Read a file');
      break;
    case 'plan':
      await plan(ctx);
      break;
    case 'title':
      await title(ctx, parsed.arg);
      break;
    case 'flood':
      await flood(ctx, parseCount(parsed.arg, 1000, 1_000_000));
      break;
    case 'markdown': {
      const args = parseMarkdownArgs(parsed.arg);
      if (typeof args === 'string') await say(ctx, args);
      else await streamMarkdown(ctx, args);
      break;
    }
    case 'pace': {
      const [count = '', rate = ''] = parsed.arg.split(/\s+/);
      await pace(ctx, parseCount(count, 1000, 1_000_000), Math.max(1, parseCount(rate, 1000, 100_000)));
      break;
    }
    case 'hang':
      await untilAborted(ctx.signal);
      break;
    case 'crash':
      return ctx.crash();
    case 'history':
      await say(ctx, `History: ${ctx.earlierPrompts} earlier prompts`);
      break;
    case 'terminal':
      await clientTurns.terminal(ctx, parsed.arg);
      break;
    case 'read':
      await clientTurns.read(ctx, parsed.arg);
      break;
    case 'write':
      await clientTurns.write(ctx, parsed.arg);
      break;
    case 'commands': {
      const commands = commandsWith(parsed.arg);
      await ctx.send({ sessionUpdate: 'available_commands_update', availableCommands: commands });
      await say(ctx, `Sent ${commands.length} commands`);
      break;
    }
    case 'cwd':
      await say(
        ctx,
        `Working folder: ${ctx.cwd}\nAdditional folders: ${ctx.additionalDirectories.length ? ctx.additionalDirectories.join(', ') : 'none'}`,
      );
      break;
    case 'mode':
      await mode(ctx, parsed.arg);
      break;
    case 'usage':
      await usage(ctx);
      break;
    case 'ext':
      // Like real agents: a `_`-prefixed extension notification, and (like Qwen Code's
      // `craft/drainMidTurnQueue`) a request without the prefix, every turn.
      await ctx.notifyUnknown(EXT_NOTIFICATION);
      await say(ctx, `Sent ${EXT_NOTIFICATION}; ${EXT_REQUEST} was answered: ${await ctx.requestUnknown(EXT_REQUEST)}; `);
      await say(ctx, `${EXT_METHOD} was answered: ${await ctx.requestUnknown(EXT_METHOD)}`);
      break;
    case 'hostile':
      await hostile(ctx);
      break;
    case 'elicit':
      await elicit(ctx, parsed.arg);
      break;
    case 'mcp':
      await mcp(ctx, parsed.arg);
      break;
    case 'fork':
      await say(
        ctx,
        ctx.forkedFrom
          ? `This session is a fork of ${ctx.forkedFrom.sessionId}, with its first ${ctx.forkedFrom.prompts} prompts.`
          : 'This session is not a fork. The client can fork it (session/fork), whole or up to a prompt (_meta.upToPrompt).',
      );
      break;
    case 'logout':
      await say(ctx, ctx.logout());
      break;
    case 'cancel-request':
      await cancelRequest(ctx, parsed.arg);
      break;
  }
  return ctx.signal.aborted ? 'cancelled' : 'end_turn';
}

function say(ctx: TurnContext, text: string): Promise<void> {
  return ctx.send({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } });
}

async function echo(ctx: TurnContext, text: string): Promise<void> {
  await ctx.send({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: 'Thinking about it…' } });
  for (const chunk of splitForStreaming(`Echo: ${text}`)) {
    await delay(ECHO_CHUNK_MS, ctx.signal);
    if (ctx.signal.aborted) return;
    await say(ctx, chunk);
  }
}

/** At least three chunks, so a client's streaming path is always exercised; at most twelve, so long text stays quick. */
export function splitForStreaming(text: string): string[] {
  const chars = Array.from(text); // code points: never split a surrogate pair
  const count = Math.min(12, Math.max(3, Math.ceil(chars.length / 16)));
  const size = Math.max(1, Math.ceil(chars.length / count));
  const chunks: string[] = [];
  for (let i = 0; i < chars.length; i += size) chunks.push(chars.slice(i, i + size).join(''));
  return chunks;
}

async function slow(ctx: TurnContext, seconds: number): Promise<void> {
  const ticks = seconds * (1000 / TICK_MS);
  for (let tick = 1; tick <= ticks; tick++) {
    await delay(TICK_MS, ctx.signal);
    if (ctx.signal.aborted) return;
    await say(ctx, `tick ${tick} `);
  }
  await say(ctx, `Done after ${seconds}s`);
}

async function permission(ctx: TurnContext, toolTitle: string): Promise<void> {
  const toolCallId = `permission-${randomUUID()}`;
  const path = join(ctx.cwd, 'demo', 'greeting.txt');
  const toolCall = {
    toolCallId,
    title: toolTitle,
    kind: 'edit' as const,
    status: 'pending' as const,
    locations: [{ path, line: 1 }],
    content: [{ type: 'diff' as const, path, oldText: 'Hello\n', newText: 'Hello, Switchboard\n' }],
  };
  await ctx.send({ sessionUpdate: 'tool_call', ...toolCall, rawInput: { path } });
  // Like Claude's `bypassPermissions`: the mode that runs every tool without asking.
  const bypass = ctx.mode() === 'bypass';
  const outcome: RequestPermissionOutcome = bypass ? { outcome: 'selected', optionId: 'allow_once' } : await ctx.requestPermission(toolCall, PERMISSION_OPTIONS);
  if (bypass) await say(ctx, 'Not asked: bypass mode. ');
  const chosen = outcome.outcome === 'selected' ? outcome.optionId : 'cancelled';
  await say(ctx, `Permission outcome: ${chosen}`);
  const allowed = !ctx.signal.aborted && (chosen === 'allow_once' || chosen === 'allow_always');
  await ctx.send({ sessionUpdate: 'tool_call_update', toolCallId, status: allowed ? 'completed' : 'failed' });
}

async function tool(ctx: TurnContext, toolTitle: string): Promise<void> {
  const toolCallId = `tool-${randomUUID()}`;
  const kind: ToolKind = /^(run|exec|npm|git|make)\b/i.test(toolTitle) ? 'execute' : 'read';
  const path = join(ctx.cwd, 'README.md');
  await ctx.send({
    sessionUpdate: 'tool_call',
    toolCallId,
    title: toolTitle,
    kind,
    status: 'pending',
    locations: kind === 'read' ? [{ path }] : [],
    rawInput: kind === 'read' ? { path } : { command: toolTitle },
  });
  await delay(TOOL_STEP_MS, ctx.signal);
  if (!ctx.signal.aborted) {
    await ctx.send({ sessionUpdate: 'tool_call_update', toolCallId, status: 'in_progress' });
    await delay(TOOL_STEP_MS, ctx.signal);
  }
  if (ctx.signal.aborted) {
    await ctx.send({ sessionUpdate: 'tool_call_update', toolCallId, status: 'failed' });
    return;
  }
  const output = kind === 'read' ? `# Demo\nThree lines read from ${path}.\nNothing was really read.` : 'exit code 0';
  await ctx.send({
    sessionUpdate: 'tool_call_update',
    toolCallId,
    status: 'completed',
    content: [{ type: 'content', content: { type: 'text', text: output } }],
  });
  await say(ctx, `Tool "${toolTitle}" finished.`);
}

/** `/mode ID` switches the mode from the agent's side (`current_mode_update`), as agents do on their own. */
async function mode(ctx: TurnContext, modeId: string): Promise<void> {
  if (!modeId) {
    await say(ctx, `Mode: ${ctx.mode()}`);
    return;
  }
  const name = ctx.switchMode(modeId);
  if (!name) {
    await say(ctx, `No mode ${modeId}; the modes are ask, code, bypass`);
    return;
  }
  await ctx.send({ sessionUpdate: 'current_mode_update', currentModeId: modeId });
  await say(ctx, `Mode set to ${name}`);
}

/** `/usage`: a `usage_update` (context window, cumulative cost) and the turn's tokens in its answer. */
async function usage(ctx: TurnContext): Promise<void> {
  const turn = ctx.nextUsageTurn();
  const used = USAGE_PER_TURN.totalTokens * turn;
  const amount = Math.round(COST_PER_TURN_USD * turn * 10_000) / 10_000;
  await ctx.send({ sessionUpdate: 'usage_update', used, size: CONTEXT_SIZE, cost: { amount, currency: 'USD' } });
  ctx.reportUsage(USAGE_PER_TURN);
  await say(ctx, `Usage reported: ${USAGE_PER_TURN.totalTokens} tokens this turn, $${amount} so far`);
}

const PLAN: PlanEntry[] = [
  { content: 'Read the relevant code', priority: 'high', status: 'completed' },
  { content: 'Make the change', priority: 'medium', status: 'in_progress' },
  { content: 'Run the tests', priority: 'low', status: 'pending' },
];

async function plan(ctx: TurnContext): Promise<void> {
  await ctx.send({ sessionUpdate: 'plan', entries: PLAN });
  await say(ctx, 'Here is the plan.');
}

async function title(ctx: TurnContext, newTitle: string): Promise<void> {
  if (!newTitle) {
    await say(ctx, 'Usage: /title TEXT');
    return;
  }
  ctx.setTitle(newTitle);
  await ctx.send({ sessionUpdate: 'session_info_update', title: newTitle, updatedAt: new Date().toISOString() });
  await say(ctx, `Title set to: ${newTitle}`);
}

async function flood(ctx: TurnContext, count: number): Promise<void> {
  // Sends queued at once share one settled promise: each batch waits on the distinct ones.
  let batch = new Set<Promise<void>>();
  for (let i = 1; i <= count; i++) {
    batch.add(say(ctx, `flood ${i}\n`));
    if (i % FLOOD_BATCH === 0) {
      await Promise.all(batch);
      batch = new Set();
      if (ctx.signal.aborted) return;
    }
  }
  await Promise.all(batch);
}

/** When `performance.now()` reads in wall-clock ms, with sub-ms precision, comparable across processes. */
export const epochMs = (): number => performance.timeOrigin + performance.now();

/**
 * `pace I T\n` chunks, `T` the send time from `epochMs()`: a client on the same machine reads
 * chunk latency straight off the text. Sends are scheduled against the start, so a late timer
 * is caught up rather than slowing the whole run down.
 */
async function pace(ctx: TurnContext, count: number, rate: number): Promise<void> {
  const start = performance.now();
  for (let i = 1; i <= count && !ctx.signal.aborted; i++) {
    // Never before its time: a timer may fire up to a millisecond early, so wait again until due.
    const due = start + ((i - 1) * 1000) / rate;
    while (performance.now() < due && !ctx.signal.aborted) await delay(Math.max(1, due - performance.now()), ctx.signal);
    if (ctx.signal.aborted) return;
    await say(ctx, `pace ${i} ${epochMs().toFixed(3)}\n`);
  }
}
