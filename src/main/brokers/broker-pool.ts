import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { AgentLogEntryT } from '../../shared/contract';
import { AppError } from '../../shared/errors';
import type { BrokersRepo } from '../store/brokers.repo';
import type { Clock } from '../util/clock';
import { Emitter, type Event } from '../util/event';
import type { Disposable } from '../util/lifecycle';
import type { Logger } from '../util/log';
import { sameLaunch, type AgentDefinition } from './agent-definition';
import type { ProtocolHistory } from './protocol-history';
import { Broker, type BrokerExit, type SpawnFn } from './broker';
import { START_TIME_VERIFIABLE, isAlive, isSameProcess, killMarked, processesMarkedWith, processStartTime, signalGroup, signalProcessTree } from '../util/process-info';
import type { AgentWatch } from './watchdog/watchdog';

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
  /** Told of each agent process from its spawn until its group is gone: the host's watchdog. */
  watch?: AgentWatch;
  /** New agents start with the protocol tap on (the `logProtocol` setting). */
  logProtocol?: boolean;
  /** Crashes of one agent within `crashWindowMs` that stop automatic respawning. */
  crashLimit?: number;
  crashWindowMs?: number;
  /**
   * What an agent inherits of Switchboard's environment, read at each spawn (the secrets kept
   * may have changed): the host's, less other agents' and Switchboard's own secrets.
   */
  inheritedEnv?(agent: AgentDefinition): NodeJS.ProcessEnv;
  /** Every agent's last traffic, for the crash log. */
  history?: ProtocolHistory;
}

/** An agent process died on its own, with the sessions it served. */
export interface BrokerCrash {
  broker: Broker;
  sessionIds: string[];
  exit: BrokerExit;
}
/** New lines of an agent's log, with the sessions it serves right now. */
export interface BrokerLog {
  broker: Broker;
  sessionIds: readonly string[];
  entries: readonly AgentLogEntryT[];
}

/** Where a session's agent log is: its broker while one runs, else the last one's file. */
export interface SessionLogSource {
  broker: Broker | undefined;
  file: string | undefined;
}

/**
 * Agent processes owned by session ids. Sessions of one agent definition share a broker up
 * to `maxSessionsPerBroker`; the last owner out shuts it down. Ownership lives in SQLite
 * (one transaction per change) and in memory, where the last-owner check is synchronous so
 * concurrent releases tear a broker down exactly once.
 */
export class BrokerPool implements Disposable {
  private readonly brokers = new Map<string, Broker>();
  private readonly owners = new Map<string, Set<string>>();
  private readonly ownerOf = new Map<string, string>();
  private readonly crashes = new Map<string, number[]>();
  // One listener's failure (a write refused by a full disk) must not skip the others.
  private readonly didCrash = new Emitter<BrokerCrash>({ onListenerError: (err) => this.opts.log.error('an agent crash listener failed', { error: String(err) }) });
  private readonly didLog = new Emitter<BrokerLog>({ onListenerError: (err) => this.opts.log.error('an agent log listener failed', { error: String(err) }) });
  /** An agent crashed: its sessions end (or are resumed) by their owner's rules. */
  readonly onDidCrash: Event<BrokerCrash> = this.didCrash.event;
  /** New lines in an agent's log (the Agent log panels follow them). */
  readonly onDidLog: Event<BrokerLog> = this.didLog.event;
  /** Each session's most recent agent log file: the Agent log still opens after its agent is gone. */
  private readonly lastLogFile = new Map<string, string>();
  private logProtocol: boolean;
  private readonly retiring = new Map<string, Promise<void>>();
  /** Brokers started by `probe`: never shared, never counted as crashes. */
  private readonly probes = new Set<string>();
  private readonly host: HostIdentity;
  private closed = false;
  private disposed = false;
  /** How many brokers were torn down (for tests and logs). */
  teardowns = 0;

  constructor(private readonly opts: BrokerPoolOptions) {
    this.host = opts.host ?? { pid: process.pid, startTime: processStartTime(process.pid) };
    this.logProtocol = opts.logProtocol ?? false;
  }

  /** Turns the protocol tap of every running agent, and of those started later, on or off. */
  setProtocolLog(on: boolean): void {
    this.logProtocol = on;
    for (const broker of this.brokers.values()) broker.setProtocolLog(on);
  }

  /** The session's agent log: its running broker, or the file its last one wrote. */
  logSource(sessionId: string): SessionLogSource {
    const broker = this.brokerOf(sessionId);
    return { broker, file: broker?.logFeed.file ?? this.lastLogFile.get(sessionId) };
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
    if (current && sameLaunch(current.agent, agent)) {
      await current.ready;
      return current;
    }
    if (current) {
      await this.release(sessionId);
      // Quit may have begun meanwhile: a broker spawned now would outlive the host.
      if (this.closed) throw new AppError('shutting_down', 'Switchboard is shutting down');
    }
    if (options.retry) this.crashes.delete(agent.id);
    this.checkCrashLoop(agent);

    let broker = [...this.brokers.values()].find(
      (b) => sameLaunch(b.agent, agent) && b.isAlive && !this.probes.has(b.id) && (this.owners.get(b.id)?.size ?? 0) < this.opts.maxSessionsPerBroker,
    );
    if (!broker) broker = this.spawn(agent);
    this.addOwner(broker, sessionId);
    try {
      await broker.ready;
      if (!broker.isAlive) throw broker.exitError();
    } catch (err) {
      // A broker that failed to start is shut down (and forgotten) once nobody waits for it.
      if (this.dropOwner(broker, sessionId) === 0) void this.retire(broker, false);
      throw err;
    }
    return broker;
  }

  /**
   * Starts a private broker of `agent` for `use` (the catalogue's `agents:test`): recorded like
   * any other (the start-up sweep and quit kill it), never joined by a session, its exit never
   * counted as a crash, and always torn down once `use` settles.
   */
  async probe<T>(agent: AgentDefinition, use: (broker: Broker) => Promise<T>): Promise<T> {
    if (this.closed) throw new AppError('shutting_down', 'Switchboard is shutting down');
    const broker = this.spawn(agent);
    this.probes.add(broker.id);
    try {
      return await use(broker);
    } finally {
      await this.retire(broker, false);
    }
  }

  /** Removes `sessionId` from its broker's owners; the last owner out shuts the broker down. */
  async release(sessionId: string): Promise<void> {
    const brokerId = this.ownerOf.get(sessionId);
    if (!brokerId) return;
    const broker = this.brokers.get(brokerId);
    const remaining = this.dropOwner(broker, sessionId, brokerId);
    if (remaining === 0 && broker) await this.retire(broker);
  }

  /** Shuts every broker down (host quit), including those still cleaning up after a crash. */
  async shutdownAll(): Promise<void> {
    this.closed = true;
    for (const broker of this.brokers.values()) void this.retire(broker);
    await Promise.all([...this.retiring.values()]);
  }

  /**
   * Last resort at quit, after `shutdownAll` had its budget: SIGKILL every agent process group
   * still alive, and their helpers. No broker is started after. Idempotent.
   */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.closed = true;
    this.killAll();
  }

  /** SIGKILL every agent process group still alive, and their helpers. */
  killAll(): void {
    for (const broker of this.brokers.values()) {
      if (!broker.pid) continue;
      if (broker.status !== 'exited') signalProcessTree(broker.pid, 'SIGKILL');
      else signalGroup(broker.pid, 'SIGKILL');
    }
    killMarked(this.brokers.keys());
  }

  /**
   * After a host crash: kills recorded agent processes whose host is gone, verifying pid and
   * start time (a recycled pid is never touched), then clears the records.
   */
  sweepOrphans(): { killed: number; cleared: number } {
    let killed = 0;
    let cleared = 0;
    const orphans = this.opts.repo.all().filter((row) => {
      const isUs = row.host_pid === this.host.pid && row.host_start_time === (this.host.startTime ?? null);
      if (isUs) return !this.brokers.has(row.id);
      return !(isAlive(row.host_pid) && isSameProcess(row.host_pid, row.host_start_time));
    });
    // Helpers that outlived their agent, or left its group, carry its broker id (Linux).
    const marked = processesMarkedWith(orphans.map((row) => row.id));
    for (const row of orphans) {
      let hit = false;
      // Without a real start time (Windows) a recycled pid can't be told apart: never kill then.
      if (row.pid && START_TIME_VERIFIABLE && isSameProcess(row.pid, row.pid_start_time)) {
        signalProcessTree(row.pid, 'SIGKILL');
        hit = true;
      }
      for (const pid of marked.get(row.id) ?? []) {
        try {
          process.kill(pid, 'SIGKILL');
          hit = true;
        } catch {
          // Gone meanwhile.
        }
      }
      if (hit) {
        killed++;
        this.opts.log.warn('killed orphaned agent processes', { pid: row.pid, agent: row.agent_id });
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
      logProtocol: this.logProtocol,
      ...(this.opts.inheritedEnv ? { inheritedEnv: this.opts.inheritedEnv(agent) } : {}),
      ...(this.opts.history ? { history: this.opts.history } : {}),
    });
    broker.logFeed.onDidLog((entries) => {
      if (!this.didLog.hasListeners) return;
      this.didLog.fire({ broker, sessionIds: [...(this.owners.get(id) ?? [])], entries });
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
    if (broker.pid) {
      // AgentProcess spawns every agent leading its own process group (not on Windows).
      const pgid = process.platform === 'win32' ? null : broker.pid;
      this.opts.watch?.track({ id, pid: broker.pid, startTime: broker.pidStartTime ?? null, pgid });
    }
    // Nothing that goes wrong handling an exit (a full disk, say) may become an unhandled rejection: it would end the host.
    void broker.exited.then((exit) => this.onExit(broker, exit)).catch((err: unknown) => this.opts.log.error('handling an agent exit failed', { broker: id, error: String(err) }));
    return broker;
  }

  private addOwner(broker: Broker, sessionId: string): void {
    this.owners.get(broker.id)?.add(sessionId);
    this.ownerOf.set(sessionId, broker.id);
    if (broker.logFeed.file) this.lastLogFile.set(sessionId, broker.logFeed.file);
    this.opts.repo.addOwner(broker.id, sessionId);
  }

  private dropOwner(broker: Broker | undefined, sessionId: string, brokerId = broker?.id): number {
    if (!brokerId) return 0;
    if (this.ownerOf.get(sessionId) === brokerId) this.ownerOf.delete(sessionId);
    const set = this.owners.get(brokerId);
    set?.delete(sessionId);
    this.opts.repo.removeOwner(brokerId, sessionId);
    return set?.size ?? 0;
  }

  /**
   * Shuts a broker down once, however many callers ask at the same moment, then forgets it.
   * Its record goes last: a host that dies meanwhile still finds it at the next start.
   */
  private retire(broker: Broker, countAsTeardown = true): Promise<void> {
    let retiring = this.retiring.get(broker.id);
    if (!retiring) {
      if (countAsTeardown) this.teardowns++;
      retiring = broker
        .shutdown(this.opts.graceMs)
        .catch((err: unknown) => this.opts.log.error('agent shutdown failed', { broker: broker.id, error: String(err) }))
        .then(() => {
          this.retiring.delete(broker.id);
          try {
            this.forget(broker);
          } catch (err) {
            // The store is closed (quit cut short by its budget): the next start sweeps the record.
            this.opts.log.warn('could not forget an agent', { broker: broker.id, error: String(err) });
          }
        });
      this.retiring.set(broker.id, retiring);
    }
    return retiring;
  }

  private forget(broker: Broker): void {
    if (!this.brokers.delete(broker.id)) return;
    this.probes.delete(broker.id);
    this.dropAllOwners(broker);
    this.owners.delete(broker.id);
    this.opts.watch?.untrack(broker.id);
    this.opts.repo.delete(broker.id);
  }

  private dropAllOwners(broker: Broker): void {
    for (const sessionId of this.owners.get(broker.id) ?? []) {
      if (this.ownerOf.get(sessionId) === broker.id) this.ownerOf.delete(sessionId);
    }
    this.owners.get(broker.id)?.clear();
    try {
      this.opts.repo.removeAllOwners(broker.id);
    } catch (err) {
      // The disk is full or read-only: memory is what routes; the next start clears the rows.
      this.opts.log.warn('could not record that an agent has no owners', { broker: broker.id, error: String(err) });
    }
  }

  private onExit(broker: Broker, exit: BrokerExit): void {
    // An expected exit is retire()'s doing: it forgets the broker once its group is gone.
    if (exit.expected) return;
    // A probe that died is the test's result, not a crash of anyone's session.
    if (this.probes.has(broker.id)) {
      void this.retire(broker, false);
      return;
    }
    const sessionIds = [...(this.owners.get(broker.id) ?? [])];
    // Its sessions own nothing now; a prompt to one of them starts a fresh broker at once.
    this.dropAllOwners(broker);
    if (exit.spawnFailed) {
      // Nothing ran: a wrong command is reported by acquire(), not counted as a crash.
      void this.retire(broker, false);
      return;
    }
    const times = (this.crashes.get(broker.agent.id) ?? []).filter(
      (t) => this.opts.clock.now() - t < (this.opts.crashWindowMs ?? 60_000),
    );
    times.push(this.opts.clock.now());
    this.crashes.set(broker.agent.id, times);
    this.opts.log.warn('agent crashed', { agent: broker.agent.id, code: exit.code, signal: exit.signal, sessions: sessionIds.length });
    // What the agent left in its process group goes too.
    void this.retire(broker, false);
    this.didCrash.fire({ broker, sessionIds, exit });
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
