import * as acp from '@agentclientprotocol/sdk';
import { AppError } from '../../shared/errors';
import type { AgentDefinition } from '../brokers/agent-definition';
import type { Broker } from '../brokers/broker';
import type { BrokerPool } from '../brokers/broker-pool';
import type { EventsRepo } from '../store/events.repo';
import type { SessionRow } from '../store/sessions.repo';
import type { Logger } from '../util/log';
import type { LiveSession } from './live-session';

export interface StartOptions {
  pool: BrokerPool;
  events: EventsRepo;
  log: Logger;
  requestTimeoutMs: number;
  retry?: boolean;
}

export type StartMode = 'new' | 'resumed' | 'loaded' | 'recreated';

/**
 * Gives `live` an agent session. `live` is already in the registry with its sink, so updates
 * the agent sends while these requests are in flight are kept. An existing ACP session is
 * resumed (`session/resume`), else loaded (`session/load`, replay not stored again), else a
 * new one is made and seeded from our transcript.
 */
export async function startAgentSession(
  live: LiveSession,
  row: SessionRow,
  agent: AgentDefinition,
  o: StartOptions,
): Promise<{ broker: Broker; acpSessionId: string; mode: StartMode }> {
  const broker = await o.pool.acquire(row.id, agent, { retry: o.retry });
  const caps = broker.capabilities;
  const known = row.acp_session_id;

  if (known && caps.sessionCapabilities?.resume) {
    live.bind(broker, known);
    try {
      await broker.request(acp.methods.agent.session.resume, { sessionId: known, cwd: row.cwd, mcpServers: [] }, o.requestTimeoutMs);
      return { broker, acpSessionId: known, mode: 'resumed' };
    } catch (err) {
      live.unbind();
      if (!broker.isAlive) throw broker.exitError();
      o.log.info('session/resume failed; trying load', { session: row.id, error: String(err) });
    }
  }

  if (known && caps.loadSession) {
    live.replaying = true;
    live.bind(broker, known);
    try {
      await broker.request(acp.methods.agent.session.load, { sessionId: known, cwd: row.cwd, mcpServers: [] }, o.requestTimeoutMs);
      return { broker, acpSessionId: known, mode: 'loaded' };
    } catch (err) {
      live.unbind();
      if (!broker.isAlive) throw broker.exitError();
      o.log.info('session/load failed; starting a new agent session', { session: row.id, error: String(err) });
    } finally {
      live.replaying = false;
    }
  }

  const request = broker.request(acp.methods.agent.session.new, { cwd: row.cwd, mcpServers: [] }, o.requestTimeoutMs);
  let res: acp.NewSessionResponse;
  try {
    res = await request;
  } catch (err) {
    if (!broker.isAlive) throw broker.exitError();
    throw describeAgentError(agent, 'session/new', err);
  }
  if (live.isDetached) {
    // Closed while starting: tell the agent to drop it where it can.
    broker.dropUnclaimed(res.sessionId);
    if (broker.capabilities.sessionCapabilities?.close) {
      broker.request(acp.methods.agent.session.close, { sessionId: res.sessionId }, 2_000).catch(() => {});
    }
    throw new AppError('invalid_state', 'The session was closed while it started');
  }
  live.bind(broker, res.sessionId);
  const seeded = known !== null || o.events.countOfKind(row.id, 'user_message') > 1;
  if (seeded) live.seed = buildSeed(o.events, row.id);
  return { broker, acpSessionId: res.sessionId, mode: seeded ? 'recreated' : 'new' };
}

/** Earlier conversation, for an agent that lost the session (no resume, no load). */
function buildSeed(events: EventsRepo, sessionId: string): string | undefined {
  const recent = events.recentOfKinds(sessionId, ['user_message', 'agent_message'], 40);
  // The newest user_message is the prompt about to be sent: leave it out.
  const lastUser = recent.map((e) => e.kind).lastIndexOf('user_message');
  const earlier = lastUser >= 0 ? recent.slice(0, lastUser) : recent;
  if (earlier.length === 0) return undefined;
  const lines = earlier.map((e) => `${e.kind === 'user_message' ? 'User' : 'Assistant'}: ${String(e.payload.text ?? '')}`);
  let text = lines.join('\n');
  if (text.length > 8_000) text = '…' + text.slice(-8_000);
  return `(Context: this conversation continues an earlier one whose agent session was lost. Earlier messages:\n${text}\n)\n\n`;
}

export function describeAgentError(agent: AgentDefinition, method: string, err: unknown): AppError {
  if (err instanceof AppError) return err;
  if (err instanceof acp.RequestError) {
    const auth = err.code === -32000 || err.code === acp.RequestError.authRequired().code;
    return new AppError(
      auth ? 'agent_unavailable' : 'agent_error',
      auth ? `${agent.name} needs you to sign in first (${err.message})` : `${agent.name} refused ${method}: ${err.message}`,
      { rpcCode: err.code, data: err.data },
    );
  }
  return new AppError('agent_error', `${agent.name} failed ${method}: ${(err as Error)?.message ?? String(err)}`);
}
