import type * as acp from '@agentclientprotocol/sdk';
import type { Cost, PayloadOf, TurnUsage } from '../../shared/contract';
import { AppError, isAppError, toWireError } from '../../shared/errors';
import type { Broker } from '../brokers/broker';
import type { EventLog } from '../store/event-log';
import type { LiveSession } from './live-session';
import { acpPrompt, promptCapabilitiesOf, type AcceptedBlock } from './prompt-content';
import { describeAgentError } from './session-starter';
import type { Turn } from './turn';
import { duringSleep } from './session-context';
import type { Resumed } from '../util/suspend-watch';
import { acpSdk } from '../util/acp-sdk';

export interface TurnDeps {
  log: EventLog;
  /** How long after Stop the turn waits for the agent (`turn.abandoned` resolves then). */
  stopGraceMs: number;
  /** The agent refused the prompt until the person signs in: the session stays live. */
  onAuthRequired?(error: AppError, broker: Broker): void;
  /** The computer's recent sleep, if any: an agent that died then is said to have (`duringSleep`). */
  recentSleep?(): Resumed | undefined;
  /** The session's usage: its cost when the turn began, and the turn's use once it ended. */
  usage?: {
    costNow(sessionId: string): Cost | undefined;
    endTurn(sessionId: string, costBefore: Cost | undefined, reported: unknown): TurnUsage | undefined;
  };
}

/**
 * Sends one prompt to the live agent session and records how the turn ended: the agent's stop
 * reason, an error (with the agent's stderr tail when it died), or — when the agent ignored
 * Stop until `turn.abandoned` resolved — a cancelled end without it. A close records the end itself.
 */
export async function playTurn(
  live: LiveSession,
  turn: Turn,
  { text, blocks }: { text: string; blocks: readonly AcceptedBlock[] },
  deps: TurnDeps,
): Promise<void> {
  const { log } = deps;
  const sessionId = live.id;
  const { clientMessageId } = turn;
  const broker = live.broker as Broker;
  const sent = live.seed ? live.seed + text : text;
  live.seed = undefined;
  let prompt: acp.ContentBlock[];
  try {
    prompt = await acpPrompt(sent, blocks, promptCapabilitiesOf(broker.capabilities), live.cwd, broker.agent.name);
  } catch (err) {
    // Refused before the agent saw it (it does not take this kind of block, a mention left the folder).
    const error = isAppError(err) ? err : new AppError('internal', String(err));
    log.append(sessionId, 'error', errorPayload(error));
    log.append(sessionId, 'turn_ended', { stopReason: 'error', clientMessageId });
    return;
  }
  const costBefore = deps.usage?.costNow(sessionId);
  try {
    // Once the host stops waiting (Stop ignored, a close), the agent gets `$/cancel_request` for it too.
    const request = broker.request(
      acpSdk().methods.agent.session.prompt,
      { sessionId: live.acpSessionId as string, prompt },
      { signal: turn.signal, keepWaitingOnCancel: true },
    );
    const res = await Promise.race([request, turn.abandoned]);
    if (res === 'abandoned') {
      // The turn was ended without the agent; what its late answer (or failure) says changes nothing.
      request.catch(() => {});
      if (turn.closed) return; // the close recorded the end
      const seconds = Math.round(deps.stopGraceMs / 100) / 10;
      log.append(sessionId, 'notice', { kind: 'stop_timeout', text: `${broker.agent.name} did not stop within ${seconds} s of Stop; Switchboard stopped waiting for it.` });
      log.append(sessionId, 'turn_ended', { stopReason: 'cancelled', clientMessageId, reason: 'agent_ignored_cancel' });
    } else if (!live.isDetached) {
      // ACP's unstable `PromptResponse.usage` (the SDK passes answers through unchecked).
      const usage = deps.usage?.endTurn(sessionId, costBefore, (res as { usage?: unknown }).usage);
      log.append(sessionId, 'turn_ended', { stopReason: res.stopReason, clientMessageId, ...(usage ? { usage } : {}) });
    }
  } catch (err) {
    // A close cancelled this turn and recorded its end; anything else is an error to show.
    if (turn.closed) return;
    const error = broker.isAlive ? describeAgentError(broker.agent, 'session/prompt', err) : exitedError(broker, deps.recentSleep?.());
    // An error of this prompt, shown on its turn: the session keeps its live state.
    log.append(sessionId, 'error', errorPayload(error));
    if (error.code === 'auth_required') deps.onAuthRequired?.(error, broker);
    log.append(sessionId, 'turn_ended', { stopReason: turn.cancelled ? 'cancelled' : 'error', clientMessageId });
  }
}

/** Why the agent is gone; "while this computer slept" when its exit came with a wake. */
function exitedError(broker: Broker, sleep: Resumed | undefined): AppError {
  const error = broker.exitError();
  return sleep ? new AppError(error.code, `${error.message}${duringSleep(sleep)}`, error.details) : error;
}

/** An error as a transcript event payload (the stderr tail of a dead agent included). */
export function errorPayload(err: AppError): PayloadOf<'error'> {
  const wire = toWireError(err);
  const stderrTail = err.details?.stderrTail;
  return { code: wire.code, message: wire.message, ...(stderrTail?.length ? { stderrTail } : {}) };
}
