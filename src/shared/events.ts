/**
 * Transcript events on the wire: one payload schema per kind, so the host builds payloads
 * through these types and the renderer narrows on `kind` (ADR 0009). Closed word sets (state
 * reasons, notice kinds, tool kinds and statuses, stop reasons) are `z.enum`s both sides use.
 *
 * Nested ACP structures are modelled with the fields ACP fixes; whatever an agent sent beyond
 * them (`_meta`, annotations, extension fields, unknown update variants) is kept by the host in
 * the payload's one `extra` field, so nothing is lost and nothing else is untyped.
 */
import { z } from 'zod';
import { ElicitationContent, ElicitationQuestion } from './elicitation';
import { ErrorCode } from './errors';
import { AttachmentRecord } from './prompt';
import { TurnUsage } from './session-controls';

/** Why a session is in its state. Every `transition(...)` names one of these. */
export const StateReason = z.enum([
  /** STARTING for the first time, and the agent session that came up for it. */
  'new',
  /** STARTING again from ENDED (the next prompt woke it). */
  'resume',
  'resumed',
  'loaded',
  'recreated',
  /** ACTIVE or DETACHED: the agent made this session as a fork of another's (`session/fork`). */
  'forked',
  'watched',
  'unwatched',
  'closed_by_user',
  'idle_timeout',
  'host_shutdown',
  'agent_exited',
  'recovered',
  /** The registry entry no longer matched a live agent session; it was stopped to be resumed. */
  'stale',
  'crash_loop',
  /** ENDED: the agent started but `initialize`, `session/new` or the like failed (not a sign-in). */
  'start_failed',
  /** ENDED: the agent refused to start a session until the person signs in (see `auth_required`). */
  'auth_required',
  /** ENDED: the agent's process could not be started at all (no such command, it died at once). */
  'agent_unavailable',
  /** ENDED for good: imported from an exported file, a copy with no agent session. */
  'imported',
]);
export type StateReason = z.output<typeof StateReason>;

/** Why a turn ended without the agent's own stop reason: a state reason, or one of these. */
export const TurnEndReason = z.enum([...StateReason.options, 'agent_ignored_cancel', 'cancelled_before_start']);
export type TurnEndReason = z.output<typeof TurnEndReason>;

/** How a question from the agent was answered: with the content (`accept`), refused (`decline`) or dismissed (`cancel`). */
export const QuestionAction = z.enum(['accept', 'decline', 'cancel']);
export type QuestionAction = z.output<typeof QuestionAction>;

/** Why a pending permission request (or question) was answered `cancelled` without a person. */
export const PermissionCancelReason = z.enum([...StateReason.options, 'agent_withdrew', 'turn_cancelled', 'host_restart']);
export type PermissionCancelReason = z.output<typeof PermissionCancelReason>;

/** What a host notice in the transcript is about. */
export const NoticeKind = z.enum([
  'session_recreated',
  'stop_timeout',
  'agent_exited',
  'signed_in',
  /** An agent's file request named a path outside the session's folders: refused. */
  'path_refused',
  /** A remembered choice (mode, model, option) was applied to a new session. */
  'default_applied',
  /** The MCP servers a start gave the agent, and those left out with the reason. */
  'mcp_servers',
  /** The person committed the worktree's changes, merged its branch into the base or rebased it (issue 19). */
  'git_commit',
  'git_merge',
  'git_rebase',
  /** The worktree folder was removed (archive) or made again (restore, recreate), or found gone at start-up. */
  'worktree_removed',
  'worktree_recreated',
  'worktree_missing',
  /** A checkpoint before a turn could not be taken (git's words follow): that turn cannot be restored. */
  'checkpoint_failed',
  /** The setup command of a new worktree was still running when Switchboard stopped. */
  'setup_interrupted',
  /** The agent asked a question Switchboard cannot show (a malformed form, a URL that may not be opened): refused with the reason. */
  'question_refused',
  /** This session was forked from another (`sessionId` names it); the transcript above is a copy up to that point. */
  'forked',
  /** This session was imported from an exported file: a read-only copy with no agent session. */
  'imported',
  /** The computer slept: deadlines moved by the sleep, or an agent that died meanwhile. */
  'slept',
]);
export type NoticeKind = z.output<typeof NoticeKind>;

/** As ACP fixes them. */
export const ToolKind = z.enum(['read', 'edit', 'delete', 'move', 'search', 'execute', 'think', 'fetch', 'switch_mode', 'other']);
export type ToolKind = z.output<typeof ToolKind>;
export const ToolCallStatus = z.enum(['pending', 'in_progress', 'completed', 'failed']);
export type ToolCallStatus = z.output<typeof ToolCallStatus>;
export const StopReason = z.enum(['end_turn', 'max_tokens', 'max_turn_requests', 'refusal', 'cancelled']);
export type StopReason = z.output<typeof StopReason>;
/** A turn ends with the agent's stop reason, or `error` when the host ended it on a failure. */
export const TurnStopReason = z.enum([...StopReason.options, 'error']);
export type TurnStopReason = z.output<typeof TurnStopReason>;
export const PlanEntryPriority = z.enum(['high', 'medium', 'low']);
export const PlanEntryStatus = z.enum(['pending', 'in_progress', 'completed']);
export const PermissionOptionKind = z.enum(['allow_once', 'allow_always', 'reject_once', 'reject_always']);
export const PermissionOutcome = z.enum(['selected', 'cancelled']);
export type PermissionOutcome = z.output<typeof PermissionOutcome>;

/** A JSON value: what an agent sent as free-form data (tool input and output). */
export const Json = z.json();
export type Json = z.output<typeof Json>;

/**
 * The one field that carries what an agent sent and we do not model, by the name the agent
 * used (`_meta`, extension fields, a nested value whose unmodelled parts the host kept whole).
 */
export const Extra = z.record(z.string(), Json);
export type Extra = z.output<typeof Extra>;

/** ACP content block (in tool call content), with the fields ACP fixes. */
export const ContentBlock = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string() }),
  z.object({ type: z.literal('image'), mimeType: z.string(), data: z.string(), uri: z.string().nullish() }),
  z.object({ type: z.literal('audio'), mimeType: z.string(), data: z.string() }),
  z.object({
    type: z.literal('resource_link'),
    name: z.string(),
    uri: z.string(),
    title: z.string().nullish(),
    description: z.string().nullish(),
    mimeType: z.string().nullish(),
    size: z.number().nullish(),
  }),
  z.object({
    type: z.literal('resource'),
    resource: z.object({ uri: z.string(), mimeType: z.string().nullish(), text: z.string().optional(), blob: z.string().optional() }),
  }),
]);
export type ContentBlock = z.output<typeof ContentBlock>;

/** A file's old and new text (`oldText` absent or null: the file is new). */
export const DiffContent = z.object({ type: z.literal('diff'), path: z.string(), oldText: z.string().nullish(), newText: z.string() });
export type DiffContent = z.output<typeof DiffContent>;

/** What a tool call shows: content, a file diff, or a terminal the agent runs. */
export const ToolCallContent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('content'), content: ContentBlock }),
  DiffContent,
  z.object({ type: z.literal('terminal'), terminalId: z.string() }),
]);
export type ToolCallContent = z.output<typeof ToolCallContent>;

export const ToolCallLocation = z.object({ path: z.string(), line: z.number().nullish() });
export type ToolCallLocation = z.output<typeof ToolCallLocation>;

export const PlanEntry = z.object({ content: z.string(), priority: PlanEntryPriority, status: PlanEntryStatus });
export type PlanEntry = z.output<typeof PlanEntry>;

export const AvailableCommand = z.object({
  name: z.string(),
  description: z.string(),
  input: z.object({ hint: z.string() }).nullish(),
});
export type AvailableCommand = z.output<typeof AvailableCommand>;

/** Permission option as the agent named it. */
export const PermissionOption = z.object({ optionId: z.string(), name: z.string(), kind: PermissionOptionKind });

/** A tool call as a permission request shows it. */
export const ToolCallView = z.object({
  toolCallId: z.string(),
  title: z.string(),
  kind: ToolKind.optional(),
  status: ToolCallStatus.optional(),
  content: z.array(ToolCallContent).optional(),
  locations: z.array(ToolCallLocation).optional(),
  rawInput: Json.optional(),
});

export const PermissionDecider = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('window'), clientId: z.string(), label: z.string().optional() }),
  z.object({ kind: z.literal('timeout') }),
  z.object({ kind: z.literal('rule'), ruleId: z.string() }),
  z.object({ kind: z.literal('cancel'), reason: PermissionCancelReason }),
]);

/**
 * How a person signs in with one method: `agent` (Switchboard calls ACP `authenticate`),
 * `env_var` (the person gives a value Switchboard puts in the agent's environment), `terminal`
 * (the person runs a command; ACP forbids passing it to `authenticate`).
 */
export const AuthMethodKind = z.enum(['agent', 'env_var', 'terminal']);
export type AuthMethodKind = z.output<typeof AuthMethodKind>;

export const AuthMethodView = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().optional(),
  kind: AuthMethodKind,
  /** `env_var`: the variable the agent reads. */
  envVar: z.string().optional(),
  /** `terminal`: the exact command line to run. */
  command: z.string().optional(),
  /** Not listed by the agent: Switchboard read it from the agent's message or knows the case (root). */
  fromHint: z.boolean().optional(),
});
export type AuthMethodView = z.output<typeof AuthMethodView>;

/** The agent asked for sign-in: its own words, the methods it offers, and a hint of ours where we know one. */
export const AuthRequest = z.object({
  /** The agent's message, as it sent it. */
  message: z.string(),
  methods: z.array(AuthMethodView),
  /** Switchboard's own advice (e.g. `IS_SANDBOX=1` for an agent that refuses to run as root). */
  hint: z.string().optional(),
  /** Whether starting the session or a prompt was refused. */
  during: z.enum(['start', 'prompt']),
});
export type AuthRequest = z.output<typeof AuthRequest>;

/** How a terminal's command ended (ACP `TerminalExitStatus`): a code, or the signal that ended it. */
export const TerminalExit = z.object({ exitCode: z.number().int().nullish(), signal: z.string().nullish() });
export type TerminalExit = z.output<typeof TerminalExit>;

/** A message chunk: its text, and the message it belongs to where the agent names one. */
const text = z.object({ text: z.string(), messageId: z.string().optional(), extra: Extra.optional() });
/** Older rows end or start turns without naming the prompt. */
const promptRef = { clientMessageId: z.string().optional() };

const ToolCallFields = {
  toolCallId: z.string(),
  kind: ToolKind.optional(),
  content: z.array(ToolCallContent).optional(),
  locations: z.array(ToolCallLocation).optional(),
  rawInput: Json.optional(),
  rawOutput: Json.optional(),
  extra: Extra.optional(),
};

/** An ACP `session/update` we do not model (its variant name, everything else in `extra`). */
const AgentUpdateNow = z.object({ sessionUpdate: z.string(), extra: Extra });
/** How rows before ADR 0009 stored it: the whole update under `update`. */
const AgentUpdateBefore = z
  .object({ update: z.object({ sessionUpdate: z.string() }).catchall(Json) })
  .transform(({ update: { sessionUpdate, ...extra } }) => ({ sessionUpdate, extra }));

/** One payload schema per stored kind. */
export const eventPayloads = {
  /** `attachments`: what the prompt carried beyond its text (images, files, mentions), as chips. */
  user_message: z.object({ text: z.string(), ...promptRef, attachments: z.array(AttachmentRecord).optional() }),
  agent_message: text,
  agent_thought: text,
  /** ACP's own default: a tool call that names no status is pending. */
  tool_call: z.object({ ...ToolCallFields, title: z.string(), status: ToolCallStatus.default('pending') }),
  tool_call_update: z.object({ ...ToolCallFields, title: z.string().optional(), status: ToolCallStatus.optional() }),
  plan: z.object({ entries: z.array(PlanEntry), extra: Extra.optional() }),
  session_info: z.object({ title: z.string().optional(), updatedAt: z.string().optional(), extra: Extra.optional() }),
  available_commands: z.object({ commands: z.array(AvailableCommand), extra: Extra.optional() }),
  turn_started: z.object(promptRef),
  turn_ended: z.object({
    stopReason: TurnStopReason,
    ...promptRef,
    reason: TurnEndReason.optional(),
    /** What the turn used, where the agent said (its answer's `usage`, `usage_update`s during it). */
    usage: TurnUsage.optional(),
  }),
  permission_requested: z.object({
    requestId: z.string(),
    toolCall: ToolCallView,
    options: z.array(PermissionOption),
    extra: Extra.optional(),
  }),
  permission_resolved: z.object({
    requestId: z.string(),
    title: z.string().optional(),
    outcome: PermissionOutcome,
    optionId: z.string().optional(),
    optionName: z.string().optional(),
    decider: PermissionDecider,
    /** Said to the person as it is ("Denied automatically: …", a remembered rule, a cancel reason). */
    reason: z.string().optional(),
  }),
  error: z.object({ code: ErrorCode, message: z.string(), stderrTail: z.array(z.string()).optional() }),
  /** The agent asked the person something (`elicitation/create`): a form already normalised, or a URL already checked. */
  question_asked: z.object({
    requestId: z.string(),
    toolCallId: z.string().optional(),
    question: ElicitationQuestion,
    extra: Extra.optional(),
  }),
  /**
   * How it was answered, and by whom (a window, the deadline, a cancel). `content` is the
   * accepted answer with every secret field masked: the transcript never holds a secret.
   */
  question_answered: z.object({
    requestId: z.string(),
    action: QuestionAction,
    content: ElicitationContent.optional(),
    decider: PermissionDecider,
    reason: z.string().optional(),
  }),
  /** The agent said the page a URL question opened is done with (`elicitation/complete`). */
  question_completed: z.object({ requestId: z.string(), elicitationId: z.string() }),
  /** `kind` is absent in rows written before notice kinds existed; `sessionId` names a session it links to (the parent of a fork). */
  notice: z.object({ kind: NoticeKind.optional(), text: z.string(), stderrTail: z.array(z.string()).optional(), sessionId: z.string().optional() }),
  agent_update: z.union([AgentUpdateNow, AgentUpdateBefore]),
  auth_required: AuthRequest,
  /** The agent wrote a file through `fs/write_text_file` (real path); the diff when both sides are small enough to keep. */
  file_written: z.object({ path: z.string(), created: z.boolean(), bytes: z.number().int().nonnegative(), diff: DiffContent.optional() }),
  /**
   * The session's files before a turn (or before an archive removed the worktree), on a private
   * ref: `checkpoints:restore` with `checkpointId` brings them back. `clientMessageId` names the
   * turn it was taken before. `partial`: the agent announced a tool call before the checkpoint
   * was done, so it may already hold that tool's first changes (see ADR 0023).
   */
  checkpoint: z.object({
    checkpointId: z.string(),
    clientMessageId: z.string().optional(),
    commit: z.string(),
    reason: z.enum(['turn', 'archive']),
    partial: z.boolean().optional(),
  }),
  /** The person made files equal a checkpoint (`restore`), the base for some files (`revert`) or all (`discard`); `undo` brings back what was there. */
  files_restored: z.object({
    action: z.enum(['restore', 'revert', 'discard']),
    /** The checkpoint restored (`restore`). */
    checkpointId: z.string().optional(),
    undo: z.string(),
    removed: z.number().int().nonnegative(),
    written: z.number().int().nonnegative(),
    /** The first paths changed (at most 50). */
    paths: z.array(z.string()),
    text: z.string(),
  }),
  /** The repository's setup command ran in the new worktree: its last output and how it ended. */
  setup_command: z.object({
    command: z.string(),
    output: z.string(),
    truncated: z.boolean(),
    exit: TerminalExit,
    durationMs: z.number().nonnegative(),
    /** It could not start, or ended with a code other than 0 or a signal. */
    failed: z.boolean(),
    /** Why it could not start, or was stopped (the session closed, Switchboard quit). */
    message: z.string().optional(),
  }),
  /** A terminal the agent ran ended: its command and its final output, so a reload shows it. */
  terminal_output: z.object({
    terminalId: z.string(),
    command: z.string(),
    output: z.string(),
    truncated: z.boolean(),
    exit: TerminalExit,
  }),
} as const;

export type EventPayloads = typeof eventPayloads;
/** What the host stores. */
export const EventKind = z.enum(Object.keys(eventPayloads) as [keyof EventPayloads, ...(keyof EventPayloads)[]]);
export type EventKind = keyof EventPayloads;
export type PayloadOf<K extends EventKind> = z.output<EventPayloads[K]>;

/**
 * Kinds the transcript never shows as a row (bookkeeping; a sign-in request has its own panel).
 * They do not end a message either: chunks of the agent's message on both sides of one are one
 * message, in the window's bubbles and in search alike.
 */
export const UNSHOWN_KINDS: ReadonlySet<string> = new Set<EventKind>(['session_info', 'available_commands', 'agent_update', 'auth_required']);
/** A kind with its payload, correlated (what the host hands to `EventLog`). */
export type EventBody = { [K in EventKind]: { kind: K; payload: PayloadOf<K> } }[EventKind];

/**
 * A stored row whose payload does not parse for its kind (written by an older or newer
 * version, or damaged): shown as such, never dropped and never a crash.
 */
export const UnreadablePayload = z.object({ storedKind: z.string(), raw: z.string() });

const header = { sessionId: z.uuid(), seq: z.number().int().positive(), at: z.number() };
const variant = <K extends string, P extends z.ZodType>(kind: K, payload: P) =>
  z.object({ ...header, kind: z.literal(kind), payload });

/** A stored transcript event; `payload` is typed by `kind`. */
export const SessionEvent = z.discriminatedUnion('kind', [
  variant('user_message', eventPayloads.user_message),
  variant('agent_message', eventPayloads.agent_message),
  variant('agent_thought', eventPayloads.agent_thought),
  variant('tool_call', eventPayloads.tool_call),
  variant('tool_call_update', eventPayloads.tool_call_update),
  variant('plan', eventPayloads.plan),
  variant('session_info', eventPayloads.session_info),
  variant('available_commands', eventPayloads.available_commands),
  variant('turn_started', eventPayloads.turn_started),
  variant('turn_ended', eventPayloads.turn_ended),
  variant('permission_requested', eventPayloads.permission_requested),
  variant('permission_resolved', eventPayloads.permission_resolved),
  variant('error', eventPayloads.error),
  variant('question_asked', eventPayloads.question_asked),
  variant('question_answered', eventPayloads.question_answered),
  variant('question_completed', eventPayloads.question_completed),
  variant('notice', eventPayloads.notice),
  variant('agent_update', eventPayloads.agent_update),
  variant('auth_required', eventPayloads.auth_required),
  variant('file_written', eventPayloads.file_written),
  variant('terminal_output', eventPayloads.terminal_output),
  variant('checkpoint', eventPayloads.checkpoint),
  variant('files_restored', eventPayloads.files_restored),
  variant('setup_command', eventPayloads.setup_command),
  variant('unreadable', UnreadablePayload),
]);
export type SessionEventT = z.output<typeof SessionEvent>;
/** The event of one kind. */
export type EventOf<K extends SessionEventT['kind']> = Extract<SessionEventT, { kind: K }>;

/**
 * A value that came off a JSON wire (JSON-RPC from an agent, `JSON.parse`) is JSON by
 * construction; this names that fact where a library types it `unknown`.
 */
export function decodedJson(value: unknown): Json | undefined {
  return value === undefined ? undefined : (value as Json);
}

/** A filter that narrows events to one kind: `events.filter(ofKind('turn_ended'))`. */
export function ofKind<K extends SessionEventT['kind']>(kind: K): (e: SessionEventT) => e is EventOf<K> {
  return (e): e is EventOf<K> => e.kind === kind;
}
