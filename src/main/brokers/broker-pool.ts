import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { AppError } from '../../shared/errors';
import type { BrokersRepo } from '../store/brokers.repo';
import type { Clock } from '../util/clock';
import type { Logger } from '../util/log';
import type { AgentDefinition } from './agent-definition';
import { Broker, type BrokerExit, type SpawnFn } from './broker';
import { isAlive, isSameProcess, processStartTime, signalProcessTree } from './process-info';

export interface HostIdentity {
  pid: number;
  startTime: string | undefined;
}

export interface BrokerPoolOptions {
  repo: BrokersRepo;
  spawn: SpawnFn;
  clock: Clock;
  log: Logger;
  logDir?: string;
  maxSessionsPerBroker: number;
  initTimeoutMs?: number;
  graceMs?: number;
  host?: HostIdentity;
  /** Crashes of one agent within `crashWindowMs` that stop automatic respawning. */
  crashLimit?: number;
  crashWindowMs?: number;
}

export type BrokerCrashListener = (broker: Broker, sessionIds: string[], exit: BrokerExit) => void;

/**
 * Agent processes owned by session ids. Sessions of one agent definition share a broker up
 * to `maxSessionsPerBroker`; the last owner out shuts it down. Ownership lives in SQLite
 * (one transaction per change) and in memory, where the last-owner check is synchronous so
 * concurrent releases tear a broker down exactly once.
 */
export class BrokerPool {
  private readonly brokers = new Map<string, Broker>();
  private readonly owners = new Map<string, Set<string>>();
  private readonly ownerOf = new Map<string, string>();
  private readonly crashes = new Map<string, number[]>();
  private readonly crashListeners = new Set<BrokerCrashListener>();
  private readonly retiring = new Map<string, Promise<void>>();
  private readonly host: HostIdentity;
  private closed = false;
  /** How many brokers were torn down (for tests and logs). */
  teardowns = 0;

  constructor(private readonly opts: BrokerPoolOptions) {
    this.host = opts.host ?? { pid: process.pid, startTime: processStartTime(process.pid) };
  }

  onDidCrash(listener: BrokerCrashListener): () => void {
    this.crashListeners.add(listener);
    return () => this.crashListeners.delete(listener);
  }

  /** The broker this session owns, if it is alive. */
  brokerOf(sessionId: string): Broker | undefined {
    const id = this.ownerOf.get(sessionId);
    const broker = id ? this.brokers.get(id) : undefined;
    return broker?.isAlive ? broker : undefined;
  }

  get liveBrokers(): Broker[] {
    return [...this.brokers.values()].filter((b) => b.isAlive);
  }

  /**
   * Makes `sessionId` an owner of a ready broker for `agent`: a shared one with room, else a
   * new one. A broker that is shutting down is never joined. `retry` clears a crash loop.
   */
  async acquire(sessionId: string, agent: AgentDefinition, options: { retry?: boolean } = {}): Promise<Broker> {
    if (this.closed) throw new AppError('shutting_down', 'Switchboard is shutting down');
    const current = this.brokerOf(sessionId);
    if (current && current.agent.id === agent.id) {
      await current.ready;
      return current;
    }
    if (current) await this.release(sessionId);
    if (options.retry) this.crashes.delete(agent.id);
    this.checkCrashLoop(agent);

    let broker = [...this.brokers.values()].find(
      (b) => b.agent.id === agent.id && b.isAlive && (this.owners.get(b.id)?.size ?? 0) < this.opts.maxSessionsPerBroker,
    );
    if (!broker) broker = this.spawn(agent);
    this.addOwner(broker, sessionId);
    try {
      await broker.ready;
    } catch (err) {
      this.dropOwner(broker, sessionId);
      throw err;
    }
    if (!broker.isAlive) {
      this.dropOwner(broker, sessionId);
      throw broker.exitError();
    }
    return broker;
  }

  /** Removes `sessionId` from its broker's owners; the last owner out shuts the broker down. */
  async release(sessionId: string): Promise<void> {
    const brokerId = this.ownerOf.get(sessionId);
    if (!brokerId) return;
    const broker = this.brokers.get(brokerId);
    const remaining = this.dropOwner(broker, sessionId, brokerId);
    if (remaining === 0 && broker) await this.retire(broker);
  }

  /** Shuts every broker down (host quit). */
  async shutdownAll(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.brokers.values()].map((b) => this.retire(b)));
  }

  /** Last resort at quit: SIGKILL every agent process group still alive. */
  killAll(): void {
    for (const broker of this.brokers.values()) if (broker.pid && broker.status !== 'exited') signalProcessTree(broker.pid, 'SIGKILL');
  }

  /**
   * After a host crash: kills recorded agent processes whose host is gone, verifying pid and
   * start time (a recycled pid is never touched), then clears the records.
   */
  sweepOrphans(): { killed: number; cleared: number } {
    let killed = 0;
    let cleared = 0;
    for (const row of this.opts.repo.all()) {
      const isUs = row.host_pid === this.host.pid && row.host_start_time === (this.host.startTime ?? null);
      if (isUs && this.brokers.has(row.id)) continue;
      const hostRunning = !isUs && isAlive(row.host_pid) && isSameProcess(row.host_pid, row.host_start_time);
      if (hostRunning) continue;
      if (row.pid && isSameProcess(row.pid, row.pid_start_time)) {
        signalProcessTree(row.pid, 'SIGKILL');
        killed++;
        this.opts.log.warn('killed orphaned agent process', { pid: row.pid, agent: row.agent_id });
      }
      this.opts.repo.delete(row.id);
      cleared++;
    }
    return { killed, cleared };
  }

  private spawn(agent: AgentDefinition): Broker {
    const id = randomUUID();
    const broker = new Broker({
      id,
      agent,
      spawn: this.opts.spawn,
      clock: this.opts.clock,
      log: this.opts.log,
      logFile: this.opts.logDir ? join(this.opts.logDir, `agent-${agent.id}-${id.slice(0, 8)}.log`) : undefined,
      initTimeoutMs: this.opts.initTimeoutMs ?? 30_000,
    });
    this.brokers.set(id, broker);
    this.owners.set(id, new Set());
    this.opts.repo.insert({
      id,
      agent_id: agent.id,
      pid: broker.pid ?? null,
      pid_start_time: broker.pidStartTime ?? null,
      host_pid: this.host.pid,
      host_start_time: this.host.startTime ?? null,
      created_at: this.opts.clock.now(),
    });
    void broker.exited.then((exit) => this.onExit(broker, exit));
    return broker;
  }

  private addOwner(broker: Broker, sessionId: string): void {
    this.owners.get(broker.id)?.add(sessionId);
    this.ownerOf.set(sessionId, broker.id);
    this.opts.repo.addOwner(broker.id, sessionId);
  }

  private dropOwner(broker: Broker | undefined, sessionId: string, brokerId = broker?.id): number {
    if (!brokerId) return 0;
    if (this.ownerOf.get(sessionId) === brokerId) this.ownerOf.delete(sessionId);
    const set = this.owners.get(brokerId);
    set?.delete(sessionId);
    this.opts.repo.removeOwner(brokerId, sessionId);
    const remaining = set?.size ?? 0;
    if (remaining === 0 && broker && broker.status === 'starting') void this.retire(broker);
    return remaining;
  }

  /** Shuts a broker down once, however many callers ask at the same moment. */
  private retire(broker: Broker): Promise<void> {
    let retiring = this.retiring.get(broker.id);
    if (!retiring) {
      this.teardowns++;
      retiring = broker.shutdown(this.opts.graceMs).then(() => {
        this.forget(broker);
        this.retiring.delete(broker.id);
      });
      this.retiring.set(broker.id, retiring);
    }
    return retiring;
  }

  private forget(broker: Broker): void {
    if (!this.brokers.delete(broker.id)) return;
    for (const sessionId of this.owners.get(broker.id) ?? []) {
      if (this.ownerOf.get(sessionId) === broker.id) this.ownerOf.delete(sessionId);
    }
    this.owners.delete(broker.id);
    this.opts.repo.delete(broker.id);
  }

  private onExit(broker: Broker, exit: BrokerExit): void {
    const sessionIds = [...(this.owners.get(broker.id) ?? [])];
    this.forget(broker);
    if (exit.expected) return;
    const times = (this.crashes.get(broker.agent.id) ?? []).filter(
      (t) => this.opts.clock.now() - t < (this.opts.crashWindowMs ?? 60_000),
    );
    times.push(this.opts.clock.now());
    this.crashes.set(broker.agent.id, times);
    this.opts.log.warn('agent crashed', { agent: broker.agent.id, code: exit.code, signal: exit.signal, sessions: sessionIds.length });
    for (const listener of this.crashListeners) listener(broker, sessionIds, exit);
  }

  private checkCrashLoop(agent: AgentDefinition): void {
    const window = this.opts.crashWindowMs ?? 60_000;
    const recent = (this.crashes.get(agent.id) ?? []).filter((t) => this.opts.clock.now() - t < window);
    if (recent.length >= (this.opts.crashLimit ?? 3)) {
      throw new AppError(
        'crash_loop',
        `${agent.name} crashed ${recent.length} times in the last ${Math.round(window / 1000)} s; not restarting it automatically`,
      );
    }
  }
}
