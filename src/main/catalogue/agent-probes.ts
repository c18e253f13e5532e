import type { AgentSessionPageT, AgentTestResultT, AgentTestStepT } from '../../shared/contract';
import { AppError } from '../../shared/errors';
import type { AgentDefinition } from '../brokers/agent-definition';
import type { BrokerPool } from '../brokers/broker-pool';
import type { Clock } from '../util/clock';
import { requireFolder } from '../workspace/folders';
import type { AgentCatalogue } from './agent-catalogue';
import { listAgentSessions } from './agent-session-list';
import { signInAgent, signOutAgent, terminalMethodCommand } from './agent-sign-in';
import { testAgent } from './agent-tester';

export interface AgentProbesOptions {
  catalogue: AgentCatalogue;
  pool: BrokerPool;
  clock: Clock;
  /** Deadline of each step on a probe (`initialize`, `authenticate`, `session/list`). */
  timeoutMs: number;
  /** The Switchboard session already bound to an agent's own session, if one is. */
  boundSession(agentId: string, acpSessionId: string): string | undefined;
  /** Opens the person's terminal (the desktop app); absent where none can open. */
  openTerminal?: (command: string, cwd: string, env: Record<string, string>) => void;
  /** Where a terminal sign-in from Settings runs (the default folder). */
  terminalCwd(): string;
}

/**
 * What Settings and the New session dialog do with an agent outside any session, each on a
 * private probe of it (never shared, never counted as a crash, always torn down): test it,
 * sign it in, list its own sessions.
 */
export class AgentProbes {
  // Two Test clicks on one agent share one run: one process, one result.
  private readonly running = new Map<string, Promise<AgentTestResultT>>();

  constructor(private readonly o: AgentProbesOptions) {}

  /** Starts the agent and runs `initialize`; the result is kept with the agent. */
  test(agentId: string, onProgress: (step: AgentTestStepT, elapsedMs: number) => void): Promise<AgentTestResultT> {
    const agent = this.agent(agentId);
    let run = this.running.get(agent.id);
    if (!run) {
      run = testAgent(agent, { pool: this.o.pool, clock: this.o.clock, timeoutMs: this.o.timeoutMs, onProgress })
        .then((result) => {
          this.o.catalogue.recordTest(agent.id, result);
          return result;
        })
        .finally(() => this.running.delete(agent.id));
      this.running.set(agent.id, run);
    }
    return run;
  }

  signIn(agentId: string, methodId: string, value: string | undefined): Promise<{ ok: true; message: string }> {
    const { catalogue } = this.o;
    return signInAgent(agentId, methodId, value, {
      pool: this.o.pool,
      clock: this.o.clock,
      timeoutMs: this.o.timeoutMs,
      resolve: (id) => catalogue.resolve(id),
      storeSecret: (id, name, value) => catalogue.storeSecret(id, name, value),
    });
  }

  /** ACP `logout` on a probe, where the agent offers it. */
  signOut(agentId: string): Promise<{ ok: true; message: string }> {
    const { catalogue } = this.o;
    const storedSecrets = catalogue.secretNames(agentId);
    return signOutAgent(agentId, { pool: this.o.pool, clock: this.o.clock, timeoutMs: this.o.timeoutMs, resolve: (id) => catalogue.resolve(id), storedSecrets });
  }

  /**
   * A terminal sign-in from Settings: the method's command (looked up on a probe) opens in the
   * person's terminal with the agent's environment; where none can open, the refusal names the
   * command to run (the window shows it with Copy anyway).
   */
  async signInInTerminal(agentId: string, methodId: string): Promise<void> {
    const { catalogue } = this.o;
    const { agent, command } = await terminalMethodCommand(agentId, methodId, { pool: this.o.pool, clock: this.o.clock, timeoutMs: this.o.timeoutMs, resolve: (id) => catalogue.resolve(id) });
    if (!this.o.openTerminal) throw new AppError('unsupported', `Switchboard cannot open a terminal here: run ${command} yourself, then press Test`);
    this.o.openTerminal(command, this.o.terminalCwd(), agent.env);
  }

  /** The agent's own sessions (`session/list`), each marked with the session already open on it. */
  async sessions(agentId: string, query: { cwd?: string; cursor?: string }): Promise<AgentSessionPageT> {
    const agent = this.agent(agentId);
    const checked = { ...(query.cwd === undefined ? {} : { cwd: requireFolder(query.cwd) }), ...(query.cursor === undefined ? {} : { cursor: query.cursor }) };
    const page = await listAgentSessions(agent, checked, { pool: this.o.pool, clock: this.o.clock, timeoutMs: this.o.timeoutMs });
    return {
      ...page,
      sessions: page.sessions.map((s) => {
        const openAs = this.o.boundSession(agent.id, s.acpSessionId);
        return openAs ? { ...s, openAs } : s;
      }),
    };
  }

  private agent(agentId: string): AgentDefinition {
    const agent = this.o.catalogue.resolve(agentId);
    if (!agent) throw new AppError('not_found', `No agent named ${agentId}`);
    return agent;
  }
}
