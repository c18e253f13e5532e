import { existsSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { EventKind, HostInfoT, PayloadOf, SettingsT } from '../../shared/contract';
import { AppError } from '../../shared/errors';
import { VERSION } from '../../shared/version';
import type { AgentDefinition } from '../brokers/agent-definition';
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
import { McpServerCatalogue } from '../catalogue/mcp/mcp-servers';
import { McpSettings } from '../catalogue/mcp/mcp-settings';
import { AcpRegistry } from '../catalogue/registry/acp-registry';
import type { RegistrySnapshotT } from '../../shared/registry';
import { DataDirLock } from '../datadir/data-dir-lock';
import { LiveSettings } from '../datadir/live-settings';
import { dataPaths } from '../datadir/paths';
import { StorageHealth } from '../datadir/storage-health';
import { PermissionGate } from '../permissions/permission-gate';
import { QuestionGate } from '../permissions/question-gate';
import { IdleReaper } from '../reaper/idle-reaper';
import { SessionService } from '../sessions/session-service';
import { Watchers } from '../sessions/watchers';
import { EventLog } from '../store/event-log';
import { SearchBackfill } from '../store/search-backfill';
import { asStorageError, describeStorageProblem, folderProblemOf, StorageError } from '../store/storage-errors';
import { Store } from '../store/store';
import { systemClock, type Clock } from '../util/clock';
import { DisposableStore } from '../util/event';
import { createLogger, type Logger } from '../util/log';
import { TimerQueue } from '../util/timer-queue';
import { FileSearch } from '../workspace/file-search';
import { requireFolder, type FolderPicker } from '../workspace/folders';
import { Git, isGitError } from '../workspace/git';
import { WorkspaceService } from '../workspace/workspace-service';
import { AgentLogFollowers } from './agent-log-followers';
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
  readonly log: Logger;
  readonly catalogue: AgentCatalogue;
  readonly agentLogFollowers: AgentLogFollowers;
  readonly storage: StorageHealth;
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
  ) {
    const paths = dataPaths(options.dataDir);
    const clock = options.clock ?? systemClock;
    this.log = options.log;
    this.store = Store.open(paths.database, options.nativeBinding ? { nativeBinding: options.nativeBinding } : {});
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

    this.timers = new TimerQueue(clock);
    this.storage = new StorageHealth({
      file: paths.database,
      log: this.log.child('storage'),
      broadcast: (status) => this.clients.broadcast('host:storage', status),
    });
    this.eventLog = new EventLog(
      this.store.db,
      clock,
      (events) => {
        this.storage.succeeded();
        for (const event of events) this.clients.toWatchers(event.sessionId, 'session:event', event);
      },
      undefined,
      (err, lost) => {
        this.log.error('storing transcript events failed; they are lost', { lost, error: String(err) });
        this.storage.failed(err, lost);
      },
    );
    const reportProgress = searchProgressReporter({ clock, log: this.log, push: (progress) => this.clients.broadcast('search:progress', progress) });
    this.searchBackfill = new SearchBackfill({
      db: this.store.db,
      index: this.eventLog.search,
      schedule: (fn) => setImmediate(fn),
      onProgress: (progress) => {
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
    // Before any agent can start, so it hears of every one (ADR 0012).
    const watchdog = Watchdog.start({ log: log.child('watchdog'), logFile: join(paths.logs, 'watchdog.log'), script: options.watchdogScript });
    try {
      const host = new SessionHost({ ...options, log }, lock, watchdog);
      host.reaper.start();
      // Transcripts stored before search existed are indexed in the background, with progress.
      if (host.searchBackfill.start()) host.log.info('indexing older transcripts for search', host.searchBackfill.progress());
      // Which agents are installed is found in the background: the start never waits on it.
      host.agentsChanged();
      await host.startRegistry(options.refreshRegistry ?? !options.headless);
      // So are the sessions' worktrees: vanished ones pruned and marked, rows matched with git.
      host.reconciled = host.workspace.reconcile().catch((err: unknown) => host.log.warn('checking the worktrees at start-up failed', { error: String(err) }));
      const s = host.settings;
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
      { part: 'agent logs', run: () => this.agentLogFollowers.dispose() },
      { part: 'registry downloads', run: () => this.registry.dispose() },
      { part: 'mcp tests', run: () => this.mcp.dispose() },
      { part: 'sessions', budgeted: true, run: () => this.service.closeAll(reason) },
      { part: 'workspace', budgeted: true, run: () => this.workspace.dispose() },
      { part: 'permissions', budgeted: true, run: () => this.gate.dispose() },
      { part: 'questions', budgeted: true, run: () => this.questions.dispose() },
      { part: 'agents', budgeted: true, run: () => this.pool.shutdownAll() },
      { part: 'permissions', run: () => this.gate.dispose() },
      { part: 'questions', run: () => this.questions.dispose() },
      { part: 'agents', run: () => this.pool.dispose() },
      { part: 'watchdog', run: () => this.watchdog.dispose() },
      { part: 'sessions', run: () => this.service.endAllStored(reason) },
      { part: 'workspace', run: () => this.workspace.abandon() },
      { part: 'search index', run: () => this.searchBackfill.dispose() },
      { part: 'subscriptions', run: () => this.subscriptions.dispose() },
      { part: 'session views', run: () => this.viewPush.dispose() },
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
    };
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
