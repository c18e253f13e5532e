import type * as acp from '@agentclientprotocol/sdk';
import type { AgentTestResultT, AgentTestStepT } from '../../shared/catalogue';
import { isAppError } from '../../shared/errors';
import type { AgentDefinition } from '../brokers/agent-definition';
import type { Broker } from '../brokers/broker';
import type { BrokerPool } from '../brokers/broker-pool';
import { toMethodView } from '../sessions/auth-request';
import type { Clock } from '../util/clock';

export interface AgentTestOptions {
  pool: BrokerPool;
  clock: Clock;
  timeoutMs: number;
  onProgress(step: AgentTestStepT, elapsedMs: number): void;
}

function authMethodsOf(res: acp.InitializeResponse): Extract<AgentTestResultT, { ok: true }>['authMethods'] {
  return (res.authMethods ?? []).map((m) => {
    const method = m as { id: string; name: string; description?: string | null; type?: string };
    return {
      id: method.id,
      name: method.name,
      ...(method.description ? { description: method.description } : {}),
      ...(method.type ? { type: method.type } : {}),
    };
  });
}

/** Waits for the broker's `initialize` answer, or the test's own deadline, whichever is first. */
export async function initialized(broker: Broker, clock: Clock, timeoutMs: number): Promise<acp.InitializeResponse> {
  let timer: ReturnType<Clock['setTimeout']> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = clock.setTimeout(() => reject(new Error(`${broker.agent.name} did not answer initialize within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    await Promise.race([broker.ready, deadline]);
  } finally {
    if (timer) clock.clearTimeout(timer);
  }
  if (!broker.initializeResponse) throw new Error(`${broker.agent.name} answered initialize with nothing`);
  return broker.initializeResponse;
}

/**
 * Starts the agent on its own (a private broker of the pool), runs `initialize`, reports what
 * the agent said about itself, and tears the process down whatever happened. Never throws: a
 * failure is a result too (with the agent's last stderr lines).
 */
export async function testAgent(agent: AgentDefinition, o: AgentTestOptions): Promise<AgentTestResultT> {
  const started = o.clock.now();
  const elapsed = (): number => o.clock.now() - started;
  o.onProgress('spawning', 0);
  let stderrTail: string[] = [];
  try {
    const result = await o.pool.probe(agent, async (broker) => {
      o.onProgress('initializing', elapsed());
      try {
        const res = await initialized(broker, o.clock, o.timeoutMs);
        const info = res.agentInfo;
        return {
          ok: true as const,
          at: o.clock.now(),
          durationMs: elapsed(),
          ...(info?.name ? { agentName: info.name } : {}),
          ...(info?.title ? { agentTitle: info.title } : {}),
          ...(info?.version ? { agentVersion: info.version } : {}),
          protocolVersion: res.protocolVersion,
          capabilities: JSON.parse(JSON.stringify(res.agentCapabilities ?? {})) as Extract<AgentTestResultT, { ok: true }>['capabilities'],
          authMethods: authMethodsOf(res),
          methods: (res.authMethods ?? []).flatMap((m) => toMethodView(m, agent) ?? []),
        };
      } finally {
        stderrTail = broker.stderrTail;
      }
    });
    return result;
  } catch (err) {
    const tail = isAppError(err) ? (err.details?.stderrTail ?? stderrTail) : stderrTail;
    return { ok: false, at: o.clock.now(), durationMs: elapsed(), message: (err as Error).message, stderrTail: tail };
  } finally {
    o.onProgress('done', elapsed());
  }
}
