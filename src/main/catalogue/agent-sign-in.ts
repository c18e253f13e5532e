/**
 * Sign-in from Settings (issue 11: methods are shown "where the person is", the agent's entry
 * too): a probe of the agent lists its methods; an `agent` method runs ACP `authenticate` in
 * that probe (real agents keep the credentials they obtain on disk, so the next process is
 * signed in); an `env_var` method stores the value as the agent's secret and a fresh probe,
 * started with it, confirms it with `authenticate`; a `terminal` method is the person's to run.
 */
import type { AuthMethodView } from '../../shared/contract';
import { AppError } from '../../shared/errors';
import type { AgentDefinition } from '../brokers/agent-definition';
import type { Broker } from '../brokers/broker';
import type { BrokerPool } from '../brokers/broker-pool';
import { toMethodView } from '../sessions/auth-request';
import { describeAgentError } from '../sessions/session-starter';
import type { Clock } from '../util/clock';
import { initialized } from './agent-tester';
import { acpSdk } from '../util/acp-sdk';

export interface AgentSignInOptions {
  pool: BrokerPool;
  clock: Clock;
  /** Deadline of `initialize` and of `authenticate`. */
  timeoutMs: number;
  /** The agent as it starts now (secrets stored a moment ago included). */
  resolve(agentId: string): AgentDefinition | undefined;
  storeSecret(agentId: string, name: string, value: string): void;
}

function resolved(o: Pick<AgentSignInOptions, 'resolve'>, agentId: string): AgentDefinition {
  const agent = o.resolve(agentId);
  if (!agent) throw new AppError('not_found', `No agent named ${agentId}`);
  return agent;
}

async function authenticate(agent: AgentDefinition, broker: Broker, methodId: string, o: AgentSignInOptions): Promise<void> {
  try {
    await broker.request(acpSdk().methods.agent.authenticate, { methodId }, o.timeoutMs);
  } catch (err) {
    throw describeAgentError(agent, 'authenticate', err);
  }
}

/** Signs in to `agentId` with `methodId`; the probe processes are torn down whatever happens. */
export async function signInAgent(agentId: string, methodId: string, value: string | undefined, o: AgentSignInOptions): Promise<{ ok: true; message: string }> {
  const agent = resolved(o, agentId);
  const method = await o.pool.probe(agent, async (broker): Promise<AuthMethodView> => {
    const res = await initialized(broker, o.clock, o.timeoutMs);
    const listed = (res.authMethods ?? []).map((m) => toMethodView(m, agent)).find((m) => m?.id === methodId);
    if (!listed) throw new AppError('not_found', `${agent.name} offers no sign-in method ${methodId}`);
    if (listed.kind === 'agent') await authenticate(agent, broker, methodId, o);
    return listed;
  });
  if (method.kind === 'agent') return { ok: true, message: `Signed in to ${agent.name} with ${method.name}.` };
  if (method.kind === 'terminal') {
    throw new AppError('invalid_request', `Run ${method.command ?? 'the login command'} in a terminal to sign in to ${agent.name}`);
  }
  if (!value || !method.envVar) throw new AppError('invalid_request', `Give a value for ${method.envVar ?? 'the variable'}`);
  o.storeSecret(agent.id, method.envVar, value);
  // The agent reads its environment at spawn: a new probe with the stored value confirms it.
  await o.pool.probe(resolved(o, agentId), async (broker) => {
    await initialized(broker, o.clock, o.timeoutMs);
    await authenticate(agent, broker, methodId, o);
  });
  return { ok: true, message: `${method.envVar} is stored for ${agent.name}; the agent accepted it.` };
}

/**
 * Sign out from Settings: ACP `logout` on a probe of the agent, where its `initialize` lists
 * `agentCapabilities.auth.logout` (refused before anything is asked otherwise). Real agents
 * forget the credentials they keep on disk, so the next process starts signed out.
 */
export async function signOutAgent(agentId: string, o: Pick<AgentSignInOptions, 'pool' | 'clock' | 'timeoutMs' | 'resolve'> & { storedSecrets?: readonly string[] }): Promise<{ ok: true; message: string }> {
  const agent = resolved(o, agentId);
  await o.pool.probe(agent, async (broker) => {
    const res = await initialized(broker, o.clock, o.timeoutMs);
    if (!res.agentCapabilities?.auth?.logout) {
      throw new AppError('unsupported', `${agent.name} does not offer sign-out (its initialize lists no auth.logout)`);
    }
    try {
      await broker.request(acpSdk().methods.agent.logout, {}, o.timeoutMs);
    } catch (err) {
      throw describeAgentError(agent, 'logout', err);
    }
  });
  const kept = o.storedSecrets ?? [];
  // Honest about what a logout cannot undo: a stored key signs the next process in again.
  const note = kept.length ? ` Switchboard still gives it ${kept.join(', ')} at each start: remove ${kept.length > 1 ? 'them' : 'it'} with Edit to stay signed out.` : '';
  return { ok: true, message: `Signed out of ${agent.name}. Sessions already running keep their sign-in until their agent restarts.${note}` };
}

/** The command a terminal sign-in method of the agent runs (the agent's `initialize` lists it), looked up on a probe. */
export async function terminalMethodCommand(agentId: string, methodId: string, o: Pick<AgentSignInOptions, 'pool' | 'clock' | 'timeoutMs' | 'resolve'>): Promise<{ agent: AgentDefinition; command: string }> {
  const agent = resolved(o, agentId);
  const method = await o.pool.probe(agent, async (broker) => {
    const res = await initialized(broker, o.clock, o.timeoutMs);
    return (res.authMethods ?? []).map((m) => toMethodView(m, agent)).find((m) => m?.id === methodId);
  });
  if (!method) throw new AppError('not_found', `${agent.name} offers no sign-in method ${methodId}`);
  if (method.kind !== 'terminal' || !method.command) throw new AppError('invalid_request', `${method.name} is not a terminal sign-in`);
  return { agent, command: method.command };
}
