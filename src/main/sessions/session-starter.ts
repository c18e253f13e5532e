import * as acp from '@agentclientprotocol/sdk';
import { AppError } from '../../shared/errors';
import { decodedJson } from '../../shared/events';
import type { AgentDefinition } from '../brokers/agent-definition';
import type { Broker } from '../brokers/broker';
import type { BrokerPool } from '../brokers/broker-pool';
import type { EventsRepo } from '../store/events.repo';
import { additionalDirsOf, type SessionRow } from '../store/sessions.repo';
import type { Clock } from '../util/clock';
import type { Logger } from '../util/log';
import { isAuthError } from './auth-request';
import type { LiveSession } from './live-session';
import type { SessionMcpServers } from './session-context';

export interface StartOptions {
  pool: BrokerPool;
  events: EventsRepo;
  log: Logger;
  clock: Clock;
  requestTimeoutMs: number;
  retry?: boolean;
  /**
   * The session opens an agent session from the agent's own list: nothing of it is stored here,
   * so it is loaded first and its replay is kept as the transcript (ADR 0014).
   */
  opening?: boolean;
  /** The MCP servers for this agent, by its capabilities; none when absent. */
  mcpServers?(capabilities: acp.AgentCapabilities): SessionMcpServers;
}

export type StartMode = 'new' | 'resumed' | 'loaded' | 'recreated';

/**
 * Gives `live` an agent session. `live` is already in the registry with its sink, so updates
 * the agent sends while these requests are in flight are kept. An existing ACP session is
 * resumed (`session/resume`), else loaded (`session/load`, replay not stored again), else a
 * new one is made and seeded from our transcript. One opened from the agent's list is loaded
 * first, its replay stored (we hold nothing of it). Additional folders go with each request.
 */
export async function startAgentSession(
  live: LiveSession,
  row: SessionRow,
  agent: AgentDefinition,
  o: StartOptions,
): Promise<{ broker: Broker; acpSessionId: string; mode: StartMode; answer: unknown; mcp: SessionMcpServers['summary'] }> {
  const broker = await o.pool.acquire(row.id, agent, { retry: o.retry });
  const caps = broker.capabilities;
  // Read at each start (the person may have changed them), and the same for each attempt below.
  const { mcpServers, summary: mcp } = o.mcpServers?.(caps) ?? { mcpServers: [], summary: [] };
  const known = row.acp_session_id;
  const dirs = additionalDirsOf(row);
  // Only agents that say they take them get the additional folders (they confine files to them too).
  const roots = caps.sessionCapabilities?.additionalDirectories && dirs.length ? { additionalDirectories: dirs } : {};

  /** The agent's answer (its modes and options become the session's controls), or undefined when it failed. */
  const load = async (id: string, keepReplay: boolean): Promise<{ answer: unknown } | undefined> => {
    live.replaying = !keepReplay;
    live.keepingReplay = keepReplay;
    live.bind(broker, id);
    try {
      const answer = await broker.request(acp.methods.agent.session.load, { sessionId: id, cwd: row.cwd, mcpServers, ...roots }, o.requestTimeoutMs);
      return { answer };
    } catch (err) {
      live.unbind();
      if (!broker.isAlive) throw broker.exitError();
      o.log.info(keepReplay ? 'session/load of a listed session failed' : 'session/load failed; starting a new agent session', { session: row.id, error: String(err) });
      return undefined;
    } finally {
      live.replaying = false;
      live.keepingReplay = false;
    }
  };

  const opened = known && o.opening && caps.loadSession ? await load(known, true) : undefined;
  if (known && opened) return { broker, acpSessionId: known, mode: 'loaded', answer: opened.answer, mcp };

  if (known && caps.sessionCapabilities?.resume) {
    live.bind(broker, known);
    try {
      const answer = await broker.request(acp.methods.agent.session.resume, { sessionId: known, cwd: row.cwd, mcpServers, ...roots }, o.requestTimeoutMs);
      return { broker, acpSessionId: known, mode: 'resumed', answer, mcp };
    } catch (err) {
      live.unbind();
      if (!broker.isAlive) throw broker.exitError();
      o.log.info('session/resume failed; trying load', { session: row.id, error: String(err) });
    }
  }

  const loaded = known && !o.opening && caps.loadSession ? await load(known, false) : undefined;
  if (known && loaded) return { broker, acpSessionId: known, mode: 'loaded', answer: loaded.answer, mcp };

  // No timeout on the request itself: an answer that comes after we gave up still names a
  // session the agent holds, and only that answer lets us tell the agent to drop it.
  const request = broker.request(acp.methods.agent.session.new, { cwd: row.cwd, mcpServers, ...roots });
  let res: acp.NewSessionResponse;
  try {
    res = await withDeadline(request, o.clock, o.requestTimeoutMs, () =>
      new AppError('agent_error', `${agent.name} did not answer session/new within ${o.requestTimeoutMs} ms`),
    );
  } catch (err) {
    request.then(
      (late) => dropAgentSession(broker, late.sessionId, o.log),
      // The request we gave up on failed after all: no agent session to drop.
      () => {},
    );
    if (!broker.isAlive) throw broker.exitError();
    throw describeAgentError(agent, 'session/new', err);
  }
  if (live.isDetached) {
    // Closed while starting: tell the agent to drop it where it can.
    dropAgentSession(broker, res.sessionId, o.log);
    throw new AppError('invalid_state', 'The session was closed while it started');
  }
  live.bind(broker, res.sessionId);
  // Seeded only when an agent took part in this conversation before (it lost the session):
  // prompts queued while a brand-new session starts are not an earlier conversation.
  const seeded = known !== null || o.events.countOfKind(row.id, 'turn_started') > 0;
  if (seeded) live.seed = buildSeed(o.events, row.id);
  // The whole answer: its `modes`, `configOptions` and the unstable `models` (which the SDK
  // does not name) become the session's controls.
  return { broker, acpSessionId: res.sessionId, mode: seeded ? 'recreated' : 'new', answer: res, mcp };
}

/** An agent session nobody will use (timed out, or closed while starting): drop what is held, ask the agent to close it. */
function dropAgentSession(broker: Broker, acpSessionId: string, log: Logger): void {
  broker.dropUnclaimed(acpSessionId);
  if (broker.isAlive && broker.capabilities.sessionCapabilities?.close) {
    broker.request(acp.methods.agent.session.close, { sessionId: acpSessionId }, 2_000).catch((err: unknown) => {
      log.warn('the agent did not close a session nobody uses', { agent: broker.agent.id, acpSession: acpSessionId, error: String(err) });
    });
  }
}

function withDeadline<T>(promise: Promise<T>, clock: Clock, ms: number, onTimeout: () => Error): Promise<T> {
  if (!ms) return promise;
  return new Promise<T>((resolve, reject) => {
    const timer = clock.setTimeout(() => reject(onTimeout()), ms);
    timer.unref?.();
    promise.then(
      (value) => {
        clock.clearTimeout(timer);
        resolve(value);
      },
      (err: unknown) => {
        clock.clearTimeout(timer);
        reject(err);
      },
    );
  });
}

/** Earlier conversation, for an agent that lost the session (no resume, no load). */
function buildSeed(events: EventsRepo, sessionId: string): string | undefined {
  const recent = events.recentOfKinds(sessionId, ['user_message', 'agent_message', 'turn_started'], 60);
  // Only prompts an agent already took: the one about to be sent, and any queued behind it,
  // have no turn_started yet and must not be repeated as "earlier" context.
  const started = new Set<string | undefined>();
  for (const e of recent) if (e.kind === 'turn_started') started.add(e.payload.clientMessageId);
  const earlier: { kind: 'user_message' | 'agent_message'; text: string }[] = [];
  for (const e of recent) {
    if (e.kind === 'agent_message' || (e.kind === 'user_message' && started.has(e.payload.clientMessageId))) {
      earlier.push({ kind: e.kind, text: e.payload.text });
    }
  }
  if (earlier.length === 0) return undefined;
  // One answer streams in as many stored chunks: join them back into one message.
  const messages: { who: string; text: string }[] = [];
  for (const e of earlier) {
    const who = e.kind === 'user_message' ? 'User' : 'Assistant';
    const last = messages.at(-1);
    if (who === 'Assistant' && last?.who === who) last.text += e.text;
    else messages.push({ who, text: e.text });
  }
  let text = messages.map((m) => `${m.who}: ${m.text}`).join('\n');
  if (text.length > 8_000) text = '…' + text.slice(-8_000);
  return `(Context: this conversation continues an earlier one whose agent session was lost. Earlier messages:\n${text}\n)\n\n`;
}

export function describeAgentError(agent: AgentDefinition, method: string, err: unknown): AppError {
  if (err instanceof AppError) return err;
  if (err instanceof acp.RequestError) {
    // The agent's own words are kept: they often say what to do (which variable, which login).
    const auth = isAuthError(err);
    return new AppError(
      auth ? 'auth_required' : 'agent_error',
      auth ? `${agent.name} asks you to sign in: ${err.message}` : `${agent.name} refused ${method}: ${err.message}`,
      { rpcCode: err.code, ...(err.data !== undefined ? { rpcData: decodedJson(err.data) } : {}) },
    );
  }
  return new AppError('agent_error', `${agent.name} failed ${method}: ${(err as Error)?.message ?? String(err)}`);
}
