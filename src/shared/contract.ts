/**
 * The one IPC contract between the session host and its windows. Every command (request →
 * response) and every event is a zod schema here; the Electron IPC transport, the WebSocket
 * transport and the preload are all built from these tables. Types are inferred, never
 * written twice.
 */
import { z } from 'zod';
import { WireErrorDetails, ErrorCode } from './errors';
import { AgentList, AgentPresetView, AgentTestProgress, AgentTestResult, AgentView, ByAgent, ListAgents, SaveAgent } from './catalogue';
import { FileMatches, PromptBlocks, PromptCapabilities, SearchFiles } from './prompt';
import { ControlTarget, SessionControls } from './session-controls';
import {
  ByMcpServer,
  EnableMcpServer,
  ImportMcpServers,
  McpImportReport,
  McpImportResult,
  McpServerList,
  McpServerView,
  McpSessionServer,
  McpTestProgress,
  McpTestResult,
  SaveMcpServer,
} from './mcp';
import {
  AddFromRegistry,
  ByRegistryAgent,
  ListRegistry,
  PinRegistryAgent,
  RegistryAgentChange,
  RegistryAgentInfo,
  RegistryChanged,
  RegistryInstallProgress,
  RegistryListing,
} from './registry';
import {
  BranchCheck,
  ChangesChanged,
  ChangesList,
  CommitChanges,
  CompareResult,
  DiffRequest,
  FileDiff,
  FilesRestored,
  ListChanges,
  MergeBranch,
  MergeResult,
  ProbeWorkspace,
  RebaseResult,
  RepositorySettings,
  RestoreCheckpoint,
  RevertFiles,
  SaveRepositorySettings,
  SetupOutput,
  SetupSnapshot,
  WorkspaceProbe,
  WorkspaceStatus,
  WorkspaceView,
  WorktreeRequest,
} from './workspace';
import { ElicitationContent, ElicitationQuestion } from './elicitation';
import { AuthRequest, AvailableCommand, PermissionOption, QuestionAction, SessionEvent, StateReason, TerminalExit, ToolCallView, ToolKind, type PermissionDecider } from './events';
import { BackupList, BackupView, CleanUp, CleanUpAge, CleanUpPreview, CompactionRequested, StorageReportView } from './storage';
import { CrashReport, CrashReportRequest, HostProblem } from './host-problems';

export * from './events';
export * from './catalogue';
export * from './prompt';
export * from './session-controls';
export * from './mcp';
export * from './registry';
export * from './workspace';
export * from './storage';
export * from './host-problems';
export { ErrorCode, GitProblem, WireErrorDetails } from './errors';

export const SessionId = z.uuid();
/** How many folders besides its own a session may name. */
export const MAX_ADDITIONAL_DIRS = 16;
export const ClientMessageId = z.uuid();

export const SessionState = z.enum(['CREATED', 'STARTING', 'ACTIVE', 'DETACHED', 'CLOSING', 'ENDED']);

export const AgentInfo = z.object({
  id: z.string(),
  name: z.string(),
  command: z.string(),
  args: z.array(z.string()),
});

export const SessionView = z.object({
  id: SessionId,
  agentId: z.string(),
  cwd: z.string(),
  title: z.string(),
  state: SessionState,
  stateReason: StateReason.optional(),
  running: z.boolean(),
  pendingPermissions: z.number().int().nonnegative(),
  /** Questions from the agent waiting for an answer (`elicitation/create`). */
  pendingQuestions: z.number().int().nonnegative(),
  lastSeq: z.number().int().nonnegative(),
  createdAt: z.number(),
  updatedAt: z.number(),
  lastActivityAt: z.number(),
  /**
   * While `running`: when the turn began (host time), counting the time its agent took to
   * start; the window ticks the elapsed time from it.
   */
  turnStartedAt: z.number().optional(),
  /**
   * When the agent last sent anything for this session (host time), as of this view. Not
   * pushed per update: windows also take the time of the last agent event they received.
   */
  lastAgentActivityAt: z.number().optional(),
  /** Set while the agent waits for the person to sign in. */
  auth: AuthRequest.optional(),
  /** When the person archived it: hidden from the list, shown under Archived. */
  archivedAt: z.number().optional(),
  /** What the running agent takes in a prompt (its `initialize` answer); absent until it has started. */
  promptCapabilities: PromptCapabilities.optional(),
  /**
   * Folders the person added besides `cwd` (absolute paths): the agent's file access is
   * confined to `cwd` and these; agents that take them get them in `session/new`/`load`/`resume`.
   */
  additionalDirs: z.array(z.string()),
  /**
   * Activity (a prompt, a reply, a permission request) happened since a window last showed
   * it, and none shows it now. Absent means false.
   */
  unread: z.boolean().optional(),
  /** The person named it (`sessions:rename`): the agent's later titles do not replace the name. */
  renamed: z.boolean().optional(),
  /**
   * While its agent runs: the MCP servers turned on for the agent, each given to this session or
   * skipped with the reason (never a secret value). A transcript notice records each start's list.
   */
  mcpServers: z.array(McpSessionServer).optional(),
  /** Its git worktree or shared repository folder; absent for a folder outside any repository. */
  workspace: WorkspaceView.optional(),
  /** Sessions started together on one task (`alsoRunOn`) share it: `workspace:compare` lists them. */
  groupId: z.string().optional(),
  /** Its agent can fork it (`session/fork`, as its last start said): `Fork` and `Edit and resend` are offered. */
  canFork: z.boolean().optional(),
  /** The session it was forked from (its id; the session may since have been deleted). */
  forkedFrom: z.string().optional(),
  /** Imported from an exported file: a copy with no agent session, never resumed; prompts are refused. */
  readOnly: z.boolean().optional(),
});

export const PermissionView = z.object({
  requestId: z.string(),
  sessionId: SessionId,
  toolCall: ToolCallView,
  options: z.array(PermissionOption),
  createdAt: z.number(),
  /** When the request is answered automatically if no window watches the session. */
  deadlineAt: z.number().optional(),
});

/** A question from the agent waiting for a person (`elicitation/create`), as every window watching shows it. */
export const QuestionView = z.object({
  requestId: z.string(),
  sessionId: SessionId,
  /** The tool call it is about, if the agent said. */
  toolCallId: z.string().optional(),
  question: ElicitationQuestion,
  createdAt: z.number(),
  /** When it is answered `cancel` automatically if no window watches the session. */
  deadlineAt: z.number().optional(),
});

export const PermissionRule = z.object({
  id: z.string(),
  sessionId: SessionId,
  toolKind: ToolKind,
  decision: z.enum(['allow_always', 'reject_always']),
  createdAt: z.number(),
});

export const Settings = z.object({
  /** 0 disables the idle reaper. */
  idleTimeoutMs: z.number().int().nonnegative(),
  reapIntervalMs: z.number().int().nonnegative(),
  permissionTimeoutMs: z.number().int().nonnegative(),
  defaultCwd: z.string(),
  defaultAgentId: z.string(),
  maxSessionsPerBroker: z.number().int().positive(),
  /**
   * Debug: record every ACP message to and from each agent (truncated, secrets redacted) in its
   * log and the Agent log view. Off by default: the fast path then only checks this flag per chunk.
   */
  logProtocol: z.boolean().optional(),
  /** Colour theme of every window: follow the system (default), or always light or dark. */
  theme: z.enum(['system', 'light', 'dark']).optional(),
  /** Where the ACP registry's index is fetched from (`DEFAULT_REGISTRY_URL`); empty never fetches (the bundled copy is used). */
  registryUrl: z.string().max(2048).optional(),
  /** Where sessions' worktrees go (absolute); default `<data folder>/worktrees`. */
  worktreeRoot: z.string().optional(),
  /** Backups of the database kept of each kind (daily, before a migration); the host's default is 7. */
  backupsKept: z.number().int().positive().optional(),
});

/**
 * The host process's own figures, only from a host started for debugging (`serve` with
 * SWITCHBOARD_DEBUG_INFO=1): what `npm run soak` watches for leaks.
 */
export const DebugInfo = z.object({
  rss: z.number(),
  heapUsed: z.number(),
  /** Active libuv resources by type (`Timeout`, `TCPSocketWrap`, `PipeWrap`, `FSReqCallback`…). */
  resources: z.record(z.string(), z.number()),
  clients: z.number(),
});

export const SearchProgress = z.object({
  /** Events of older transcripts indexed so far, and in all (both 0 and `done` when there was nothing to do). */
  indexed: z.number().int().nonnegative(),
  total: z.number().int().nonnegative(),
  done: z.boolean(),
});
export type SearchProgressT = z.output<typeof SearchProgress>;

export const HostInfo = z.object({
  version: z.string(),
  headless: z.boolean(),
  /** The host can open a terminal window for a sign-in command (the desktop app, with a terminal). */
  canOpenTerminal: z.boolean().optional(),
  /** The host can show a native folder picker (`folders:pick`): the desktop app. */
  canPickFolder: z.boolean().optional(),
  /**
   * The host opens the page of a URL question itself, in the system browser, when the person
   * accepts it (the desktop app); without it the window opens a tab (`noopener`).
   */
  canOpenExternal: z.boolean().optional(),
  /** `Export…` shows the system's save dialog and writes the file (the desktop app); without it the window downloads the file. */
  canSaveFile: z.boolean().optional(),
  clientId: z.string(),
  agents: z.array(AgentInfo),
  settings: Settings,
  debug: DebugInfo.optional(),
  /** Transcripts stored before search existed are still being indexed (see `search:progress`). */
  searchIndexing: SearchProgress.optional(),
  /** The host can restart itself (`host:restart`): the desktop app. */
  canRestart: z.boolean().optional(),
  /** Uncaught errors of this run, and the crash that ended the last one (oldest first). */
  problems: z.array(HostProblem).optional(),
});

const Empty = z.object({}).strict();

/** The most sessions one list answers (newest created first). */
export const MAX_SESSIONS_LISTED = 10_000;
/**
 * `limit`: only the newest so many; `after`: the ones listed after that session (older, or as
 * old with a greater id). A window reads the list a page at a time: a screenful first, then
 * pages from the last session it has, so no long answer holds the host or the window.
 */
const SessionsListRequest = z
  .object({
    limit: z.number().int().min(1).max(MAX_SESSIONS_LISTED).optional(),
    after: z.object({ createdAt: z.number().int(), id: z.string().min(1).max(256) }).strict().optional(),
  })
  .strict();
const Ok = z.object({ ok: z.literal(true) });
const BySession = z.object({ sessionId: SessionId }).strict();

export const CreateSession = z
  .object({
    id: SessionId.optional(),
    agentId: z.string().min(1).optional(),
    cwd: z.string().min(1).optional(),
    /** Folders besides `cwd` the agent may work in (absolute paths of existing folders). */
    additionalDirs: z.array(z.string().min(1).max(4096)).max(MAX_ADDITIONAL_DIRS).optional(),
    /**
     * Open an agent's existing session (one its `session/list` named) instead of a new one: the
     * Switchboard session is bound to it and started with `session/load` (or `resume`).
     */
    acpSessionId: z.string().min(1).max(512).optional(),
    /** The title the agent's list gave that session, shown until the agent names it. */
    title: z.string().max(500).optional(),
    /**
     * `Separate worktree` checked: the folder must be in a git repository; the session works in a
     * new worktree on this new branch, made from the checkout's HEAD. Absent, a repository
     * folder is shared (checkpointed before each turn) and any other folder works as it is.
     */
    worktree: WorktreeRequest.optional(),
    /**
     * `Also run on`: more agents on the same task, each in its own worktree (needs `worktree`);
     * the sessions form a group, and the first prompt sent to any of them goes to each.
     */
    alsoRunOn: z.array(z.string().min(1)).max(7).optional(),
  })
  .strict();

export const ArchiveSession = z
  .object({
    sessionId: SessionId,
    /** A worktree session's folder is removed (uncommitted files checkpointed first, the branch kept) unless this is set. */
    keepWorktree: z.boolean().optional(),
  })
  .strict();

export const DeleteSession = z
  .object({
    sessionId: SessionId,
    /** Also delete the worktree's branch (and its checkpoints). */
    deleteBranch: z.boolean().optional(),
    /** The second confirmation: the branch has commits not in its base, or uncommitted files; delete them anyway. */
    confirmUnmerged: z.boolean().optional(),
  })
  .strict();

/** What `folders:check` says of a folder typed for a new session. */
export const FolderCheck = z.discriminatedUnion('ok', [
  /** `path`: the folder as it will be stored (`~` expanded, trailing separators dropped). */
  z.object({ ok: z.literal(true), path: z.string() }),
  z.object({
    ok: z.literal(false),
    problem: z.enum(['empty', 'relative', 'missing', 'not_directory', 'unreadable']),
    /** For the person, naming the folder. */
    message: z.string(),
  }),
]);

/** One session an agent's `session/list` named. */
export const AgentSessionInfo = z.object({
  acpSessionId: z.string(),
  cwd: z.string(),
  title: z.string().optional(),
  /** When the agent last saw activity in it (ms since the epoch), if it said. */
  updatedAt: z.number().optional(),
  additionalDirs: z.array(z.string()),
  /** The Switchboard session already bound to it, if one is (opening it again just shows that one). */
  openAs: z.string().optional(),
});

export const ListAgentSessions = z
  .object({
    agentId: z.string().min(1),
    /** Only sessions in this folder (absolute). */
    cwd: z.string().min(1).optional(),
    /** The `nextCursor` of an earlier page. */
    cursor: z.string().min(1).optional(),
  })
  .strict();

export const AgentSessionPage = z.object({
  sessions: z.array(AgentSessionInfo),
  nextCursor: z.string().optional(),
});

export const SwitchSession = z
  .object({
    sessionId: SessionId,
    /** The window stops watching this one (if it watched it) once the switch is answered. */
    fromSessionId: SessionId.optional(),
  })
  .strict();

export const SwitchResult = z.object({
  session: SessionView,
  running: z.boolean(),
  lastSeq: z.number().int().nonnegative(),
  pendingPermissions: z.array(PermissionView),
  pendingQuestions: z.array(QuestionView),
  /** The agent's latest `available_commands_update` for the session, however old (the composer offers them). */
  availableCommands: z.array(AvailableCommand).optional(),
  /** Modes, models, options and usage as last stored; absent when the agent sent none. */
  controls: SessionControls.optional(),
});

export const TranscriptPage = z
  .object({
    sessionId: SessionId,
    /** Newest events strictly before this seq; omitted means the newest page. */
    beforeSeq: z.number().int().positive().optional(),
    limit: z.number().int().min(1).max(1000).default(200),
  })
  .strict();

export const TranscriptSince = z
  .object({
    sessionId: SessionId,
    afterSeq: z.number().int().nonnegative(),
    limit: z.number().int().min(1).max(5000).default(2000),
  })
  .strict();

export const EventPage = z.object({
  events: z.array(SessionEvent),
  /** More events exist beyond this page in the direction asked. */
  hasMore: z.boolean(),
});

export const SendPrompt = z
  .object({
    sessionId: SessionId,
    clientMessageId: ClientMessageId,
    /** May be empty when the prompt carries attachments. */
    text: z.string().max(1_000_000),
    /** Set by the Retry button: restart an agent that was stopped after crashing repeatedly. */
    retry: z.boolean().optional(),
    /** Attachments and `@` mentions, sent after the text as ACP content blocks. */
    content: PromptBlocks.optional(),
  })
  .strict()
  .refine((p) => p.text.trim() !== '' || (p.content?.length ?? 0) > 0, { message: 'A prompt needs text or an attachment', path: ['text'] });

export const SendAccepted = z.object({
  accepted: z.literal(true),
  /** False when the same clientMessageId was already accepted: nothing was sent again. */
  duplicate: z.boolean(),
});

export const AnswerPermission = z
  .object({
    requestId: z.string().min(1),
    sessionId: SessionId,
    optionId: z.string().min(1),
  })
  .strict();

/** A window's answer to a question: `accept` carries the content (checked again by the host), the others none. */
export const AnswerQuestion = z
  .object({
    requestId: z.string().min(1),
    sessionId: SessionId,
    action: QuestionAction,
    content: ElicitationContent.optional(),
  })
  .strict();

/**
 * A new session with the transcript of `sessionId` so far (its agent's `session/fork`), or up to
 * `beforeSeq` (exclusive: the person's message being edited and resent). `id`: the new session's
 * id, chosen by the window so it can show it at once.
 */
export const ForkSession = z
  .object({
    sessionId: SessionId,
    id: SessionId.optional(),
    beforeSeq: z.number().int().positive().optional(),
  })
  .strict();

export const ExportFormat = z.enum(['markdown', 'json']);
export const ExportSession = z.object({ sessionId: SessionId, format: ExportFormat }).strict();
/** The largest export or import that crosses the contract (a WebSocket frame carries 16 MB). */
export const MAX_EXPORT_CHARS = 15_000_000;
/**
 * Where an export went: written where the person chose in the system's save dialog (the
 * desktop app), not written (the dialog was cancelled), or handed to the window to download.
 */
export const ExportResult = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('saved'), path: z.string() }),
  z.object({ kind: z.literal('cancelled') }),
  z.object({ kind: z.literal('download'), fileName: z.string(), mimeType: z.string(), text: z.string() }),
]);
/** A file `Export…` wrote as JSON, read back as a new read-only archived session. */
export const ImportSession = z.object({ text: z.string().max(MAX_EXPORT_CHARS), fileName: z.string().max(1_000).optional() }).strict();

export const RevokeRule = z.object({ sessionId: SessionId, ruleId: z.string().min(1) }).strict();

export const UpdateSettings = Settings.partial().strict();

/** One line of a session's Agent log: the agent's stderr, an ACP message, an unknown method. */
export const AgentLogEntry = z.discriminatedUnion('kind', [
  /** `at` is absent for lines read back from the log file (the file keeps no times for them). */
  z.object({ kind: z.literal('stderr'), text: z.string(), at: z.number().optional() }),
  z.object({
    kind: z.literal('protocol'),
    at: z.number(),
    /** `in`: from the agent; `out`: to it. */
    direction: z.enum(['in', 'out']),
    /** The JSON-RPC method, absent for a response. */
    method: z.string().optional(),
    /** The message as JSON, secrets redacted, cut to a bounded length. */
    text: z.string(),
  }),
  z.object({
    kind: z.literal('unknown_method'),
    at: z.number(),
    message: z.enum(['request', 'notification']),
    method: z.string(),
  }),
  /** Switchboard's own note in the log (a limit reached). */
  z.object({ kind: z.literal('note'), text: z.string(), at: z.number().optional() }),
]);
export type AgentLogEntryT = z.output<typeof AgentLogEntry>;

export const OpenAgentLog = z
  .object({
    sessionId: SessionId,
    /** Keep sending this window new lines (`agent:log`) until `agents:unfollow`. */
    follow: z.boolean().default(true),
  })
  .strict();

export const AgentLog = z.object({
  sessionId: SessionId,
  agentName: z.string(),
  /** The log file the backlog was read from, if the session's agent has run. */
  logFile: z.string().optional(),
  /** The session's agent process is running (new lines will follow). */
  live: z.boolean(),
  /** The backlog: the end of the log file, oldest first. */
  entries: z.array(AgentLogEntry),
  /** The file holds more than the backlog shows. */
  truncated: z.boolean(),
});

export const Authenticate = z
  .object({
    sessionId: SessionId,
    methodId: z.string().min(1),
    /** An `env_var` method: the value to store for the agent (kept out of logs and transcripts). */
    value: z.string().min(1).max(100_000).optional(),
  })
  .strict();

/** Sign in to an agent from Settings: one of the methods its `initialize` lists. */
export const AgentSignIn = z
  .object({
    agentId: z.string().min(1),
    methodId: z.string().min(1),
    /** An `env_var` method: the value to store as the agent's secret (kept out of logs and the database). */
    value: z.string().min(1).max(100_000).optional(),
  })
  .strict();

export const AuthenticateResult = z.object({
  /** The agent accepted the sign-in (or the variable was stored and the agent restarted). */
  ok: z.literal(true),
  /** What happened, for the person ("Signed in with …"). */
  message: z.string(),
});

export const RenameSession = z
  .object({
    sessionId: SessionId,
    /** The person's name for it; empty gives the title back to the agent. */
    title: z.string().max(200),
  })
  .strict();

export const SaveDraft = z
  .object({
    sessionId: SessionId,
    /** The composer's unsent text; empty removes the draft. */
    text: z.string().max(1_000_000),
  })
  .strict();

export const Draft = z.object({ text: z.string() });

/**
 * Live output of a terminal an agent runs, to the windows watching its session (not stored; the
 * final output is, as `terminal_output`). `text` starts at UTF-16 position `start` of all the
 * terminal printed, so pieces merge with a `terminals:read` snapshot without gaps or doubles.
 */
export const TerminalOutput = z.object({
  sessionId: SessionId,
  terminalId: z.string(),
  start: z.number().int().nonnegative(),
  text: z.string(),
  exit: TerminalExit.optional(),
});
export type TerminalOutputT = z.output<typeof TerminalOutput>;

/** A live terminal's output so far; live pieces continue at `end`. */
export const TerminalSnapshot = z.object({
  terminalId: z.string(),
  command: z.string(),
  text: z.string(),
  end: z.number().int().nonnegative(),
  truncated: z.boolean(),
  exit: TerminalExit.optional(),
});
export type TerminalSnapshotT = z.output<typeof TerminalSnapshot>;

/** Changes one of the session header's controls (`session/set_mode`, `set_model`, `set_config_option`). */
export const SetControl = z
  .object({
    sessionId: SessionId,
    target: ControlTarget,
    value: z.union([z.string().min(1), z.boolean()]),
  })
  .strict();

export const SessionControlsEvent = z.object({ sessionId: SessionId, controls: SessionControls });
/** Full-text search over every transcript; the text is never read as FTS5 syntax. */
export const SearchQuery = z
  .object({
    query: z.string().max(500),
    /** Most sessions in the answer. */
    limit: z.number().int().min(1).max(100).default(20),
  })
  .strict();

/** A piece of a snippet: matched text has `hit`. Plain text: the window builds `<mark>`s, never HTML. */
export const SnippetPart = z.object({ text: z.string(), hit: z.boolean().optional() });
export type SnippetPartT = z.output<typeof SnippetPart>;

export const SearchHit = z.object({
  seq: z.number().int().positive(),
  at: z.number(),
  kind: z.enum(['user', 'agent', 'thought', 'tool']),
  snippet: z.array(SnippetPart),
});
export type SearchHitT = z.output<typeof SearchHit>;

export const SearchGroup = z.object({
  sessionId: SessionId,
  title: z.string(),
  cwd: z.string(),
  agentId: z.string(),
  /** Newest first. */
  hits: z.array(SearchHit),
  /** The session has more hits than shown. */
  more: z.boolean(),
});

export const SearchResults = z.object({
  /** Sessions ordered by their newest hit, newest first. */
  groups: z.array(SearchGroup),
  /** More sessions matched than `limit`. */
  truncated: z.boolean(),
  /** Set while older transcripts are still being indexed: results may be incomplete. */
  indexing: SearchProgress.optional(),
});
export type SearchResultsT = z.output<typeof SearchResults>;

export const commands = {
  'host:info': { req: Empty, res: HostInfo },
  'sessions:list': { req: SessionsListRequest, res: z.array(SessionView) },
  'sessions:create': { req: CreateSession, res: SessionView },
  'sessions:switch': { req: SwitchSession, res: SwitchResult },
  'sessions:detach': { req: BySession, res: Ok },
  'sessions:close': { req: BySession, res: SessionView },
  'transcript:page': { req: TranscriptPage, res: EventPage },
  'transcript:since': { req: TranscriptSince, res: EventPage },
  'prompt:send': { req: SendPrompt, res: SendAccepted },
  'prompt:cancel': { req: BySession, res: Ok },
  'permissions:answer': { req: AnswerPermission, res: Ok },
  /**
   * Answers a question from the agent; the first answer from any window wins. A form answer is
   * checked against the form (refused with a reason per field). Accepting a URL question opens
   * its page in the system browser where the host can (`canOpenExternal`).
   */
  'questions:answer': { req: AnswerQuestion, res: Ok },
  /** A new session with the transcript so far (or up to a message), forked on the agent's side; `unsupported` where it cannot fork. */
  'sessions:fork': { req: ForkSession, res: SessionView },
  /** The transcript as Markdown (to read) or JSON (every event, re-importable): saved through the save dialog, or handed over to download. */
  'sessions:export': { req: ExportSession, res: ExportResult },
  /** A JSON export read back as a new session: archived, read-only, never resumed. A bad file changes nothing. */
  'sessions:import': { req: ImportSession, res: SessionView },
  'permissions:rules': { req: BySession, res: z.array(PermissionRule) },
  'permissions:revoke': { req: RevokeRule, res: Ok },
  'settings:update': { req: UpdateSettings, res: Settings },
  'agents:list': { req: ListAgents, res: AgentList },
  'agents:save': { req: SaveAgent, res: AgentView },
  'agents:remove': { req: ByAgent, res: Ok },
  'agents:test': { req: ByAgent, res: AgentTestResult },
  'agents:presets': { req: ListAgents, res: z.array(AgentPresetView) },
  'agents:log': { req: OpenAgentLog, res: AgentLog },
  'agents:unfollow': { req: BySession, res: Ok },
  /** Sign in with one of the methods the session's agent asked for; the session then continues. */
  'agents:authenticate': { req: Authenticate, res: AuthenticateResult },
  /** Start a session whose agent failed to start, once, on purpose (the Retry button). */
  'sessions:retry': { req: BySession, res: SessionView },
  /** Archives it; a worktree's folder is removed (uncommitted files checkpointed, the branch kept) unless `keepWorktree`. */
  'sessions:archive': { req: ArchiveSession, res: SessionView },
  /** Back from the archive; a worktree removed at archive is made again from its branch, its uncommitted files brought back. */
  'sessions:restore': { req: BySession, res: SessionView },
  /**
   * Removes the session, its transcript, prompts and permission records, and its worktree
   * (uncommitted files checkpointed first). `deleteBranch` also deletes the branch; one with
   * work not in its base is refused (`invalid_state`, `details.git.problem: 'unmerged'` with the
   * counts) unless `confirmUnmerged`.
   */
  'sessions:delete': { req: DeleteSession, res: Ok },
  /** Runs a terminal-login method's command (the agent's own login) in a terminal window (desktop app only). */
  'agents:login': { req: z.object({ sessionId: SessionId, methodId: z.string().min(1) }).strict(), res: Ok },
  /** Sign in to an agent from Settings (a probe of it runs `authenticate`, or a variable is stored for it). */
  'agents:signin': { req: AgentSignIn, res: AuthenticateResult },
  /** Files of the session's folder matching a query, for `@` mentions (relative paths). */
  'files:search': { req: SearchFiles, res: FileMatches },
  /** Whether a typed folder can be a session's folder, and why not (as the person types). */
  'folders:check': { req: z.object({ path: z.string().max(4096) }).strict(), res: FolderCheck },
  /** Folders sessions were started in, most recent first (bounded). */
  'folders:recent': { req: Empty, res: z.object({ folders: z.array(z.string()) }) },
  /** The native folder picker (desktop app; `unsupported` where there is none): the chosen folder. */
  'folders:pick': { req: Empty, res: z.discriminatedUnion('cancelled', [z.object({ cancelled: z.literal(true) }), z.object({ cancelled: z.literal(false), path: z.string() })]) },
  /** The agent's own sessions (`session/list`); `unsupported` when the agent does not list them. */
  'agents:sessions': { req: ListAgentSessions, res: AgentSessionPage },
  /** The person names a session (kept over the agent's titles). */
  'sessions:rename': { req: RenameSession, res: SessionView },
  /** The composer's unsent text for a session, kept across reloads and restarts. */
  'drafts:get': { req: BySession, res: Draft },
  'drafts:save': { req: SaveDraft, res: Ok },
  /** Opens the session in a window of its own (desktop app); `unsupported` where the host cannot. */
  'windows:open': { req: BySession, res: Ok },
  /** A terminal the session's agent runs, its output so far (a window that opens mid-run); `not_found` once it is gone. */
  'terminals:read': { req: z.object({ sessionId: SessionId, terminalId: z.string().min(1) }).strict(), res: TerminalSnapshot },
  /**
   * Sets a mode, model or config option on the session's agent (started first if it sleeps);
   * the choice becomes the agent's default for new sessions. Answers the stored controls.
   */
  'sessions:configure': { req: SetControl, res: SessionControls },
  /** Full-text search over every transcript: sessions with hits, newest first, snippets marked. */
  'search:query': { req: SearchQuery, res: SearchResults },
  /** Signs the agent out (ACP `logout`) on a probe of it, where its `initialize` lists `auth.logout`. */
  'agents:signout': { req: ByAgent, res: AuthenticateResult },
  /**
   * Opens the person's terminal running a terminal sign-in method of the agent (its command with
   * the method's arguments), from Settings; `unsupported` where no terminal can open (headless).
   */
  'agents:terminal': { req: z.object({ agentId: z.string().min(1), methodId: z.string().min(1) }).strict(), res: Ok },
  /** The person's MCP servers (secrets as names only). */
  'mcp:list': { req: Empty, res: McpServerList },
  /** Adds (no `id`) or replaces a server; a secret sent without a value keeps the stored one. */
  'mcp:save': { req: SaveMcpServer, res: McpServerView },
  'mcp:remove': { req: ByMcpServer, res: Ok },
  /** Turns a server on or off for one agent's sessions. */
  'mcp:enable': { req: EnableMcpServer, res: McpServerView },
  /** Starts or reaches the server with the MCP SDK client and lists its tools (progress as `mcp:progress`). */
  'mcp:test': { req: ByMcpServer, res: McpTestResult },
  /** Reads the MCP servers other tools (Claude Desktop, Claude Code, Gemini CLI) configured; adds nothing. */
  'mcp:scan': { req: Empty, res: McpImportReport },
  /** Adds the chosen servers of `mcp:scan` (the files are read again; secrets never cross to the window). */
  'mcp:import': { req: ImportMcpServers, res: McpImportResult },
  /** The ACP registry's agents (network, cache or the bundled copy), with what each needs here. */
  'registry:list': { req: ListRegistry, res: RegistryListing },
  /** Adds a registry agent: its pinned npx / uvx launch, or its download (progress as `registry:progress`). */
  'registry:add': { req: AddFromRegistry, res: RegistryAgentChange },
  /** Moves a registry agent to the version the registry lists (refused while pinned). */
  'registry:update': { req: ByRegistryAgent, res: RegistryAgentChange },
  'registry:pin': { req: PinRegistryAgent, res: RegistryAgentInfo },
  /** Returns to the version kept before the last update, and pins it. */
  'registry:rollback': { req: ByRegistryAgent, res: RegistryAgentChange },
  /** A registry agent's facts; `not_found` for an agent not added from the registry. */
  'registry:info': { req: ByRegistryAgent, res: RegistryAgentInfo },
  /** A folder typed in the New session dialog: a repository? its branch, a branch name, the remembered box; `prepare` starts a worktree ahead. */
  'workspace:probe': { req: ProbeWorkspace, res: WorkspaceProbe },
  /** A new branch's name as typed: valid, and not taken in the repository of `path`. */
  'branches:check': { req: z.object({ path: z.string().min(1).max(4096), name: z.string().max(250) }).strict(), res: BranchCheck },
  /** The header's branch, base, ahead/behind and dirty, read now (then pushed as `workspace:status`). */
  'workspace:status': { req: BySession, res: WorkspaceStatus },
  /** The files changed against the base (bounded). */
  'changes:list': { req: ListChanges, res: ChangesList },
  /** One changed file's diff. */
  'changes:diff': { req: DiffRequest, res: FileDiff },
  /** Makes files equal the base (the window confirms); checkpointed first, `undo` says how to undo. */
  'changes:revert': { req: RevertFiles, res: FilesRestored },
  /** Makes every file equal the base (the window confirms); checkpointed first. */
  'changes:discard': { req: BySession, res: FilesRestored },
  /** Commits everything in the worktree (its hooks run). Worktree sessions only. */
  'changes:commit': { req: CommitChanges, res: z.object({ commit: z.string() }) },
  /** Merges the worktree's branch into its base in the person's checkout (clean and on the base branch only); a conflict is aborted and named. */
  'workspace:merge': { req: MergeBranch, res: MergeResult },
  /** Replays the worktree's commits on the base branch's tip; a conflict is aborted and named. */
  'workspace:rebase': { req: BySession, res: RebaseResult },
  /** Makes the files equal a checkpoint (the window confirms); itself checkpointed, so it can be undone. */
  'checkpoints:restore': { req: RestoreCheckpoint, res: FilesRestored },
  /** Makes a worktree whose folder vanished again from its branch. */
  'workspace:recreate': { req: BySession, res: SessionView },
  /** The setup command's output so far (a window that opens while it runs). */
  'setup:read': { req: BySession, res: SetupSnapshot },
  /** Every session of a group side by side: changed files, lines, turn time and cost. */
  'workspace:compare': { req: z.object({ groupId: z.string().min(1).max(100) }).strict(), res: CompareResult },
  /** Settings → Repositories: every repository sessions were started in. */
  'repositories:list': { req: Empty, res: z.array(RepositorySettings) },
  /** One repository's settings (the setup command, the worktree box's default). */
  'repositories:save': { req: SaveRepositorySettings, res: RepositorySettings },
  /** Settings → Storage: the database's size, its largest sessions, the search index's share. */
  'storage:report': { req: Empty, res: StorageReportView },
  /** The database's backups, newest first. */
  'storage:backups': { req: Empty, res: BackupList },
  /** Takes a backup now (while sessions run); answers once it is taken and checked. */
  'storage:backup': { req: Empty, res: BackupView },
  /** What `storage:clean` would delete: archived sessions last used that many days ago or more. */
  'storage:preview': { req: CleanUpAge, res: CleanUpPreview },
  /** Deletes the archived sessions the preview with this cutoff counted; every window drops them. */
  'storage:clean': { req: CleanUp, res: z.object({ deleted: z.number().int().nonnegative() }) },
  /** Asks for a compaction, done at the next start (it needs the database to itself). */
  'storage:compact': { req: Empty, res: CompactionRequested },
  /** Quits and starts again (the desktop app); `unsupported` in a headless host. */
  'host:restart': { req: Empty, res: Ok },
  /** The text of a crash log the window was told of (`host:problem`), for Copy details. */
  'crashes:read': { req: CrashReportRequest, res: CrashReport },
} as const;

/** Why the host cannot save (issue 13): the disk is full, the folder unwritable, the file damaged or newer. */
export const StorageProblem = z.enum(['disk_full', 'unwritable', 'corrupt', 'newer']);
export const StorageStatus = z.object({
  ok: z.boolean(),
  problem: StorageProblem.optional(),
  /** What the person reads: the file, what happened and what to do. */
  message: z.string().optional(),
});
export type StorageProblemT = z.output<typeof StorageProblem>;
export type DebugInfoT = z.output<typeof DebugInfo>;
export type StorageStatusT = z.output<typeof StorageStatus>;

export const events = {
  /** A stored transcript event, to windows watching its session, in seq order. */
  'session:event': SessionEvent,
  /** A session's view changed (state, title, running, pending count): to every window. */
  'session:updated': SessionView,
  /** A permission request opened: to every window watching its session. */
  'permission:requested': PermissionView,
  /** A permission request was answered or withdrawn: to every window watching its session. */
  'permission:resolved': z.object({ requestId: z.string(), sessionId: SessionId }),
  /** A question from the agent waits for an answer: to every window watching its session. */
  'question:asked': QuestionView,
  /** A question was answered or withdrawn: to every window watching its session. */
  'question:resolved': z.object({ requestId: z.string(), sessionId: SessionId }),
  /** A session was deleted: every window drops it. */
  'session:deleted': z.object({ sessionId: SessionId }),
  /** The window fell too far behind; it must reload from `lastSeq` with transcript:since. */
  'session:resync': z.object({ sessionId: SessionId, lastSeq: z.number().int().nonnegative() }),
  /** The agent catalogue changed (saved, removed, imported, tested): to every window. */
  'agents:changed': AgentList,
  /** A step of an `agents:test`: to the window that asked. */
  'agents:progress': AgentTestProgress,
  /**
   * New lines of a session's Agent log: only to windows that opened it (`agents:log`), batched;
   * `dropped` lines did not fit the batch's bound (the log file has them).
   */
  'agent:log': z.object({ sessionId: SessionId, entries: z.array(AgentLogEntry), dropped: z.number().int().nonnegative() }),
  /** New output of a terminal an agent runs: to windows watching its session, throttled per terminal. */
  'terminal:output': TerminalOutput,
  /** Saving failed (`ok: false`, to every window, and to each window that connects meanwhile) or works again. */
  'host:storage': StorageStatus,
  /** A session's modes, models, options or usage changed: to every window watching it. */
  'session:controls': SessionControlsEvent,
  /** Indexing older transcripts for search moved on (a few times a second at most), and when it is done: to every window. */
  'search:progress': SearchProgress,
  /** Settings changed (from any window): to every window, so they agree (the theme among them). */
  'settings:changed': Settings,
  /** The MCP servers changed (saved, removed, turned on or off, tested): to every window. */
  'mcp:changed': McpServerList,
  /** A step of an `mcp:test`: to the window that asked. */
  'mcp:progress': McpTestProgress,
  /** A registry agent's download and install moved on: to the window that asked. */
  'registry:progress': RegistryInstallProgress,
  /** The registry index in use changed (refreshed): to every window. */
  'registry:changed': RegistryChanged,
  /** A session's branch, ahead/behind or dirty changed: to every window watching it. */
  'workspace:status': WorkspaceStatus,
  /** A session's files changed (a write, a tool call, a turn's end, a restore…): windows showing Changes list them again. */
  'workspace:changed': ChangesChanged,
  /** New output of a session's setup command: to every window watching it. */
  'setup:output': SetupOutput,
  /** A backup was taken, failed or rotated away: to every window (Settings → Storage lists them). */
  'storage:backups': BackupList,
  /** The host hit an uncaught error, logged it (the crash log named) and went on: to every window. */
  'host:problem': HostProblem,
} as const;

export type Commands = typeof commands;
export type CommandName = keyof Commands;
export type CommandRequest<C extends CommandName> = z.input<Commands[C]['req']>;
export type CommandParams<C extends CommandName> = z.output<Commands[C]['req']>;
export type CommandResponse<C extends CommandName> = z.output<Commands[C]['res']>;
export type Events = typeof events;
export type EventName = keyof Events;
export type EventPayload<E extends EventName> = z.output<Events[E]>;

export type SessionStateT = z.output<typeof SessionState>;
export type SessionViewT = z.output<typeof SessionView>;
export type PermissionViewT = z.output<typeof PermissionView>;
export type QuestionViewT = z.output<typeof QuestionView>;
export type PermissionOptionT = z.output<typeof PermissionOption>;
export type PermissionDeciderT = z.output<typeof PermissionDecider>;
export type PermissionRuleT = z.output<typeof PermissionRule>;
export type ToolCallViewT = z.output<typeof ToolCallView>;
export type SettingsT = z.output<typeof Settings>;
export type HostInfoT = z.output<typeof HostInfo>;
export type AgentInfoT = z.output<typeof AgentInfo>;
export type SwitchResultT = z.output<typeof SwitchResult>;
export type ExportFormatT = z.output<typeof ExportFormat>;
export type ExportResultT = z.output<typeof ExportResult>;
export type EventPageT = z.output<typeof EventPage>;
export type AgentLogT = z.output<typeof AgentLog>;
export type FolderCheckT = z.output<typeof FolderCheck>;
export type AgentSessionInfoT = z.output<typeof AgentSessionInfo>;
export type AgentSessionPageT = z.output<typeof AgentSessionPage>;

export const commandNames = Object.keys(commands) as CommandName[];
export const eventNames = Object.keys(events) as EventName[];

/** Every command answers with this wrapper across a process boundary. */
export type Result<T> = { ok: true; value: T } | { ok: false; error: WireError };

export const WireError = z.object({
  code: ErrorCode,
  message: z.string(),
  details: WireErrorDetails.optional(),
});
export type WireError = z.output<typeof WireError>;

/** The renderer-side API: one function per command, one subscription per event. */
export type Api = {
  [C in CommandName]: (req: CommandRequest<C>) => Promise<Result<CommandResponse<C>>>;
} & {
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
  /** Fires when the transport reconnects (WebSocket) so views can catch up from their last seq. */
  onReconnect(listener: () => void): () => void;
};

export { commandChannel, eventChannel, channelPrefix } from './channels';

/**
 * The WebSocket frames carrying the same contract. A request's payload is any JSON here: its
 * shape depends on `command`, and `HostPort.dispatch` checks it against `commands[command].req`
 * (one place for both transports), answering `invalid_request` / `unknown_command` in a
 * response frame rather than dropping the socket. Responses and events are typed by the tables.
 */
export const WsRequest = z.object({
  id: z.number().int(),
  command: z.string(),
  payload: z.json().optional(),
});
const WireResult = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), value: z.json() }),
  z.object({ ok: z.literal(false), error: WireError }),
]);
const eventFrame = <E extends EventName>(event: E) =>
  z.object({ type: z.literal('event'), event: z.literal(event), payload: events[event] });
/** Every frame the WebSocket carries: a response, or any event of the table (none can be left out). */
export const WsFrame = z.union([
  z.object({ type: z.literal('response'), id: z.number().int(), result: WireResult }),
  ...eventNames.map((name) => eventFrame(name)),
]);
