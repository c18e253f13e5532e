import type * as acp from '@agentclientprotocol/sdk';
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
import { acpSdk } from '../util/acp-sdk';

/** How long a session's start waits for the agent to answer an earlier `session/close` of it. */
export const CLOSE_ANSWER_WAIT_MS = 10_000;

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
  /** A fork not started yet: the parent's agent session, and how many prompts of it to keep (all when absent). */
  fork?: { acpSessionId: string; upToPrompt?: number };
}

export type StartMode = 'new' | 'resumed' | 'loaded' | 'recreated' | 'forked';

/** ACP's unstable `session/fork`, which the SDK 2.4's stable capability types do not name. */
export function canFork(caps: acp.AgentCapabilities): boolean {
  const sessionCaps = caps.sessionCapabilities as { fork?: unknown } | null | undefined;
  return sessionCaps?.fork !== undefined && sessionCaps.fork !== null;
}

/**
 * How far a fork copies, for agents that read it: the number of the person's prompts kept (the
 * demo agent's `_meta.upToPrompt`; ACP's fork itself copies the whole session).
 */
export const FORK_AT_META = 'upToPrompt';

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

  // A close of this session the agent has not answered yet (it took longer than the closer
  // waited) could land after a resume or load sent now and drop the session again: wait for it.
  if (known && !(await broker.closeAnswered(known, CLOSE_ANSWER_WAIT_MS))) {
    o.log.warn('the agent has not answered session/close of this session; opening it again anyway', { session: row.id, waitedMs: CLOSE_ANSWER_WAIT_MS });
  }

  // A session closed while these run: each request still waiting is cancelled on the wire.
  const limit = { timeoutMs: o.requestTimeoutMs, signal: live.signal };
  /** The agent's answer (its modes and options become the session's controls), or undefined when it failed. */
  const load = async (id: string, keepReplay: boolean): Promise<{ answer: unknown } | undefined> => {
    live.replaying = !keepReplay;
    live.keepingReplay = keepReplay;
    live.bind(broker, id);
    try {
      const answer = await broker.request(acpSdk().methods.agent.session.load, { sessionId: id, cwd: row.cwd, mcpServers, ...roots }, limit);
      return { answer };
    } catch (err) {
      live.unbind();
      if (!broker.isAlive) throw broker.exitError();
      if (live.isDetached) throw closedWhileStarting();
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
      const answer = await broker.request(acpSdk().methods.agent.session.resume, { sessionId: known, cwd: row.cwd, mcpServers, ...roots }, limit);
      return { broker, acpSessionId: known, mode: 'resumed', answer, mcp };
    } catch (err) {
      live.unbind();
      if (!broker.isAlive) throw broker.exitError();
      if (live.isDetached) throw closedWhileStarting();
      o.log.info('session/resume failed; trying load', { session: row.id, error: String(err) });
    }
  }

  const loaded = known && !o.opening && caps.loadSession ? await load(known, false) : undefined;
  if (known && loaded) return { broker, acpSessionId: known, mode: 'loaded', answer: loaded.answer, mcp };

  /**
   * A request that makes an agent session (`session/new`, `session/fork`): its id once answered.
   * Given up on (a deadline, or the session closed meanwhile) the request is cancelled on the
   * wire but still awaited: an answer that comes anyway names a session the agent holds, and
   * only that answer lets us tell the agent to drop it.
   */
  const makeSession = async (method: 'session/new' | 'session/fork', params: Record<string, unknown>): Promise<{ sessionId: string; answer: unknown }> => {
    const stop = new AbortController();
    const onClosed = (): void => stop.abort();
    live.signal.addEventListener('abort', onClosed, { once: true });
    const limit = { signal: stop.signal, keepWaitingOnCancel: true };
    // `session/fork` is unstable: the SDK 2.4 does not list it, so it goes by name.
    const asked = method === 'session/new' ? broker.request(acpSdk().methods.agent.session.new, params as unknown as acp.NewSessionRequest, limit) : broker.requestUnlisted(method, params, limit);
    const request = asked.then((answer: unknown) => {
      const sessionId = (answer as { sessionId?: unknown } | null)?.sessionId;
      if (typeof sessionId !== 'string' || sessionId === '') throw new AppError('agent_error', `${agent.name} answered ${method} without a session id`);
      return { sessionId, answer };
    });
    let made: { sessionId: string; answer: unknown };
    try {
      made = await withDeadline(request, o.clock, o.requestTimeoutMs, () => {
        stop.abort();
        return new AppError('agent_error', `${agent.name} did not answer ${method} within ${o.requestTimeoutMs} ms`);
      });
    } catch (err) {
      request.then(
        (late) => dropAgentSession(broker, late.sessionId, o.log),
        // The request we gave up on failed after all: no agent session to drop.
        () => {},
      );
      if (!broker.isAlive) throw broker.exitError();
      if (live.isDetached) throw closedWhileStarting();
      throw describeAgentError(agent, method, err);
    } finally {
      live.signal.removeEventListener('abort', onClosed);
    }
    if (live.isDetached) {
      // Closed while starting: tell the agent to drop it where it can.
      dropAgentSession(broker, made.sessionId, o.log);
      throw closedWhileStarting();
    }
    return made;
  };

  // A fork: the agent copies the parent's session (up to a prompt, where the demo agent's
  // `_meta.upToPrompt` says so). If it cannot, a new session seeded with the copied transcript.
  if (!known && o.fork && canFork(caps)) {
    const { acpSessionId: parent, upToPrompt } = o.fork;
    const forked = await makeSession('session/fork', {
      sessionId: parent,
      cwd: row.cwd,
      mcpServers,
      ...roots,
      ...(upToPrompt === undefined ? {} : { _meta: { [FORK_AT_META]: upToPrompt } }),
    }).catch((err: unknown) => {
      if (!broker.isAlive || live.isDetached) throw err;
      o.log.info('session/fork failed; starting a new agent session with the copied conversation', { session: row.id, error: String(err) });
      return undefined;
    });
    if (forked) {
      live.bind(broker, forked.sessionId);
      return { broker, acpSessionId: forked.sessionId, mode: 'forked', answer: forked.answer, mcp };
    }
  }

  const res = await makeSession('session/new', { cwd: row.cwd, mcpServers, ...roots });
  live.bind(broker, res.sessionId);
  // Seeded only when an agent took part in this conversation before (it lost the session):
  // prompts queued while a brand-new session starts are not an earlier conversation.
  const seeded = known !== null || o.events.countOfKind(row.id, 'turn_started') > 0;
  if (seeded) live.seed = buildSeed(o.events, row.id);
  // The whole answer: its `modes`, `configOptions` and the unstable `models` (which the SDK
  // does not name) become the session's controls.
  return { broker, acpSessionId: res.sessionId, mode: seeded ? 'recreated' : 'new', answer: res.answer, mcp };
}

function closedWhileStarting(): AppError {
  return new AppError('invalid_state', 'The session was closed while it started');
}

/** An agent session nobody will use (timed out, or closed while starting): drop what is held, ask the agent to close it. */
function dropAgentSession(broker: Broker, acpSessionId: string, log: Logger): void {
  broker.dropUnclaimed(acpSessionId);
  if (broker.isAlive && broker.capabilities.sessionCapabilities?.close) {
    broker.request(acpSdk().methods.agent.session.close, { sessionId: acpSessionId }, 2_000).catch((err: unknown) => {
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
  if (err instanceof acpSdk().RequestError) {
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
