/**
 * `/cancel-request [permission | elicit | terminal] [ms]`: the agent asks the client something
 * (a permission, a form question when the client takes them, or to wait for a terminal that
 * runs `sleep 30`), changes its mind after `ms` (default 1000) and withdraws the request with
 * `$/cancel_request`, as agents do when a tool call is abandoned. A client should take the
 * question off every window (or stop waiting for the terminal) and answer the request with
 * error -32800; the reply says what it did. The terminal is killed and released after.
 */
import { randomUUID } from 'node:crypto';
import * as acp from '@agentclientprotocol/sdk';
import { onAbort } from './abortable';
import { shell } from './client-turns';
import { PERMISSION_OPTIONS, type TurnContext } from './turns';

const DEFAULT_CANCEL_AFTER_MS = 1_000;
/** After withdrawing, how long the agent still listens for the client's answer. */
export const ANSWER_AFTER_CANCEL_MS = 10_000;

function say(ctx: TurnContext, text: string): Promise<void> {
  return ctx.send({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } });
}

export async function cancelRequest(ctx: TurnContext, arg: string): Promise<void> {
  const words = arg.split(/\s+/).filter(Boolean);
  const ms = words.length > 0 && /^\d+$/.test(words.at(-1) ?? '') ? Math.min(Number(words.pop()), 60_000) : DEFAULT_CANCEL_AFTER_MS;
  const asked = words[0] ?? (ctx.clientCapabilities?.elicitation?.form ? 'elicit' : 'permission');
  if (asked !== 'permission' && asked !== 'elicit' && asked !== 'terminal') return say(ctx, 'Usage: /cancel-request [permission | elicit | terminal] [ms]');
  if (asked === 'elicit' && !ctx.clientCapabilities?.elicitation?.form) return say(ctx, 'The client does not take questions as forms; try /cancel-request permission.');

  const withdraw = new AbortController();
  const stopListening = onAbort(ctx.signal, () => withdraw.abort());
  // The agent changes its mind `ms` after it sent the request it withdraws (for a terminal, the
  // wait: the terminal's creation is not counted).
  let timer: NodeJS.Timeout | undefined;
  const withdrawable = (): AbortSignal => {
    timer = setTimeout(() => withdraw.abort(), ms);
    return withdraw.signal;
  };
  const toolCallId = `cancel-request-${randomUUID()}`;
  const toolCall = { toolCallId, title: 'A request the agent will withdraw', kind: 'other' as const, status: 'pending' as const };
  let terminalId: string | undefined;
  const request =
    asked === 'permission'
      ? ctx.send({ sessionUpdate: 'tool_call', ...toolCall }).then(() =>
          ctx.client.request(acp.methods.client.session.requestPermission, { sessionId: ctx.sessionId, toolCall, options: PERMISSION_OPTIONS }, { cancellationSignal: withdrawable() }),
        )
      : asked === 'terminal'
        ? ctx.client.request(acp.methods.client.terminal.create, { sessionId: ctx.sessionId, ...shell('sleep 30'), cwd: ctx.cwd }).then((created) => {
            terminalId = created.terminalId;
            return ctx.client.request(acp.methods.client.terminal.waitForExit, { sessionId: ctx.sessionId, terminalId }, { cancellationSignal: withdrawable() });
          })
        : ctx.client.request(
            acp.methods.client.elicitation.create,
            { sessionId: ctx.sessionId, mode: 'form', message: 'This question will be withdrawn.', requestedSchema: { type: 'object', properties: { answer: { type: 'string' } } } },
            { cancellationSignal: withdrawable() },
          );
  let giveUp: NodeJS.Timeout | undefined;
  const noAnswer = new Promise<'no answer'>((resolve) => {
    onAbort(withdraw.signal, () => (giveUp = setTimeout(() => resolve('no answer'), ANSWER_AFTER_CANCEL_MS)));
  });
  // Settled either way, so an answer that comes after the agent stopped listening is no unhandled rejection.
  const settled = request.then(
    (answer) => ({ answer }),
    (error: unknown) => ({ error }),
  );
  try {
    const outcome = await Promise.race([settled, noAnswer]);
    if (outcome === 'no answer') await say(ctx, `Withdrew the ${asked} request; the client never answered it.`);
    else if ('answer' in outcome) {
      // A permission request answers a cancel with its `cancelled` outcome, not an error.
      const answered = JSON.stringify(outcome.answer);
      await say(ctx, withdraw.signal.aborted ? `Withdrew the ${asked} request with $/cancel_request; the client answered ${answered}` : `The client answered before the ${asked} request was withdrawn: ${answered}`);
    }
    else {
      const how = outcome.error instanceof acp.RequestError ? `error ${outcome.error.code} (${outcome.error.message})` : String(outcome.error);
      await say(ctx, withdraw.signal.aborted ? `Withdrew the ${asked} request with $/cancel_request; the client answered ${how}.` : `The ${asked} request failed: ${how}`);
    }
  } finally {
    clearTimeout(timer);
    clearTimeout(giveUp);
    stopListening();
    if (asked === 'permission') await ctx.send({ sessionUpdate: 'tool_call_update', toolCallId, status: 'failed' });
    if (terminalId !== undefined) await releaseTerminal(ctx, terminalId);
  }
}

/** Ends the `sleep` the terminal runs; a client that already dropped it (session closed) is nothing to report. */
async function releaseTerminal(ctx: TurnContext, terminalId: string): Promise<void> {
  const ids = { sessionId: ctx.sessionId, terminalId };
  await ctx.client.request(acp.methods.client.terminal.kill, ids).catch(() => {});
  await ctx.client.request(acp.methods.client.terminal.release, ids).catch(() => {});
}
