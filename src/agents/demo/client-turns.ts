/**
 * Turns that use what the client offers an agent: a terminal (`/terminal CMD`) and its files
 * (`/read PATH [line] [limit]`, `/write PATH TEXT`). Failures are said in the reply, as a real
 * agent would report them, so a client's refusals are visible in the transcript.
 */
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import * as acp from '@agentclientprotocol/sdk';
import { onAbort } from './abortable';
import type { TurnContext } from './turns';

function say(ctx: TurnContext, text: string): Promise<void> {
  return ctx.send({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } });
}

function failure(error: unknown): string {
  return error instanceof acp.RequestError ? `${error.message} (error ${error.code})` : String(error);
}

/** The demo picks the shell itself, as agents do: the client runs exactly what it is given. */
export function shell(command: string): { command: string; args: string[] } {
  return process.platform === 'win32' ? { command: 'cmd.exe', args: ['/d', '/s', '/c', command] } : { command: 'sh', args: ['-c', command] };
}

/**
 * Runs `command` in a client terminal embedded in a tool call: create, stream, wait, release.
 * `COMMAND &` starts it in the background instead (like an agent's dev server): the terminal is
 * left running and held past the turn, so only the client's teardown of the session ends it.
 */
export async function terminal(ctx: TurnContext, arg: string): Promise<void> {
  const background = /\s&$/.test(arg);
  const command = background ? arg.replace(/\s&$/, '').trim() : arg;
  if (command === '') return say(ctx, 'Usage: /terminal COMMAND [&]');
  const toolCallId = `terminal-${randomUUID()}`;
  let terminalId: string;
  try {
    ({ terminalId } = await ctx.client.request(acp.methods.client.terminal.create, { sessionId: ctx.sessionId, ...shell(command), cwd: ctx.cwd }));
  } catch (error) {
    return say(ctx, `Could not start a terminal: ${failure(error)}`);
  }
  const ids = { sessionId: ctx.sessionId, terminalId };
  const embed = (): Promise<void> =>
    ctx.send({ sessionUpdate: 'tool_call', toolCallId, title: command, kind: 'execute', status: 'in_progress', content: [{ type: 'terminal', terminalId }], rawInput: { command } });
  if (background) {
    await embed();
    return say(ctx, `Started \`${command}\` in the background (terminal ${terminalId}).`);
  }
  try {
    await embed();
    // Best effort: a client that already released the terminal answers with an error, and the turn ends anyway.
    // A Stop that came while the terminal was starting kills it too.
    const stopListening = onAbort(ctx.signal, () => void ctx.client.request(acp.methods.client.terminal.kill, ids).catch(() => {}));
    // The SDK types these two answers `unknown` (2.4.0); the shapes are ACP's.
    const exit = (await ctx.client.request(acp.methods.client.terminal.waitForExit, ids).finally(stopListening)) as acp.WaitForTerminalExitResponse;
    const { output, truncated } = (await ctx.client.request(acp.methods.client.terminal.output, ids)) as acp.TerminalOutputResponse;
    await ctx.send({ sessionUpdate: 'tool_call_update', toolCallId, status: exit.exitCode === 0 ? 'completed' : 'failed', rawOutput: { ...exit } });
    const how = exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.exitCode}`;
    const lines = output === '' ? 0 : output.replace(/\n$/, '').split('\n').length;
    await say(ctx, `\`${command}\` ${how}; ${lines} lines of output${truncated ? ' (truncated)' : ''}.`);
  } catch (error) {
    await say(ctx, `The terminal failed: ${failure(error)}`);
  } finally {
    // Releasing a terminal the client already dropped (session closed) is nothing to report.
    await ctx.client.request(acp.methods.client.terminal.release, ids).catch(() => {});
  }
}

/** `PATH [line] [limit]`: trailing whole numbers are the range, the rest the path. */
function parseRead(arg: string): { path: string; line?: number; limit?: number } {
  const words = arg.split(/\s+/);
  const numbers: number[] = [];
  while (numbers.length < 2 && words.length > 1 && /^\d+$/.test(words.at(-1)!)) numbers.unshift(Number(words.pop()));
  const [line, limit] = numbers;
  return { path: words.join(' '), ...(line === undefined ? {} : { line }), ...(limit === undefined ? {} : { limit }) };
}

export async function read(ctx: TurnContext, arg: string): Promise<void> {
  const { path, line, limit } = parseRead(arg);
  if (path === '') return say(ctx, 'Usage: /read PATH [line] [limit]');
  try {
    const { content } = await ctx.client.request(acp.methods.client.fs.readTextFile, { sessionId: ctx.sessionId, path: resolve(ctx.cwd, path), line, limit });
    await say(ctx, `Read ${path}:\n\n\`\`\`\n${content}\n\`\`\``);
  } catch (error) {
    await say(ctx, `Could not read ${path}: ${failure(error)}`);
  }
}

export async function write(ctx: TurnContext, arg: string): Promise<void> {
  const match = /^(\S+)\s+([\s\S]*)$/.exec(arg);
  if (!match) return say(ctx, 'Usage: /write PATH TEXT');
  const [, path = '', content = ''] = match;
  try {
    await ctx.client.request(acp.methods.client.fs.writeTextFile, { sessionId: ctx.sessionId, path: resolve(ctx.cwd, path), content });
    await say(ctx, `Wrote ${Buffer.byteLength(content)} bytes to ${path}.`);
  } catch (error) {
    await say(ctx, `Could not write ${path}: ${failure(error)}`);
  }
}
