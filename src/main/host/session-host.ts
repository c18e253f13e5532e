import { existsSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { EventKind, HostInfoT, PayloadOf, SettingsT } from '../../shared/contract';
import { AppError } from '../../shared/errors';
import { VERSION } from '../../shared/version';
import type { AgentDefinition } from '../brokers/agent-definition';
import { agentEnvironment, OWN_SECRET_NAMES } from '../brokers/agent-environment';
import { ProtocolHistory } from '../brokers/protocol-history';
import { defaultSpawn, type SpawnFn } from '../brokers/broker';
import { BrokerPool } from '../brokers/broker-pool';
import { Watchdog } from '../brokers/watchdog/watchdog';
import { AgentCatalogue } from '../catalogue/agent-catalogue';
import { AgentDetector, type DetectionEnv } from '../catalogue/agent-detection';
import { AgentProbes } from '../catalogue/agent-probes';
import { loadAgentsFile } from '../catalogue/agents-file';
import { demoAgent } from '../catalogue/demo-agent';
import { plainBox, SecretStore, type SecretBox } from '../catalogue/secret-box';
import { findTerminal, type TerminalLauncher } from '../catalogue/terminal-launcher';
import type { RecoveryOffer } from '../datadir/backup-recovery';
import { McpServerCatalogue } from '../catalogue/mcp/mcp-servers';
import { McpSettings } from '../catalogue/mcp/mcp-settings';
import { AcpRegistry } from '../catalogue/registry/acp-registry';
import type { RegistrySnapshotT } from '../../shared/registry';
import { DataDirLock } from '../datadir/data-dir-lock';
import { LiveSettings } from '../datadir/live-settings';
import { offerRecovery, openDataStore, type OpenDataStoreOptions } from '../datadir/open-data-store';
import { dataPaths } from '../datadir/paths';
import { DEFAULT_BACKUPS_KEPT } from '../datadir/settings';
import { StorageCare } from '../datadir/storage-care';
import { WalCheckpoints } from '../datadir/wal-checkpoints';
import { WriteGate } from '../store/write-gate';
import { SearchMerges } from '../store/search-merges';
import { SearchTails } from '../store/search-tails';
import { StorageHealth } from '../datadir/storage-health';
import { PermissionGate } from '../permissions/permission-gate';
import { QuestionGate } from '../permissions/question-gate';
import { IdleReaper } from '../reaper/idle-reaper';
import { WAKE_WINDOW_MS } from '../sessions/session-context';
import { SessionService } from '../sessions/session-service';
import { Watchers } from '../sessions/watchers';
import { EventLog, HOST_WRITE_SLICE } from '../store/event-log';
import { SearchBackfill } from '../store/search-backfill';
import { asStorageError, describeStorageProblem, folderProblemOf, StorageError } from '../store/storage-errors';
import type { Store } from '../store/store';
import { systemClock, type Clock } from '../util/clock';
import { DisposableStore } from '../util/event';
import type { Disposable } from '../util/lifecycle';
import { SuspendWatch } from '../util/suspend-watch';
import { createLogger, type Logger } from '../util/log';
import { TimerQueue } from '../util/timer-queue';
import { FileSearch } from '../workspace/file-search';
import { requireFolder, type FolderPicker } from '../workspace/folders';
import { Git, isGitError } from '../workspace/git';
import { WorkspaceService } from '../workspace/workspace-service';
import { AgentLogFollowers } from './agent-log-followers';
import { CrashReporter } from './crash-reporter';
import { Clients } from './clients';
import { processFigures } from './debug-info';
import { createDispatcher } from './dispatch';
import { createHandlers } from './handlers';
import type { ClientHandle, ClientSink, HostPort } from './host-port';
import { searchProgressReporter } from './search-progress';
import { SessionViewPush } from './view-push';

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
  /**
   * Opens a page in the system browser (the Electron shell's `shell.openExternal`): the page of a
   * URL question the person accepted. Without it the window opens the page itself.
   */
  openExternal?: (url: string) => void;
  /**
   * `Export…` through the system's save dialog (the desktop app): resolves with where the file
   * was written, or undefined when the person cancelled. Without it the window downloads the export.
   */
  saveFile?: (suggestedName: string, text: string) => Promise<string | undefined>;
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
  /** The registry copy bundled with the app (tests give their own). */
  registrySnapshot?: RegistrySnapshotT;
  /**
   * Refresh the registry index in the background after start (default: the desktop app only; a
   * headless host uses its cache or the bundled copy until a window asks for a refresh).
   */
  refreshRegistry?: boolean;
  /** Where Import looks for other tools' MCP servers (tests); default the person's home and this OS. */
  mcpImportHome?: string;
  /** How long an MCP server's Test waits (default 20 s). */
  mcpTestTimeoutMs?: number;
  /** The environment `git` runs with (tests: a sandbox HOME and config); default this process's. */
  gitEnv?: NodeJS.ProcessEnv;
  /** The environment repositories' setup commands run with; default this process's. */
  setupEnv?: NodeJS.ProcessEnv;
  /**
   * The person's answer to the offer for a database too damaged to open (the newest good
   * backup, what going back loses): true puts the backup in place, the damaged file kept aside.
   * `serve --recover` answers yes; the desktop app asks in a dialog. Absent: the start is refused.
   */
  recover?(offer: RecoveryOffer): Promise<boolean>;
  /** `serve --recover`: the whole file is checked before it opens, and a damaged one replaced by its newest good backup. */
  recoverIfDamaged?: boolean;
  /** A damaged database found by the check that runs beside the start (the desktop app offers a restart that restores). */
  onDamaged?(offer: RecoveryOffer): void;
  /** Quits and starts the app again (`host:restart`, e.g. to compact now); the desktop app's. */
  restart?(): void;
  /**
   * The system's sleep and wake (Electron's `powerMonitor`); without it (`serve`) a sleep is seen
   * as the wall clock jumping past the monotonic one, on the host's timer.
   */
  power?: PowerEvents;
  /**
   * Secrets Switchboard itself holds (the `serve` token): no agent inherits a variable with
   * one of these values, whatever its name.
   */
  ownSecrets?: readonly string[];
  /** What agents inherit before it is filtered (tests); default: this process's environment. */
  inheritedEnv?: NodeJS.ProcessEnv;
  /** How a backup's copy is made (tests stop or fail one); default: in a worker thread. */
  backupCopy?: ConstructorParameters<typeof StorageCare>[0]['copy'];
}

/** The system's power events, as the shell gives them (Electron's `powerMonitor`). */
export interface PowerEvents {
  onSuspend(listener: () => void): Disposable;
  onResume(listener: () => void): Disposable;
}

/** How often the host compares its clocks for a sleep when nothing else is due. */
export const SLEEP_CHECK_INTERVAL_MS = 15_000;

/** One part's turn at quit; `budgeted` steps share the shutdown budget (see `shutdownSteps`). */
interface ShutdownStep {
  part: string;
  budgeted?: boolean;
  run(): void | Promise<void>;
}

/**
 * The session host: composition root of the store, brokers, sessions, permission gate and
 * reaper. It knows nothing of Electron; transports connect windows to it through `HostPort`.
 * Its parts announce their changes (`onDid…`); the host subscribes once, here, and tells the
 * windows: no part is told to tell anyone.
 */
export class SessionHost implements HostPort {
  readonly store: Store;
  readonly eventLog: EventLog;
  readonly pool: BrokerPool;
  readonly gate: PermissionGate;
  readonly questions: QuestionGate;
  readonly watchers = new Watchers();
  readonly service: SessionService;
  reaper: IdleReaper;
  readonly timers: TimerQueue;
  /** Sleeps of the computer: deadlines and idle times count only the time awake. */
  readonly suspend: SuspendWatch;
  /** Uncaught errors: logged with the agents' last traffic, told to the windows (`catchUncaught`). */
  readonly crashes: CrashReporter;
  readonly log: Logger;
  readonly catalogue: AgentCatalogue;
  readonly agentLogFollowers: AgentLogFollowers;
  readonly storage: StorageHealth;
  /** WAL checkpoints in a worker thread, so none runs inside a commit on this loop. */
  private readonly checkpoints: WalCheckpoints;
  /** Where the background writers (event log, search merges and backfill) wait while a checkpoint catches up. */
  private readonly writeGate = new WriteGate();
  /** The search index's merges, a step per turn, so none runs inside a commit (ADR 0030). */
  private readonly searchMerges: SearchMerges;
  private readonly searchTails: SearchTails;
  readonly searchBackfill: SearchBackfill;
  readonly liveSettings: LiveSettings;
  /** The person's MCP servers: Settings, Test, Import, and what each session is given. */
  readonly mcp: McpSettings;
  readonly mcpServers: McpServerCatalogue;
  /** The ACP registry: its index and the agents added from it. */
  readonly registry: AcpRegistry;
  readonly workspace: WorkspaceService;
  /** Settles once the start-up check of the sessions' worktrees is done (it runs in the background). */
  reconciled: Promise<void> = Promise.resolve();
  /** The start-up check, backups, and Settings → Storage. */
  readonly storageCare: StorageCare;
  private readonly clients = new Clients(this.watchers);
  private readonly viewPush: SessionViewPush;
  /** The host's own subscriptions to its parts' events, let go at quit. */
  private readonly subscriptions = new DisposableStore();
  private readonly dispatcher;
  private shutdownPromise: Promise<void> | undefined;

  private constructor(
    private readonly options: HostOptions & { log: Logger },
    private readonly lock: DataDirLock,
    readonly watchdog: Watchdog,
    store: Store,
  ) {
    const paths = dataPaths(options.dataDir);
    const clock = options.clock ?? systemClock;
    this.log = options.log;
    this.store = store;
    this.liveSettings = new LiveSettings(this.store.settings, options.settings ?? {}, (patch) => this.checkSettings(patch));

    const detector = new AgentDetector(options.detectionEnv ?? process.env);
    const secrets = new SecretStore(paths.secrets, options.secretBox ?? plainBox, this.log.child('secrets'));
    const builtins = [demoAgent(paths.demoAgent, options.demoAgentArgs), ...(options.agents ?? [])];
    this.registry = new AcpRegistry({
      dataDir: options.dataDir,
      // Read at each fetch: a changed address is used from the next refresh on.
      url: () => this.settings.registryUrl ?? '',
      agents: this.store.agents,
      registry: this.store.registry,
      clock,
      log: this.log.child('registry'),
      isReserved: (id) => builtins.some((a) => a.id === id),
      ...(options.detectionEnv ? { env: options.detectionEnv } : {}),
      ...(options.registrySnapshot ? { snapshot: options.registrySnapshot } : {}),
    });
    this.catalogue = new AgentCatalogue({
      repo: this.store.agents,
      secrets,
      builtins,
      registryInfo: (id) => this.registry.info(id),
      detector,
      clock,
      log: this.log.child('agents'),
      agentsFile: paths.agents,
      isRoot: process.getuid?.() === 0,
    });
    this.catalogue.importFile(loadAgentsFile(paths.agents, this.log));
    this.mcpServers = new McpServerCatalogue({ repo: this.store.mcpServers, secrets, clock, log: this.log.child('mcp') });
    this.mcp = new McpSettings({
      servers: this.mcpServers,
      agentExists: (id) => this.catalogue.has(id),
      importPlaces: () => ({
        home: options.mcpImportHome ?? homedir(),
        platform: process.platform,
        env: options.mcpImportHome ? {} : { APPDATA: process.env.APPDATA, XDG_CONFIG_HOME: process.env.XDG_CONFIG_HOME },
        projects: this.store.folders.recent(),
      }),
      testCwd: () => (existsSync(this.settings.defaultCwd) ? this.settings.defaultCwd : undefined),
      clock,
      log: this.log.child('mcp'),
      ...(options.mcpTestTimeoutMs === undefined ? {} : { testTimeoutMs: options.mcpTestTimeoutMs }),
    });

    this.suspend = new SuspendWatch(clock);
    this.timers = new TimerQueue(clock, this.suspend);
    const history = new ProtocolHistory(clock);
    this.crashes = new CrashReporter({
      logs: paths.logs,
      clock,
      log: this.log.child('crash'),
      history,
      secrets: () => [...this.catalogue.secretValues(), ...(options.ownSecrets ?? [])],
      broadcast: (problem) => this.clients.broadcast('host:problem', problem),
    });
    this.storage = new StorageHealth({
      file: paths.database,
      log: this.log.child('storage'),
      broadcast: (status) => this.clients.broadcast('host:storage', status),
    });
    this.checkpoints = new WalCheckpoints({
      db: this.store.db,
      file: paths.database,
      log: this.log.child('storage'),
      ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}),
      // A steady stream never lets the WAL start over unless its writes wait for one checkpoint.
      writes: this.writeGate,
    });
    this.eventLog = new EventLog(
      this.store.db,
      clock,
      (events) => {
        this.checkpoints.noteWrite();
        this.searchMerges.noteWrite();
        this.searchTails.noteWrite();
        this.storage.succeeded();
        for (const event of events) this.clients.toWatchers(event.sessionId, 'session:event', event);
      },
      this.writeGate.schedule(),
      (err, lost) => {
        this.log.error('storing transcript events failed; they are lost', { lost, error: String(err) });
        this.storage.failed(err, lost);
      },
      HOST_WRITE_SLICE,
    );
    this.searchMerges = new SearchMerges(
      this.store.db,
      this.writeGate.schedule(),
      (err) => this.log.warn('merging the search index failed; it goes on unmerged', { error: String(err) }),
      () => this.eventLog.search.rowsWritten,
    );
    this.searchTails = new SearchTails({
      index: this.eventLog.search,
      timers: this.timers,
      clock,
      schedule: this.writeGate.schedule(),
      onIndexed: () => this.searchMerges.noteWrite(),
      onError: (err) => this.log.warn('indexing the newest chunks for search failed; a search or the end of their message indexes them', { error: String(err) }),
    });
    const reportProgress = searchProgressReporter({ clock, log: this.log, push: (progress) => this.clients.broadcast('search:progress', progress) });
    this.searchBackfill = new SearchBackfill({
      db: this.store.db,
      index: this.eventLog.search,
      // Each batch waits for the merges of the ones before it (`SearchMerges.whenMerged`).
      schedule: (fn) => this.searchMerges.whenMerged(fn),
      onProgress: (progress) => {
        this.searchMerges.noteWrite();
        if (!this.shutdownPromise) reportProgress(progress);
      },
    });
    this.pool = new BrokerPool({
      repo: this.store.brokers,
      spawn: options.spawn ?? defaultSpawn,
      clock,
      log: this.log.child('brokers'),
      logDir: paths.logs,
      maxSessionsPerBroker: this.settings.maxSessionsPerBroker,
      graceMs: options.graceMs ?? 1_500,
      watch: watchdog,
      logProtocol: this.settings.logProtocol ?? false,
      inheritedEnv: (agent) => this.inheritedEnv(agent.id),
      history,
    });
    const swept = this.pool.sweepOrphans();
    if (swept.cleared) this.log.warn('cleared agent processes left by a previous run', swept);

    // Permission requests and questions hold the agent up alike: same deadline, same windows, same transcript.
    const waitingOnPerson = {
      clock,
      timers: this.timers,
      timeoutMs: () => this.settings.permissionTimeoutMs,
      watchers: (id: string) => this.watchers.count(id),
      isOpen: (id: string) => this.service.isOpen(id),
      record: <K extends EventKind>(id: string, kind: K, payload: PayloadOf<K>) => void this.eventLog.append(id, kind, payload),
      clientLabel: (id: string) => this.clients.label(id),
      // Deadlines of permissions and questions alike count only the time awake.
      suspend: this.suspend,
    };
    this.gate = new PermissionGate({ ...waitingOnPerson, repo: this.store.permissions });
    this.questions = new QuestionGate({ ...waitingOnPerson, repo: this.store.questions });
    // Only the desktop app opens a terminal: a headless host may be on another machine than the person.
    const terminal = options.terminal ?? (options.headless ? undefined : findTerminal());
    this.workspace = new WorkspaceService({
      store: this.store,
      log: this.eventLog,
      git: new Git({ ...(options.gitEnv ? { env: options.gitEnv } : {}), logger: this.log.child('git') }),
      clock,
      timers: this.timers,
      logger: this.log.child('workspace'),
      worktreeRoot: () => this.settings.worktreeRoot ?? paths.worktrees,
      scratchDir: paths.workspace,
      // The workspace never imports sessions: it asks through these (the service exists by the time they are called).
      sessions: { isLive: (id) => this.service.registry.has(id), isRunning: (id) => this.service.isRunning(id) },
      watch: watchdog,
      ...(options.setupEnv ? { setupEnv: options.setupEnv } : {}),
    });
    this.service = new SessionService({
      workspace: this.workspace,
      store: this.store,
      log: this.eventLog,
      pool: this.pool,
      gate: this.gate,
      questions: this.questions,
      watchers: this.watchers,
      clock,
      logger: this.log.child('sessions'),
      // Read at every start: an edited agent's next session uses its new definition.
      agent: (id) => this.catalogue.resolve(id),
      storeAgentSecret: (agentId, name, value) => this.catalogue.storeSecret(agentId, name, value),
      defaults: () => ({ agentId: this.settings.defaultAgentId, cwd: this.settings.defaultCwd }),
      files: new FileSearch({ clock }),
      ...(terminal ? { openTerminal: (command: string, cwd: string, env: Record<string, string>) => terminal.open(command, cwd, env) } : {}),
      mcpServers: (agentId, capabilities) => this.mcp.forSession(agentId, capabilities),
      requestTimeoutMs: options.requestTimeoutMs ?? 120_000,
      closeTimeoutMs: 2_000,
      timers: this.timers,
      stopGraceMs: options.stopGraceMs ?? 10_000,
      recentSleep: () => this.suspend.recent(WAKE_WINDOW_MS),
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
      send: (clientId, payload) => this.clients.send(clientId, 'agent:log', payload),
    });
    this.viewPush = new SessionViewPush({ service: this.service, sessions: this.store.sessions, clients: this.clients, log: this.log.child('views') });
    this.clients.setBeforeSend(() => this.viewPush.flush());
    this.storageCare = new StorageCare({
      dataDir: options.dataDir,
      database: paths.database,
      store: this.store,
      timers: this.timers,
      clock,
      log: this.log.child('storage'),
      health: this.storage,
      keep: () => this.settings.backupsKept ?? DEFAULT_BACKUPS_KEPT,
      canRestart: options.restart !== undefined,
      onDeleted: (id) => this.forgetDeleted(id),
      // A slice wrote: the checkpoints count it (no WAL cut while it goes on), and the next one waits at the gate.
      betweenWrites: () => {
        this.checkpoints.noteWrite();
        return this.writeGate.turn();
      },
      ...(options.onDamaged ? { onDamaged: options.onDamaged } : {}),
      ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}),
      ...(options.backupCopy ? { copy: options.backupCopy } : {}),
    });
    this.subscribe(clock);

    const probes = new AgentProbes({
      catalogue: this.catalogue,
      pool: this.pool,
      clock,
      timeoutMs: options.agentTestTimeoutMs ?? 30_000,
      boundSession: (agentId, acpSessionId) => this.store.sessions.byAcpSessionId(agentId, acpSessionId)?.id,
      ...(terminal ? { openTerminal: (command: string, cwd: string, env: Record<string, string>) => terminal.open(command, cwd, env) } : {}),
      terminalCwd: () => (existsSync(this.settings.defaultCwd) ? this.settings.defaultCwd : homedir()),
    });
    this.dispatcher = createDispatcher(
      createHandlers({
        info: (clientId) => this.info(clientId, terminal !== undefined),
        service: this.service,
        workspace: this.workspace,
        gate: this.gate,
        questions: this.questions,
        openExternal: options.openExternal,
        saveFile: options.saveFile,
        settings: this.liveSettings,
        catalogue: this.catalogue,
        probes,
        mcp: this.mcp,
        registry: this.registry,
        detector,
        agentLogFollowers: this.agentLogFollowers,
        folderPicker: options.folderPicker,
        recentFolders: () => this.store.folders.recent(),
        openWindow: (sessionId) => this.openWindow(sessionId),
        search: (query, limit) => this.search(query, limit),
        sendTo: (clientId, event, payload) => this.clients.send(clientId, event, payload),
        storage: this.storageCare,
        restart: () => this.restart(),
        crashReport: (name) => this.crashes.report(name),
      }),
      // A command that failed on the disk or the file says so, and every window hears it; a git
      // failure that reached here unconverted still shows git's words.
      (err) => this.storage.failed(err)?.toWire() ?? (isGitError(err) ? err.toAppError().toWire() : undefined),
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
    const storeOptions: OpenDataStoreOptions = {
      dataDir: options.dataDir,
      database: paths.database,
      clock: options.clock ?? systemClock,
      log: log.child('storage'),
      ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}),
      ...(options.recover ? { recover: options.recover } : {}),
      ...(options.recoverIfDamaged ? { recoverIfDamaged: true } : {}),
    };
    try {
      for (let attempt = 1; ; attempt++) {
        // Under the lock, before anything uses the database: a compaction asked for, a recovery
        // accepted, a backup before any migration, the offer for a file too damaged to open.
        const { store } = await openDataStore(storeOptions);
        let host: SessionHost;
        try {
          host = SessionHost.build({ ...options, log }, lock, store);
        } catch (err) {
          store.dispose();
          // A file that opened but is damaged fails on its first reads (recovery): said the
          // same way, and offered its backup the same way, once.
          const storageError = asStorageError(err, paths.database);
          if (attempt > 1 || storageError?.problem !== 'corrupt') throw storageError ?? err;
          await offerRecovery(storeOptions, storageError.message);
          continue;
        }
        // The registry's agents are read before the first window asks (never fails: the bundled
        // copy stands in); its refresh runs in the background.
        await host.startRegistry(options.refreshRegistry ?? !options.headless);
        return host;
      }
    } catch (err) {
      lock.dispose();
      throw asStorageError(err, paths.database) ?? err;
    }
  }

  /** The host on an open store; its background work started. Throws (and lets go of all but the store and lock) if it cannot. */
  private static build(options: HostOptions & { log: Logger }, lock: DataDirLock, store: Store): SessionHost {
    const paths = dataPaths(options.dataDir);
    // Before any agent can start, so it hears of every one (ADR 0012); its process starts with
    // the first agent, so a host start does not wait on spawning it.
    const watchdog = Watchdog.start({ log: options.log.child('watchdog'), logFile: join(paths.logs, 'watchdog.log'), script: options.watchdogScript, onDemand: true });
    let host: SessionHost | undefined;
    try {
      host = new SessionHost(options, lock, watchdog, store);
      host.reaper.start();
      host.lookForSleep();
      // The full check reads every page: after the start, in a worker; then the daily backups.
      host.storageCare.start();
      // Transcripts stored before search existed are indexed in the background, with progress.
      if (host.searchBackfill.start()) host.log.info('indexing older transcripts for search', host.searchBackfill.progress());
    } catch (err) {
      host?.storageCare.dispose();
      host?.timers.dispose();
      watchdog.dispose();
      throw err;
    }
    // Which agents are installed is found in the background: the start never waits on it.
    host.agentsChanged();
    // So are the sessions' worktrees: vanished ones pruned and marked, rows matched with git.
    const started = host;
    host.reconciled = host.workspace.reconcile().catch((err: unknown) => started.log.warn('checking the worktrees at start-up failed', { error: String(err) }));
    const s = host.settings;
    host.log.info(
      host.reaper.enabled
        ? `idle reaper on: idle timeout ${s.idleTimeoutMs} ms, checked every ${s.reapIntervalMs} ms`
        : `idle reaper off: idle timeout ${s.idleTimeoutMs} ms, interval ${s.reapIntervalMs} ms (0 disables)`,
      { reaper: host.reaper.enabled ? 'on' : 'off', idleTimeoutMs: s.idleTimeoutMs, reapIntervalMs: s.reapIntervalMs },
    );
    return host;
  }

  get settings(): SettingsT {
    return this.liveSettings.value;
  }

  connect(sink: ClientSink): ClientHandle {
    const id = this.clients.add(sink);
    // A window that connects while saving fails learns it at once, not at the next failure.
    if (!this.storage.status.ok) sink.send('host:storage', this.storage.status);
    let disposed = false;
    return {
      id,
      dispose: () => {
        if (disposed) return;
        disposed = true;
        this.clients.remove(id);
        this.agentLogFollowers.dropClient(id);
        // After quit began the sessions are ending anyway (and the store may be closed).
        if (this.shutdownPromise) return;
        for (const sessionId of [...this.watchers.sessionsOf(id)]) this.service.unwatch(id, sessionId);
      },
    };
  }

  dispatch(clientId: string, command: string, payload: unknown) {
    if (!this.clients.has(clientId)) {
      return Promise.resolve({ ok: false as const, error: new AppError('unauthorized', 'Unknown window').toWire() });
    }
    // The views a command changed reach the windows before its answer does.
    return this.dispatcher(clientId, command, payload).then((result) => {
      this.viewPush.flush();
      return result;
    });
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
   * 1-4. the reaper, first: no idle close may start once quit began; the agent log followers;
   *    registry downloads and MCP server tests in flight are cancelled (their files and
   *    processes removed), so none writes to the store after it closes;
   * 5-8. within the shutdown budget, gracefully: sessions close (running turns cancelled and
   *    recorded, agents told `session/close`), what is still pending (permissions, questions)
   *    is answered `cancelled` (an agent waiting for an answer would not stop), then every agent
   *    goes through its shutdown ladder;
   * 9-13. then, whether or not the budget was enough: permissions and questions answered again
   *    (over budget, steps 6-7 may not have run, and nothing may settle later against a closed store), every
   *    agent group killed, the watchdog let go (it kills what is still recorded, and exits),
   *    sessions still stored as live recorded ENDED;
   * 14-16. the search backfill, then the host's subscriptions and its view pushes (the windows
   *    have heard the sessions end; nothing may read the store after it closes);
   * 17-20. the timers (nothing fires any more), the event log (its last batch is written, which
   *    needs the store), the store, and last the data-dir lock, so no second host opens the
   *    store before it is closed.
   */
  private shutdownSteps(): ShutdownStep[] {
    const reason = 'host_shutdown';
    return [
      { part: 'reaper', run: () => this.reaper.dispose() },
      { part: 'backups', run: () => this.storageCare.dispose() },
      { part: 'agent logs', run: () => this.agentLogFollowers.dispose() },
      { part: 'registry downloads', run: () => this.registry.dispose() },
      { part: 'mcp tests', run: () => this.mcp.dispose() },
      { part: 'sessions', budgeted: true, run: () => this.service.closeAll(reason) },
      { part: 'workspace', budgeted: true, run: () => this.workspace.dispose() },
      { part: 'permissions', budgeted: true, run: () => this.gate.dispose() },
      { part: 'questions', budgeted: true, run: () => this.questions.dispose() },
      { part: 'agents', budgeted: true, run: () => this.pool.shutdownAll() },
      // A backup in flight gets what is left of the budget to finish; it is never cut off
      // midway (its file would be a partial one, removed by the next backup).
      { part: 'backups', budgeted: true, run: () => this.storageCare.settle() },
      { part: 'permissions', run: () => this.gate.dispose() },
      { part: 'questions', run: () => this.questions.dispose() },
      { part: 'agents', run: () => this.pool.dispose() },
      { part: 'watchdog', run: () => this.watchdog.dispose() },
      { part: 'sessions', run: () => this.service.endAllStored(reason) },
      { part: 'workspace', run: () => this.workspace.abandon() },
      { part: 'search index', run: () => (this.searchBackfill.dispose(), this.searchTails.dispose(), this.searchMerges.dispose()) },
      { part: 'subscriptions', run: () => this.subscriptions.dispose() },
      { part: 'session views', run: () => this.viewPush.dispose() },
      { part: 'timers', run: () => (this.timers.dispose(), this.suspend.dispose()) },
      { part: 'checkpoints', run: () => this.checkpoints.dispose() },
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

  /** What the host's parts announce, and who hears it. */
  private subscribe(clock: Clock): void {
    const { service, gate, catalogue, liveSettings, clients } = this;
    this.subscriptions.add(service.onDidTerminalOutput((update) => clients.toWatchers(update.sessionId, 'terminal:output', update)));
    this.subscriptions.add(service.onDidChangeControls(({ sessionId, controls }) => clients.toWatchers(sessionId, 'session:controls', { sessionId, controls })));
    this.subscriptions.add(gate.onDidRequest((view) => clients.toWatchers(view.sessionId, 'permission:requested', view)));
    this.subscriptions.add(gate.onDidResolve((resolved) => clients.toWatchers(resolved.sessionId, 'permission:resolved', resolved)));
    this.subscriptions.add(this.questions.onDidAsk((view) => clients.toWatchers(view.sessionId, 'question:asked', view)));
    this.subscriptions.add(this.questions.onDidResolve((resolved) => clients.toWatchers(resolved.sessionId, 'question:resolved', resolved)));
    this.subscriptions.add(catalogue.onDidChange(() => this.agentsChanged()));
    // An agent gone from the catalogue takes its MCP server choices and its registry downloads with it.
    this.subscriptions.add(
      catalogue.onDidRemove((agentId) => {
        this.mcpServers.forgetAgent(agentId);
        this.registry.agents.prune().catch((err: unknown) => this.log.warn('pruning registry folders failed', { agent: agentId, error: String(err) }));
      }),
    );
    this.subscriptions.add(this.mcpServers.onDidChange(() => clients.broadcast('mcp:changed', this.mcp.list())));
    this.subscriptions.add(
      this.registry.onDidChange((change) => {
        // An agent added, updated, pinned or rolled back is a catalogue change; a refreshed index
        // may show newer versions on agents' rows, and windows showing the list read it again.
        this.agentsChanged();
        if (change.kind === 'listing') {
          const load = this.registry.source.current();
          if (load) clients.broadcast('registry:changed', { source: load.source, asOf: load.asOf });
        }
      }),
    );
    this.subscriptions.add(this.workspace.onDidChangeStatus((status) => clients.toWatchers(status.sessionId, 'workspace:status', status)));
    this.subscriptions.add(this.workspace.onDidChangeFiles((changed) => clients.toWatchers(changed.sessionId, 'workspace:changed', changed)));
    this.subscriptions.add(this.workspace.onDidSetupOutput((output) => clients.toWatchers(output.sessionId, 'setup:output', output)));
    this.subscriptions.add(this.storageCare.onDidChangeBackups((list) => clients.broadcast('storage:backups', list)));
    this.subscriptions.add(this.suspend.onDidResume((r) => this.log.info('the computer slept; deadlines and idle times count only the time awake', { ...r })));
    const power = this.options.power;
    if (power) {
      this.subscriptions.add(power.onSuspend(() => this.suspend.powerSuspend()));
      this.subscriptions.add(power.onResume(() => this.suspend.powerResume()));
    }
    // The next New session starts from these choices: the agent preselected, the folder first.
    this.subscriptions.add(
      service.onDidCreate(({ agentId, cwd }) => {
        this.store.folders.use(cwd, clock.now());
        if (agentId !== this.settings.defaultAgentId) liveSettings.update({ defaultAgentId: agentId });
      }),
    );
    this.subscriptions.add(
      liveSettings.onDidChange(({ settings, changed }) => {
        clients.broadcast('settings:changed', settings);
        if (changed.logProtocol !== undefined) this.pool.setProtocolLog(changed.logProtocol);
        // Never after quit began: no reaper tick may run once shutdown starts.
        if (('idleTimeoutMs' in changed || 'reapIntervalMs' in changed) && !this.shutdownPromise) {
          this.reaper.dispose();
          this.reaper = this.createReaper(clock);
          this.reaper.start();
        }
      }),
    );
  }

  /** Refuses a settings update that would break the next New session, before anything is stored. */
  private checkSettings(patch: Partial<SettingsT>): void {
    if (patch.defaultCwd !== undefined) requireFolder(patch.defaultCwd, 'The default folder');
    if (patch.defaultAgentId !== undefined && !this.catalogue.definitions().some((a) => a.id === patch.defaultAgentId)) {
      throw new AppError('invalid_request', `No agent named ${patch.defaultAgentId}`);
    }
  }

  private info(clientId: string, canOpenTerminal: boolean): HostInfoT {
    const searchIndexing = this.searchBackfill.progress();
    return {
      version: VERSION,
      headless: this.options.headless,
      canOpenTerminal,
      canPickFolder: this.options.folderPicker !== undefined,
      canOpenExternal: this.options.openExternal !== undefined,
      canSaveFile: this.options.saveFile !== undefined,
      clientId,
      agents: this.catalogue.definitions().map((a) => ({ id: a.id, name: a.name, command: a.command, args: a.args })),
      settings: this.settings,
      ...(this.options.debugInfo ? { debug: processFigures(this.clients.size) } : {}),
      ...(searchIndexing ? { searchIndexing } : {}),
      ...(this.options.restart ? { canRestart: true } : {}),
      ...(this.crashes.problems.length ? { problems: this.crashes.problems } : {}),
    };
  }

  /**
   * Switchboard's environment as agent `agentId` inherits it: without Switchboard's own secrets
   * (the token, by name and value) and without any secret the secret box keeps for another
   * agent or an MCP server (ADR 0025). Its own variables are added by the spawn.
   */
  private inheritedEnv(agentId: string): NodeJS.ProcessEnv {
    const others = this.catalogue.withheldFrom(agentId);
    return agentEnvironment(this.options.inheritedEnv ?? process.env, {}, {
      names: new Set([...OWN_SECRET_NAMES, ...others.names]),
      values: new Set([...(this.options.ownSecrets ?? []), ...others.values]),
    });
  }

  /**
   * The timer compares the clocks before anything it runs; this keeps one task on it, so a
   * wake is seen within seconds even when nothing else is due (permissions told, idle times
   * corrected) rather than at the next deadline.
   */
  private lookForSleep(): void {
    const clock = this.options.clock ?? systemClock;
    this.timers.at('sleep:check', clock.now() + SLEEP_CHECK_INTERVAL_MS, () => this.lookForSleep());
  }

  private restart(): void {
    if (!this.options.restart) throw new AppError('unsupported', 'This host cannot restart itself: stop it and start it again');
    this.options.restart();
  }

  /** A session clean-up deleted: its queued events and its watchers go (its row's removal told the windows). */
  private forgetDeleted(sessionId: string): void {
    this.eventLog.forget(sessionId);
    for (const clientId of [...this.watchers.clientsOf(sessionId)]) this.watchers.remove(clientId, sessionId);
  }

  private openWindow(sessionId: string): void {
    this.service.row(sessionId);
    if (!this.options.openWindow) throw new AppError('unsupported', "This host cannot open windows: open the session's address in a new tab");
    this.options.openWindow(sessionId);
  }

  /** Transcript search: hits grouped by session (their current titles), newest first. */
  private search(query: string, limit: number) {
    const { matches, truncated } = this.eventLog.search.search(query, limit);
    const groups = matches.flatMap((m) => {
      const row = this.store.sessions.get(m.sessionId);
      if (!row) return [];
      const view = this.service.view(row);
      return [{ sessionId: m.sessionId, title: view.title, cwd: view.cwd, agentId: view.agentId, hits: m.hits, more: m.more }];
    });
    const indexing = this.searchBackfill.progress();
    return { groups, truncated, ...(indexing ? { indexing } : {}) };
  }

  private createReaper(clock: Clock): IdleReaper {
    return new IdleReaper({
      clock,
      timers: this.timers,
      log: this.log.child('reaper'),
      idleTimeoutMs: this.settings.idleTimeoutMs,
      intervalMs: this.settings.reapIntervalMs,
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
            // A question holds the agent up as a permission request does: neither is reaped.
            pendingPermissions: this.gate.countFor(id) + this.questions.countFor(id),
          }
        );
      },
      isClosing: (id) => this.service.isClosing(id),
      close: (id, precondition) => this.service.close(id, 'idle_timeout', { precondition }),
      forceEnd: (id) => this.service.forceEnd(id, 'idle_timeout'),
      sleptBetween: (from, to) => this.suspend.sleptBetween(from, to),
    });
  }

  /**
   * Loads the registry's local index and removes what interrupted installs left; in the desktop
   * app the index is then refreshed in the background (it never delays the start or fails it).
   */
  private async startRegistry(refresh: boolean): Promise<void> {
    try {
      await this.registry.start();
    } catch (err) {
      this.log.warn('the registry could not start; adding from it shows the bundled copy', { error: String(err) });
    }
    if (!refresh) return;
    this.registry.refresh().catch((err: unknown) => this.log.warn('registry refresh failed', { error: String(err) }));
  }

  /** The catalogue changed, or its availability is known: every window gets the new list. */
  private agentsChanged(): void {
    this.catalogue.list().then(
      (list) => {
        if (this.shutdownPromise) return;
        this.clients.broadcast('agents:changed', list);
      },
      (err: unknown) => this.log.warn('listing agents failed', { error: String(err) }),
    );
  }
}
