import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { EventName, EventPayload, SearchProgressT, SessionEventT, SettingsT } from '../../shared/contract';
import type { AgentDefinition } from '../brokers/agent-definition';
import { defaultSpawn, type SpawnFn } from '../brokers/broker';
import { BrokerPool } from '../brokers/broker-pool';
import { Watchdog } from '../brokers/watchdog/watchdog';
import { PermissionGate } from '../permissions/permission-gate';
import { IdleReaper } from '../reaper/idle-reaper';
import { SessionService } from '../sessions/session-service';
import { Watchers } from '../sessions/watchers';
import { EventLog } from '../store/event-log';
import { SearchBackfill } from '../store/search-backfill';
import { Store } from '../store/store';
import { systemClock, type Clock } from '../util/clock';
import { createLogger, type Logger } from '../util/log';
import { TimerQueue } from '../util/timer-queue';
import { AgentCatalogue } from '../catalogue/agent-catalogue';
import { AgentDetector, type DetectionEnv } from '../catalogue/agent-detection';
import { FileSearch } from '../workspace/file-search';
import { AgentLogFollowers } from './agent-log-followers';
import { findTerminal, type TerminalLauncher } from '../catalogue/terminal-launcher';
import type { FolderPicker } from '../workspace/folders';
import { demoAgent } from '../catalogue/demo-agent';
import { loadAgentsFile } from '../catalogue/agents-file';
import { plainBox, SecretStore, type SecretBox } from '../catalogue/secret-box';
import type { ClientHandle, ClientSink, HostPort } from './host-port';
import { DataDirLock } from '../datadir/data-dir-lock';
import { processFigures } from './debug-info';
import { StorageHealth } from '../datadir/storage-health';
import { asStorageError, describeStorageProblem, folderProblemOf, StorageError } from '../store/storage-errors';
import { createDispatcher } from './dispatch';
import { createHandlers } from './handlers/index';
import { dataPaths } from '../datadir/paths';
import { DEFAULT_SETTINGS, normaliseSettings, storedSettings } from '../datadir/settings';

export interface HostOptions {
  /** How a sign-in command opens in a terminal (tests); default: the machine's, desktop app only. */
  terminal?: TerminalLauncher;
  /** The system's folder chooser (the Electron app's dialog); none in a headless host. */
  folderPicker?: FolderPicker;
  /**
   * Opens a desktop window showing a session (`windows:open`); given by the Electron shell, so
   * the host never imports Electron. Without it the command answers `unsupported`.
   */
  openWindow?: (sessionId: string) => void;
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
  /** Seals agents' secret values (Electron's safeStorage); default: the 0600 file alone. */
  secretBox?: SecretBox;
  /** Where agent detection looks (PATH, npm cache); default: this process's environment. */
  detectionEnv?: DetectionEnv;
  /** How long `agents:test` waits for `initialize` (default 30 s). */
  agentTestTimeoutMs?: number;
  requestTimeoutMs?: number;
  graceMs?: number;
  /** How long after Stop a turn waits for the agent to acknowledge (default 10 s). */
  stopGraceMs?: number;
  /** How long quit may take before every agent is killed outright. */
  shutdownBudgetMs?: number;
  /** The watchdog's script (tests); by default the built one, or the source under tsx. */
  watchdogScript?: string;
  /** `host:info` carries the process's memory and active handles (`npm run soak`). */
  debugInfo?: boolean;
}

/** One part's turn at quit; `budgeted` steps share the shutdown budget (see `shutdownSteps`). */
interface ShutdownStep {
  part: string;
  budgeted?: boolean;
  run(): void | Promise<void>;
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
  readonly catalogue: AgentCatalogue;
  readonly agentLogFollowers: AgentLogFollowers;
  readonly storage: StorageHealth;
  readonly searchBackfill: SearchBackfill;
  private readonly clients = new Map<string, ClientSink>();
  private readonly dispatcher;
  private current: SettingsT;
  private shutdownPromise: Promise<void> | undefined;

  private constructor(
    private readonly options: HostOptions & { log: Logger },
    private readonly lock: DataDirLock,
    readonly watchdog: Watchdog,
  ) {
    const paths = dataPaths(options.dataDir);
    const clock = options.clock ?? systemClock;
    this.log = options.log;
    this.store = Store.open(paths.database, options.nativeBinding ? { nativeBinding: options.nativeBinding } : {});
    this.current = { ...DEFAULT_SETTINGS, ...normaliseSettings(storedSettings(this.store.settings.all())), ...normaliseSettings(options.settings ?? {}) };

    const detector = new AgentDetector(options.detectionEnv ?? process.env);
    this.catalogue = new AgentCatalogue({
      repo: this.store.agents,
      secrets: new SecretStore(paths.secrets, options.secretBox ?? plainBox, this.log.child('secrets')),
      builtins: [demoAgent(paths.demoAgent, options.demoAgentArgs), ...(options.agents ?? [])],
      detector,
      clock,
      log: this.log.child('agents'),
      agentsFile: paths.agents,
      isRoot: process.getuid?.() === 0,
      onDidChange: () => this.agentsChanged(),
    });
    this.catalogue.importFile(loadAgentsFile(paths.agents, this.log));

    this.timers = new TimerQueue(clock);
    this.storage = new StorageHealth({
      file: paths.database,
      log: this.log.child('storage'),
      broadcast: (status) => {
        for (const client of this.clients.values()) client.send('host:storage', status);
      },
    });
    this.eventLog = new EventLog(
      this.store.db,
      clock,
      (events) => {
        this.storage.succeeded();
        this.fanOut(events);
      },
      undefined,
      (err, lost) => {
        this.log.error('storing transcript events failed; they are lost', { lost, error: String(err) });
        this.storage.failed(err, lost);
      },
    );
    this.searchBackfill = this.createSearchBackfill(clock);
    this.pool = new BrokerPool({
      repo: this.store.brokers,
      spawn: options.spawn ?? defaultSpawn,
      clock,
      log: this.log.child('brokers'),
      logDir: paths.logs,
      maxSessionsPerBroker: this.current.maxSessionsPerBroker,
      graceMs: options.graceMs ?? 1_500,
      watch: watchdog,
      logProtocol: this.current.logProtocol ?? false,
    });
    const swept = this.pool.sweepOrphans();
    if (swept.cleared) this.log.warn('cleared agent processes left by a previous run', swept);

    this.gate = new PermissionGate({
      repo: this.store.permissions,
      clock,
      timers: this.timers,
      timeoutMs: () => this.current.permissionTimeoutMs,
      watchers: (id) => this.watchers.count(id),
      isOpen: (id) => this.service.isOpen(id),
      record: (id, kind, payload) => this.eventLog.append(id, kind, payload),
      onDidRequest: (view) => this.sendToWatchers(view.sessionId, 'permission:requested', view),
      onDidResolve: (requestId, sessionId) => this.sendToWatchers(sessionId, 'permission:resolved', { requestId, sessionId }),
      onDidChangePending: (id) => this.changed(id),
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
      // Read at every start: an edited agent's next session uses its new definition.
      agent: (id) => this.catalogue.resolve(id),
      storeAgentSecret: (agentId, name, value) => this.catalogue.storeSecret(agentId, name, value),
      onDidChangeSession: (id) => this.changed(id),
      onTerminalOutput: (update) => this.sendToWatchers(update.sessionId, 'terminal:output', update),
      onDidChangeControls: (id, controls) => this.sendToWatchers(id, 'session:controls', { sessionId: id, controls }),
      requestTimeoutMs: options.requestTimeoutMs ?? 120_000,
      closeTimeoutMs: 2_000,
      timers: this.timers,
      stopGraceMs: options.stopGraceMs ?? 10_000,
    });
    const recovered = this.service.recover();
    if (recovered) this.log.info('sessions ended by the previous run marked recovered', { count: recovered });
    this.reaper = this.createReaper(clock);
    this.agentLogFollowers = new AgentLogFollowers({
      pool: this.pool,
      logDir: paths.logs,
      agentOf: (id) => {
        const agentId = this.service.row(id).agent_id;
        return { id: agentId, name: this.catalogue.definitions().find((a) => a.id === agentId)?.name ?? agentId };
      },
      send: (clientId, payload) => this.clients.get(clientId)?.send('agent:log', payload),
    });

    this.dispatcher = createDispatcher(
      createHandlers({
        headless: options.headless,
        // Only the desktop app: a headless host may be on another machine than the person.
        terminal: options.terminal ?? (options.headless ? undefined : findTerminal()),
        folderPicker: options.folderPicker,
        openWindow: options.openWindow,
        store: this.store,
        eventLog: this.eventLog,
        service: this.service,
        gate: this.gate,
        agents: () => this.catalogue.definitions(),
        settings: () => this.current,
        updateSettings: (patch) => this.updateSettings(patch),
        catalogue: this.catalogue,
        detector,
        pool: this.pool,
        clock,
        agentTestTimeoutMs: options.agentTestTimeoutMs ?? 30_000,
        sendTo: (clientId, event, payload) => this.clients.get(clientId)?.send(event, payload),
        agentLogFollowers: this.agentLogFollowers,
        ...(options.debugInfo ? { debugInfo: () => processFigures(this.clients.size) } : {}),
        files: new FileSearch({ clock }),
        searchProgress: () => this.searchBackfill.progress(),
      }),
      // A command that failed on the disk or the file says so, and every window hears it.
      (err) => this.storage.failed(err)?.toWire(),
    );
  }

  /** Opens the data dir (refusing one another host holds) and starts the host. */
  static async start(options: HostOptions): Promise<SessionHost> {
    const paths = dataPaths(options.dataDir);
    try {
      mkdirSync(paths.logs, { recursive: true });
    } catch (err) {
      const problem = folderProblemOf(err);
      if (!problem) throw err;
      throw new StorageError(problem, options.dataDir, describeStorageProblem(problem, options.dataDir, err));
    }
    const lock = DataDirLock.acquire(paths.lock);
    const log = options.log ?? createLogger();
    // Before any agent can start, so it hears of every one (ADR 0012).
    const watchdog = Watchdog.start({ log: log.child('watchdog'), logFile: join(paths.logs, 'watchdog.log'), script: options.watchdogScript });
    try {
      const host = new SessionHost({ ...options, log }, lock, watchdog);
      host.reaper.start();
      // Transcripts stored before search existed are indexed in the background, with progress.
      if (host.searchBackfill.start()) host.log.info('indexing older transcripts for search', host.searchBackfill.progress());
      // Which agents are installed is found in the background: the start never waits on it.
      host.agentsChanged();
      const s = host.current;
      host.log.info(
        host.reaper.enabled
          ? `idle reaper on: idle timeout ${s.idleTimeoutMs} ms, checked every ${s.reapIntervalMs} ms`
          : `idle reaper off: idle timeout ${s.idleTimeoutMs} ms, interval ${s.reapIntervalMs} ms (0 disables)`,
        { reaper: host.reaper.enabled ? 'on' : 'off', idleTimeoutMs: s.idleTimeoutMs, reapIntervalMs: s.reapIntervalMs },
      );
      return await Promise.resolve(host);
    } catch (err) {
      watchdog.dispose();
      lock.dispose();
      // A file that opened but is damaged fails on its first reads (recovery): said the same way.
      throw asStorageError(err, paths.database) ?? err;
    }
  }

  get settings(): SettingsT {
    return this.current;
  }

  connect(sink: ClientSink): ClientHandle {
    const id = randomUUID();
    this.clients.set(id, sink);
    // A window that connects while saving fails learns it at once, not at the next failure.
    if (!this.storage.status.ok) sink.send('host:storage', this.storage.status);
    let disposed = false;
    return {
      id,
      dispose: () => {
        if (disposed) return;
        disposed = true;
        this.clients.delete(id);
        this.agentLogFollowers.dropClient(id);
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

  /**
   * Quit disposes the host's parts in this one order. Each step relies on those after it
   * still being there:
   * 1. the reaper, first: no idle close may start once quit began;
   * 2-4. within the shutdown budget, gracefully: sessions close (running turns cancelled and
   *    recorded, agents told `session/close`), what is still pending is answered `cancelled`
   *    (an agent waiting for an answer would not stop), then every agent goes through its
   *    shutdown ladder;
   * 5-8. then, whether or not the budget was enough: permissions answered again (over budget,
   *    step 3 may not have run, and nothing may settle later against a closed store), every
   *    agent group killed, the watchdog let go (it kills what is still recorded, and exits),
   *    sessions still stored as live recorded ENDED;
   * 9-12. the timers (nothing fires any more), the event log (its last batch is written, which
   *    needs the store), the store, and last the data-dir lock, so no second host opens the
   *    store before it is closed.
   */
  private shutdownSteps(): ShutdownStep[] {
    const reason = 'host_shutdown';
    return [
      { part: 'reaper', run: () => this.reaper.dispose() },
      { part: 'agent logs', run: () => this.agentLogFollowers.dispose() },
      { part: 'sessions', budgeted: true, run: () => this.service.closeAll(reason) },
      { part: 'permissions', budgeted: true, run: () => this.gate.dispose() },
      { part: 'agents', budgeted: true, run: () => this.pool.shutdownAll() },
      { part: 'permissions', run: () => this.gate.dispose() },
      { part: 'agents', run: () => this.pool.dispose() },
      { part: 'watchdog', run: () => this.watchdog.dispose() },
      { part: 'sessions', run: () => this.service.endAllStored(reason) },
      { part: 'search index', run: () => this.searchBackfill.dispose() },
      { part: 'timers', run: () => this.timers.dispose() },
      { part: 'event log', run: () => this.eventLog.dispose() },
      { part: 'store', run: () => this.store.dispose() },
      { part: 'lock', run: () => this.lock.dispose() },
    ];
  }

  private async doShutdown(): Promise<void> {
    const steps = this.shutdownSteps();
    let failure: unknown;
    for (let i = 0; i < steps.length; ) {
      const budgeted: ShutdownStep[] = [];
      while (steps[i]?.budgeted) budgeted.push(steps[i++]!);
      if (budgeted.length) {
        await this.withinBudget(budgeted);
        continue;
      }
      const step = steps[i++]!;
      try {
        // Steps after the budget are synchronous: nothing still running in the background
        // (a close cut short) gets in between them.
        const done = step.run();
        if (done) await done;
      } catch (err) {
        // The rest still runs: the store must close and the lock be released whatever failed.
        this.log.error('shutdown step failed', { part: step.part, error: String(err) });
        failure ??= err;
      }
    }
    if (failure !== undefined) throw failure;
  }

  /** Runs `steps` in order until one fails or the shutdown budget is spent; never throws. */
  private async withinBudget(steps: readonly ShutdownStep[]): Promise<void> {
    const work = (async () => {
      for (const step of steps) await step.run();
    })().catch((err: unknown) => this.log.error('shutdown step failed', { error: String(err) }));
    let timer: NodeJS.Timeout | undefined;
    const overBudget = new Promise<void>((r) => {
      timer = setTimeout(r, this.options.shutdownBudgetMs ?? 4_000);
      timer.unref();
    });
    await Promise.race([work, overBudget]);
    clearTimeout(timer);
  }

  private updateSettings(patch: Partial<SettingsT>): SettingsT {
    const clean = normaliseSettings(patch);
    for (const [key, value] of Object.entries(clean)) this.store.settings.set(key, value);
    this.current = { ...this.current, ...clean };
    for (const client of this.clients.values()) client.send('settings:changed', this.current);
    if (clean.logProtocol !== undefined) this.pool.setProtocolLog(clean.logProtocol);
    // Never after quit began: no reaper tick may run once shutdown starts.
    if (('idleTimeoutMs' in clean || 'reapIntervalMs' in clean) && !this.shutdownPromise) {
      this.reaper.dispose();
      this.reaper = this.createReaper(this.options.clock ?? systemClock);
      this.reaper.start();
    }
    return this.current;
  }

  /**
   * The background indexing of older transcripts. Windows hear of its progress at most every
   * 250 ms (and when it is done), the log every tenth of the way.
   */
  private createSearchBackfill(clock: Clock): SearchBackfill {
    let lastSent = -Infinity;
    let lastLoggedTenth = 0;
    return new SearchBackfill({
      db: this.store.db,
      index: this.eventLog.search,
      schedule: (fn) => setImmediate(fn),
      onProgress: (progress: SearchProgressT) => {
        if (this.shutdownPromise) return;
        const tenth = progress.total === 0 ? 10 : Math.floor((progress.indexed / progress.total) * 10);
        if (progress.done) this.log.info('older transcripts indexed for search', { events: progress.total });
        else if (tenth > lastLoggedTenth) this.log.info('indexing older transcripts for search', progress);
        lastLoggedTenth = Math.max(lastLoggedTenth, tenth);
        const now = clock.now();
        if (!progress.done && now - lastSent < 250) return;
        lastSent = now;
        for (const client of this.clients.values()) client.send('search:progress', progress);
      },
    });
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

  /** The catalogue changed, or its availability is known: every window gets the new list. */
  private agentsChanged(): void {
    this.catalogue.list().then(
      (list) => {
        if (this.shutdownPromise) return;
        for (const client of this.clients.values()) client.send('agents:changed', list);
      },
      (err: unknown) => this.log.warn('listing agents failed', { error: String(err) }),
    );
  }

  private changed(sessionId: string): void {
    if (this.clients.size === 0) return;
    const row = this.store.sessions.get(sessionId);
    if (!row) {
      // Gone from the store: it was deleted.
      for (const client of this.clients.values()) client.send('session:deleted', { sessionId });
      return;
    }
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
