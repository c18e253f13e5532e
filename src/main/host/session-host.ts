import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import type { EventName, EventPayload, SessionEventT, SettingsT, StateReason } from '../../shared/contract';
import type { AgentDefinition } from '../brokers/agent-definition';
import { defaultSpawn, type SpawnFn } from '../brokers/broker';
import { BrokerPool } from '../brokers/broker-pool';
import { PermissionGate } from '../permissions/permission-gate';
import { IdleReaper } from '../reaper/idle-reaper';
import { SessionService } from '../sessions/session-service';
import { LIVE_STATES, ROUTABLE, transition } from '../sessions/state-machine';
import { Watchers } from '../sessions/watchers';
import { EventLog } from '../store/event-log';
import { Store } from '../store/store';
import { createDispatcher } from '../transport/dispatch';
import { systemClock, type Clock } from '../util/clock';
import { createLogger, type Logger } from '../util/log';
import { TimerQueue } from '../util/timer-queue';
import { demoAgent, loadAgentsFile } from './agents';
import type { ClientHandle, ClientSink, HostPort } from './client';
import { DataDirLock } from './data-dir-lock';
import { createHandlers } from './handlers';
import { dataPaths } from './paths';
import { DEFAULT_SETTINGS, normaliseSettings } from './settings';

export interface HostOptions {
  dataDir: string;
  headless: boolean;
  /** better-sqlite3 `.node` built for this runtime's ABI (the Electron app's own build). */
  nativeBinding?: string;
  /** Values for this run (command-line options); they override stored settings without replacing them. */
  settings?: Partial<SettingsT>;
  log?: Logger;
  clock?: Clock;
  spawn?: SpawnFn;
  /** Agents besides the demo agent and agents.json (tests). */
  agents?: AgentDefinition[];
  /** Extra arguments for the demo agent process (tests). */
  demoAgentArgs?: string[];
  requestTimeoutMs?: number;
  graceMs?: number;
  /** How long after Stop a turn waits for the agent to acknowledge (default 10 s). */
  stopGraceMs?: number;
  /** How long quit may take before every agent is killed outright. */
  shutdownBudgetMs?: number;
}

/**
 * The session host: composition root of the store, brokers, sessions, permission gate and
 * reaper. It knows nothing of Electron; transports connect windows to it through `HostPort`.
 */
export class SessionHost implements HostPort {
  readonly store: Store;
  readonly eventLog: EventLog;
  readonly pool: BrokerPool;
  readonly gate: PermissionGate;
  readonly watchers = new Watchers();
  readonly service: SessionService;
  reaper: IdleReaper;
  readonly timers: TimerQueue;
  readonly log: Logger;
  readonly agentsFileError: string | undefined;
  private readonly clients = new Map<string, ClientSink>();
  private readonly dispatcher;
  private current: SettingsT;
  private readonly agentList: AgentDefinition[];
  private shutdownPromise: Promise<void> | undefined;

  private constructor(
    private readonly options: HostOptions,
    private readonly lock: DataDirLock,
  ) {
    const paths = dataPaths(options.dataDir);
    const clock = options.clock ?? systemClock;
    this.log = options.log ?? createLogger();
    this.store = Store.open(paths.database, options.nativeBinding ? { nativeBinding: options.nativeBinding } : {});
    this.current = { ...DEFAULT_SETTINGS, ...normaliseSettings(this.store.settings.all() as Partial<SettingsT>), ...normaliseSettings(options.settings ?? {}) };

    const file = loadAgentsFile(paths.agents, this.log);
    this.agentsFileError = file.error;
    this.agentList = [demoAgent(paths.demoAgent, options.demoAgentArgs), ...(options.agents ?? []), ...file.agents];

    this.timers = new TimerQueue(clock);
    this.eventLog = new EventLog(
      this.store.db,
      clock,
      (events) => this.fanOut(events),
      undefined,
      (err, lost) => this.log.error('storing transcript events failed; they are lost', { lost, error: String(err) }),
    );
    this.pool = new BrokerPool({
      repo: this.store.brokers,
      spawn: options.spawn ?? defaultSpawn,
      clock,
      log: this.log.child('brokers'),
      logDir: paths.logs,
      maxSessionsPerBroker: this.current.maxSessionsPerBroker,
      graceMs: options.graceMs ?? 1_500,
    });
    const swept = this.pool.sweepOrphans();
    if (swept.cleared) this.log.warn('cleared agent processes left by a previous run', swept);

    this.gate = new PermissionGate({
      repo: this.store.permissions,
      clock,
      timers: this.timers,
      timeoutMs: () => this.current.permissionTimeoutMs,
      watchers: (id) => this.watchers.count(id),
      isOpen: (id) => {
        const state = this.store.sessions.get(id)?.state;
        return state !== undefined && ROUTABLE.includes(state) && !this.service.isClosing(id);
      },
      record: (id, kind, payload) => this.eventLog.append(id, kind, payload),
      onRequested: (view) => this.sendToWatchers(view.sessionId, 'permission:requested', view),
      onResolved: (requestId, sessionId) => this.sendToWatchers(sessionId, 'permission:resolved', { requestId, sessionId }),
      onPendingChanged: (id) => this.changed(id),
      clientLabel: (id) => this.clients.get(id)?.label ?? 'a window',
    });
    this.service = new SessionService({
      store: this.store,
      log: this.eventLog,
      pool: this.pool,
      gate: this.gate,
      watchers: this.watchers,
      clock,
      logger: this.log.child('sessions'),
      agent: (id) => this.agentList.find((a) => a.id === id),
      changed: (id) => this.changed(id),
      requestTimeoutMs: options.requestTimeoutMs ?? 120_000,
      closeTimeoutMs: 2_000,
      timers: this.timers,
      stopGraceMs: options.stopGraceMs ?? 10_000,
    });
    const recovered = this.service.recover();
    if (recovered) this.log.info('sessions ended by the previous run marked recovered', { count: recovered });
    this.reaper = this.createReaper(clock);

    this.dispatcher = createDispatcher(
      createHandlers({
        headless: options.headless,
        store: this.store,
        eventLog: this.eventLog,
        service: this.service,
        gate: this.gate,
        agents: () => this.agentList,
        settings: () => this.current,
        updateSettings: (patch) => this.updateSettings(patch),
      }),
    );
  }

  /** Opens the data dir (refusing one another host holds) and starts the host. */
  static async start(options: HostOptions): Promise<SessionHost> {
    const paths = dataPaths(options.dataDir);
    mkdirSync(paths.logs, { recursive: true });
    const lock = DataDirLock.acquire(paths.lock);
    try {
      const host = new SessionHost(options, lock);
      host.reaper.start();
      const s = host.current;
      host.log.info(
        host.reaper.enabled
          ? `idle reaper on: idle timeout ${s.idleTimeoutMs} ms, checked every ${s.reapIntervalMs} ms`
          : `idle reaper off: idle timeout ${s.idleTimeoutMs} ms, interval ${s.reapIntervalMs} ms (0 disables)`,
        { reaper: host.reaper.enabled ? 'on' : 'off', idleTimeoutMs: s.idleTimeoutMs, reapIntervalMs: s.reapIntervalMs },
      );
      return await Promise.resolve(host);
    } catch (err) {
      lock.release();
      throw err;
    }
  }

  get settings(): SettingsT {
    return this.current;
  }

  connect(sink: ClientSink): ClientHandle {
    const id = randomUUID();
    this.clients.set(id, sink);
    let disposed = false;
    return {
      id,
      dispose: () => {
        if (disposed) return;
        disposed = true;
        this.clients.delete(id);
        // After quit began the sessions are ending anyway (and the store may be closed).
        if (this.shutdownPromise) return;
        for (const sessionId of [...this.watchers.sessionsOf(id)]) this.service.unwatch(id, sessionId);
      },
    };
  }

  dispatch(clientId: string, command: string, payload: unknown) {
    if (!this.clients.has(clientId)) {
      return Promise.resolve({ ok: false as const, error: { code: 'unauthorized' as const, message: 'Unknown window' } });
    }
    return this.dispatcher(clientId, command, payload);
  }

  /**
   * Quit: running turns are cancelled (partial output kept), sessions end with
   * `host_shutdown`, every agent process is shut down; bounded by the shutdown budget.
   */
  shutdown(): Promise<void> {
    this.shutdownPromise ??= this.doShutdown();
    return this.shutdownPromise;
  }

  private async doShutdown(): Promise<void> {
    this.reaper.stop();
    const budget = this.options.shutdownBudgetMs ?? 4_000;
    const work = (async () => {
      await this.service.closeAll('host_shutdown');
      this.gate.cancelAll('host_shutdown');
      await this.pool.shutdownAll();
    })().catch((err: unknown) => this.log.error('shutdown step failed', { error: String(err) }));
    let timer: NodeJS.Timeout | undefined;
    const overBudget = new Promise<void>((r) => {
      timer = setTimeout(r, budget);
      timer.unref();
    });
    await Promise.race([work, overBudget]);
    clearTimeout(timer);
    // Over budget, the work above may not have reached it: nothing may stay pending (and settle
    // later, against a closed store) once the agents are killed.
    this.gate.cancelAll('host_shutdown');
    this.pool.killAll();
    this.endLiveSessions('host_shutdown');
    this.timers.stop();
    try {
      this.eventLog.close();
    } finally {
      this.store.close();
      this.lock.release();
    }
  }

  /**
   * Over budget, closes are cut short: the stored states still say why the sessions ended
   * (else the next start would call them `recovered`).
   */
  private endLiveSessions(reason: StateReason): void {
    const now = (this.options.clock ?? systemClock).now();
    for (const row of this.store.sessions.inStates(LIVE_STATES)) {
      try {
        if (row.state !== 'CLOSING' && row.state !== 'CREATED') transition(this.store.sessions, row.id, 'CLOSING', reason, now);
        transition(this.store.sessions, row.id, 'ENDED', reason, now);
      } catch (err) {
        this.log.warn('could not end a session at quit', { session: row.id, error: String(err) });
      }
    }
  }

  private updateSettings(patch: Partial<SettingsT>): SettingsT {
    const clean = normaliseSettings(patch);
    for (const [key, value] of Object.entries(clean)) this.store.settings.set(key, value);
    this.current = { ...this.current, ...clean };
    // Never after quit began: no reaper tick may run once shutdown starts.
    if (('idleTimeoutMs' in clean || 'reapIntervalMs' in clean) && !this.shutdownPromise) {
      this.reaper.stop();
      this.reaper = this.createReaper(this.options.clock ?? systemClock);
      this.reaper.start();
    }
    return this.current;
  }

  private createReaper(clock: Clock): IdleReaper {
    return new IdleReaper({
      clock,
      timers: this.timers,
      log: this.log.child('reaper'),
      idleTimeoutMs: this.current.idleTimeoutMs,
      intervalMs: this.current.reapIntervalMs,
      candidates: (cutoff) => this.store.sessions.idleDetached(cutoff),
      inspect: (id) => {
        const row = this.store.sessions.get(id);
        return (
          row && {
            state: row.state,
            lastActivityAt: row.last_activity_at,
            detachedAt: row.detached_at ?? undefined,
            watchers: this.watchers.count(id),
            turnInFlight: this.service.isBusy(id),
            pendingPermissions: this.gate.countFor(id),
          }
        );
      },
      isClosing: (id) => this.service.isClosing(id),
      close: (id, precondition) => this.service.close(id, 'idle_timeout', { precondition }),
      forceEnd: (id) => this.service.forceEnd(id, 'idle_timeout'),
    });
  }

  private changed(sessionId: string): void {
    if (this.clients.size === 0) return;
    const row = this.store.sessions.get(sessionId);
    if (!row) return;
    const view = this.service.view(row);
    for (const client of this.clients.values()) client.send('session:updated', view);
  }

  private fanOut(events: readonly SessionEventT[]): void {
    for (const event of events) this.sendToWatchers(event.sessionId, 'session:event', event);
  }

  private sendToWatchers<E extends EventName>(sessionId: string, event: E, payload: EventPayload<E>): void {
    for (const clientId of this.watchers.clientsOf(sessionId)) this.clients.get(clientId)?.send(event, payload);
  }
}
