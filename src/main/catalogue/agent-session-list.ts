/**
 * "Open an existing session of this agent": the agent's own `session/list`, asked of a private
 * probe of it (never a broker a session uses: a listing must not share its fate), torn down
 * once answered. Opening one is `sessions:create` with its id (the start loads it).
 */
import type * as acp from '@agentclientprotocol/sdk';
import type { AgentSessionPageT } from '../../shared/contract';
import { AppError } from '../../shared/errors';
import type { AgentDefinition } from '../brokers/agent-definition';
import type { BrokerPool } from '../brokers/broker-pool';
import { describeAgentError } from '../sessions/session-starter';
import type { Clock } from '../util/clock';
import { initialized } from './agent-tester';
import { acpSdk } from '../util/acp-sdk';

export interface AgentSessionsOptions {
  pool: BrokerPool;
  clock: Clock;
  /** Deadline of `initialize` and of `session/list`. */
  timeoutMs: number;
}

/** An ISO 8601 time as ms since the epoch; an unreadable one is left out rather than guessed. */
function timeOf(iso: string | null | undefined): { updatedAt?: number } {
  const ms = iso ? Date.parse(iso) : Number.NaN;
  return Number.isFinite(ms) ? { updatedAt: ms } : {};
}

/** One page of `agent`'s sessions (in `cwd` if given); `unsupported` if it does not list them. */
export async function listAgentSessions(
  agent: AgentDefinition,
  query: { cwd?: string; cursor?: string },
  o: AgentSessionsOptions,
): Promise<AgentSessionPageT> {
  return o.pool.probe(agent, async (broker) => {
    const init = await initialized(broker, o.clock, o.timeoutMs);
    if (!init.agentCapabilities?.sessionCapabilities?.list) {
      throw new AppError('unsupported', `${agent.name} does not list its sessions.`);
    }
    let res: acp.ListSessionsResponse;
    try {
      res = await broker.request(acpSdk().methods.agent.session.list, { ...(query.cwd ? { cwd: query.cwd } : {}), ...(query.cursor ? { cursor: query.cursor } : {}) }, o.timeoutMs);
    } catch (err) {
      throw describeAgentError(agent, 'session/list', err);
    }
    return {
      sessions: res.sessions.map((s) => ({
        acpSessionId: s.sessionId,
        cwd: s.cwd,
        ...(s.title ? { title: s.title } : {}),
        ...timeOf(s.updatedAt),
        additionalDirs: s.additionalDirectories ?? [],
      })),
      ...(res.nextCursor ? { nextCursor: res.nextCursor } : {}),
    };
  });
}
