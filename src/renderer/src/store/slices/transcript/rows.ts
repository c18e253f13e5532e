import type {
  AttachmentRecord,
  ErrorCode,
  EventOf,
  Json,
  PermissionDeciderT,
  PermissionOutcome,
  PlanEntry,
  SessionEventT,
  ToolCallContent,
  ToolCallLocation,
  ToolCallStatus,
  ToolKind,
  TurnEndReason,
  TurnStopReason,
  TurnUsage,
} from '../../../../../shared/contract';
import { UNSHOWN_KINDS } from '../../../../../shared/contract';
import type { ElicitationQuestionT } from '../../../../../shared/elicitation';
import { TextPieces } from '../../../lib/text-pieces';

export interface ToolCallState {
  toolCallId: string;
  title: string;
  kind: ToolKind | undefined;
  status: ToolCallStatus | undefined;
  content: readonly ToolCallContent[];
  locations: readonly ToolCallLocation[];
  rawInput: Json | undefined;
  /** Final output of the terminals this call embeds, once each ended (stored `terminal_output`). */
  terminalsDone?: Readonly<Record<string, TerminalDone>>;
}

export type TerminalDone = EventOf<'terminal_output'>['payload'];

export type { PlanEntry };

/** Who answered a permission request. */
export type Decider = PermissionDeciderT;

export interface PermissionResolution {
  outcome: PermissionOutcome;
  optionName: string | undefined;
  optionId: string | undefined;
  decider: Decider;
  reason: string | undefined;
}

/** How a question from the agent was answered (its answer as the transcript keeps it: secrets masked). */
export type QuestionAnswer = Omit<EventOf<'question_answered'>['payload'], 'requestId'>;

/**
 * The key of a prompt's row, while it is sent and once it is stored: the same, so the stored
 * row takes the sent one's place in the list (its element, its measured height) instead of
 * replacing it with a new one that is mounted, laid out and measured again.
 */
export const promptRowKey = (clientMessageId: string): string => `prompt-${clientMessageId}`;

/** One visual row of the transcript; `key` stays stable while the row grows. */
export type Row =
  /** `seq`: the stored message's (absent while it is being sent): a fork point for Edit and resend. */
  | { type: 'user'; key: string; text: string; pending: boolean; attachments?: readonly AttachmentRecord[]; seq?: number }
  /**
   * `pieces`: the chunks `text` came in (shared by the rows of one message as it streams; see
   * TextPieces). Only `fold` makes them; a row given another text must not keep them.
   */
  | { type: 'agent'; key: string; text: string; pieces?: TextPieces }
  | { type: 'thought'; key: string; text: string; pieces?: TextPieces }
  | { type: 'tool'; key: string; call: ToolCallState }
  | { type: 'plan'; key: string; entries: readonly PlanEntry[] }
  | { type: 'stopped'; key: string; text: string }
  /** What a turn used, where the agent said (tokens, cost, context window). */
  | { type: 'usage'; key: string; usage: TurnUsage }
  | { type: 'error'; key: string; code: ErrorCode; message: string; stderrTail: readonly string[] }
  | {
      type: 'permission';
      key: string;
      requestId: string;
      title: string;
      toolKind: ToolKind | undefined;
      resolution: PermissionResolution | undefined;
    }
  | {
      type: 'question';
      key: string;
      requestId: string;
      question: ElicitationQuestionT;
      answer: QuestionAnswer | undefined;
      /** A URL question whose page the agent said is done with (`elicitation/complete`). */
      completed: boolean;
    }
  /** `sessionId`: a session the notice links to (a fork's parent). */
  | { type: 'notice'; key: string; text: string; sessionId?: string }
  /** The agent wrote a file through Switchboard: the diff where it was small enough to keep. */
  | { type: 'file'; key: string; written: EventOf<'file_written'>['payload'] }
  /**
   * A turn's end line when a checkpoint was taken before it: `Restore to before this turn`.
   * `partial`: the agent started a tool before the checkpoint was done (it may hold its first changes).
   */
  | { type: 'turn-end'; key: string; checkpointId: string; partial: boolean }
  /** The person made files equal a checkpoint or the base; `undo` brings back what was there. */
  | { type: 'restored'; key: string; restored: EventOf<'files_restored'>['payload'] }
  /** The repository's setup command ran in the new worktree. */
  | { type: 'setup'; key: string; setup: EventOf<'setup_command'>['payload'] }
  /** A stored event this version cannot read: shown, so the transcript never hides a gap. */
  | { type: 'unreadable'; key: string; storedKind: string };

/**
 * Kinds that never make a row; they also do not split a run of message chunks (search groups
 * messages by the same set). `auth_required` is shown by the sign-in panel (the error row beside
 * it carries the agent's words).
 */
const INVISIBLE: ReadonlySet<string> = UNSHOWN_KINDS;

/** Turn ends worth a note; a normal end (and an error, shown by its own row) needs none. */
const STOP_NOTES: Readonly<Record<TurnStopReason, string | undefined>> = {
  end_turn: undefined,
  error: undefined,
  cancelled: 'Stopped',
  max_tokens: 'Stopped: the agent reached its token limit',
  max_turn_requests: 'Stopped: the agent reached its request limit',
  refusal: 'The agent refused to continue',
};

/**
 * A cancelled turn says how it was stopped: by Stop (the agent acknowledged, ignored it, or
 * the prompt never reached it) or by the session closing under it.
 */
const CANCEL_NOTES: Partial<Record<TurnEndReason, string>> = {
  cancelled_before_start: 'Stopped before the agent started on it',
  agent_ignored_cancel: 'Stopped: the agent did not acknowledge Stop',
  closed_by_user: 'Stopped: the session was closed',
  idle_timeout: 'Stopped: the session was put to sleep',
  host_shutdown: 'Stopped: Switchboard shut down',
  agent_exited: 'Stopped: the agent exited',
};

/** The note a turn's end leaves, if any. */
function stopNote(payload: EventOf<'turn_ended'>['payload']): string | undefined {
  if (payload.stopReason === 'cancelled' && payload.reason) return CANCEL_NOTES[payload.reason] ?? STOP_NOTES.cancelled;
  return STOP_NOTES[payload.stopReason];
}

type ToolEvent = EventOf<'tool_call'> | EventOf<'tool_call_update'>;

function toolFrom(e: ToolEvent, prev: ToolCallState | undefined): ToolCallState {
  const p = e.payload;
  // An update carries only the fields that changed; absent means "unchanged".
  return {
    toolCallId: p.toolCallId,
    title: p.title ?? prev?.title ?? 'Tool call',
    kind: p.kind ?? prev?.kind,
    status: p.status ?? prev?.status,
    content: p.content ?? prev?.content ?? [],
    locations: p.locations ?? prev?.locations ?? [],
    rawInput: p.rawInput ?? prev?.rawInput,
    ...(prev?.terminalsDone ? { terminalsDone: prev.terminalsDone } : {}),
  };
}

function resolutionFrom(p: EventOf<'permission_resolved'>['payload']): PermissionResolution {
  return {
    outcome: p.outcome,
    optionName: p.optionName,
    optionId: p.optionId,
    decider: p.decider,
    reason: p.reason,
  };
}

/** The rows of a transcript as the view reads them. */
export interface RowLayout {
  readonly count: number;
  keyAt(index: number): string | undefined;
}

export interface RowList extends RowLayout {
  at(index: number): Row | undefined;
  /** The row showing the `i`th event folded (an event that makes no row: the row before it). */
  rowOfEvent(i: number): number | undefined;
  /**
   * Same object until a row is added or the rows are regrouped. A row that changes in place
   * (a streaming bubble, a tool card update) keeps its index and key, so the list's layout is
   * unchanged and only that row's subscribers re-render.
   */
  readonly layout: RowLayout;
}

class LayoutSnapshot implements RowLayout {
  constructor(
    protected readonly rows: readonly Row[],
    readonly count: number,
  ) {}
  keyAt(index: number): string | undefined {
    return index < this.count ? this.rows[index]?.key : undefined;
  }
}

class ListSnapshot extends LayoutSnapshot implements RowList {
  constructor(
    rows: readonly Row[],
    count: number,
    readonly layout: RowLayout,
    /** Shared with later snapshots, which may have folded more events onto it. */
    private readonly rowOf: readonly number[],
  ) {
    super(rows, count);
  }
  at(index: number): Row | undefined {
    return index < this.count ? this.rows[index] : undefined;
  }
  rowOfEvent(i: number): number | undefined {
    const row = i >= 0 ? this.rowOf[i] : undefined;
    return row === undefined || row < 0 || row >= this.count ? undefined : row;
  }
}

export const emptyRowList: RowList = (() => {
  const layout = new LayoutSnapshot([], 0);
  return new ListSnapshot([], 0, layout, []);
})();

/**
 * Folds stored events into rows: consecutive message (or thought) chunks become one bubble,
 * a tool call and its later updates become one card where the call first appeared, a plan is
 * shown once per turn with its latest entries, and a permission request row gets its outcome.
 *
 * Incremental: `update` folds only the events appended since the previous call (a new array
 * that starts with the folded ones, or the same array grown in place), so a long
 * stream costs O(1) per event (an update to an earlier card or plan is a replace at a known
 * index). Only a change that is not an append (an older page prepended, another session)
 * regroups from scratch. Snapshots share one backing array that only grows or has a row
 * replaced by a newer version of itself (same key), so an older snapshot stays usable.
 */
export class RowGrouper {
  private rows: Row[] = [];
  /** Per folded event, the row it shows in (a search hit is scrolled to by seq). */
  private rowOf: number[] = [];
  /** The row the event being folded added or changed. */
  private touched: number | undefined;
  private toolIndex = new Map<string, number>();
  private permissionIndex = new Map<string, number>();
  private questionIndex = new Map<string, number>();
  /** Which tool row embeds each terminal (its final output folds into that row). */
  private terminalIndex = new Map<string, number>();
  private planIndex: number | undefined;
  /** Turn checkpoints not yet shown on a turn's end line, by the prompt they were taken before. */
  private checkpoints = new Map<string, { checkpointId: string; partial: boolean }>();
  /** The latest turn checkpoint with no prompt id (an older host, a queued prompt). */
  private looseCheckpoint: { checkpointId: string; partial: boolean } | undefined;
  /** Turns that ended before their checkpoint was stored: the checkpoint adds their end line when it comes. */
  private endedWithout = new Set<string>();
  /** Prompt ids whose row has the prompt's key: a second stored prompt with the same id (an import) keys by seq. */
  private promptKeys = new Set<string>();
  /** The row that a following chunk of the same kind may extend. */
  private open: { index: number; kind: 'agent' | 'thought' } | undefined;
  private source: readonly SessionEventT[] = [];
  /** How many events of `source` are folded: the store appends to the same array in place. */
  private folded = 0;
  private first: SessionEventT | undefined;
  private last: SessionEventT | undefined;
  private changed = false;
  private list: RowList = emptyRowList;
  /** Work done so far, for tests: events folded, rebuilds from scratch, and evicted heads let go. */
  readonly stats = { folded: 0, regroups: 0, trims: 0 };

  update(events: readonly SessionEventT[]): RowList {
    if (events === this.source && events.length === this.folded) return this.list;
    let folded = this.folded;
    let appended =
      folded === 0 || (events.length >= folded && events[0] === this.first && events[folded - 1] === this.last);
    let regrouped = false;
    const dropped = appended ? 0 : this.headDropped(events);
    if (dropped > 0) {
      this.dropHead(dropped);
      folded -= dropped;
      appended = true;
      regrouped = true;
    }
    const countBefore = this.rows.length;
    if (!appended) {
      this.reset();
      regrouped = true;
      if (events.length > 0) this.stats.regroups++;
    }
    this.changed = regrouped;
    for (let i = appended ? folded : 0; i < events.length; i++) {
      this.touched = undefined;
      this.fold(events[i] as SessionEventT);
      this.rowOf.push(this.touched ?? this.rows.length - 1);
    }
    this.source = events;
    this.folded = events.length;
    this.first = events[0];
    this.last = events[events.length - 1];
    if (!this.changed) return this.list;
    const layout =
      regrouped || this.rows.length !== countBefore ? new LayoutSnapshot(this.rows, this.rows.length) : this.list.layout;
    this.list = new ListSnapshot(this.rows, this.rows.length, layout, this.rowOf);
    return this.list;
  }

  /**
   * How many events the store dropped from the head of the folded ones (the transcript's cap,
   * while the view follows), when `events` is the folded events minus that head, plus any
   * appended since; 0 when it is any other change.
   */
  private headDropped(events: readonly SessionEventT[]): number {
    const first = events[0];
    if (!first || !this.first || this.folded === 0) return 0;
    const d = first.seq - this.first.seq;
    if (d <= 0 || d >= this.folded || this.source[d] !== first) return 0;
    return events.length >= this.folded - d && events[this.folded - d - 1] === this.last ? d : 0;
  }

  /**
   * Forgets the first `d` folded events without regrouping the rest. A row that kept events
   * also shows keeps its key and everything it shows: a long answer whose first chunks were
   * evicted stays one whole message and is not split, re-parsed and remounted under a new key
   * (a 1 MB answer is more chunks than the cap). Rows only the dropped events made go; the
   * indices into the rows shift down.
   */
  private dropHead(d: number): void {
    this.stats.trims++;
    let cut = Number.POSITIVE_INFINITY;
    for (let i = d; i < this.folded; i++) {
      const row = this.rowOf[i] as number;
      if (row >= 0 && row < cut) cut = row;
    }
    const r = Number.isFinite(cut) ? cut : this.rows.length;
    // New arrays: snapshots handed out before keep the old ones intact.
    this.rows = this.rows.slice(r);
    this.rowOf = this.rowOf.slice(d, this.folded).map((row) => (row < 0 ? row : row - r));
    const shift = (index: Map<string, number>): Map<string, number> => {
      const next = new Map<string, number>();
      for (const [id, at] of index) if (at >= r) next.set(id, at - r);
      return next;
    };
    this.toolIndex = shift(this.toolIndex);
    this.permissionIndex = shift(this.permissionIndex);
    this.questionIndex = shift(this.questionIndex);
    this.terminalIndex = shift(this.terminalIndex);
    this.planIndex = this.planIndex !== undefined && this.planIndex >= r ? this.planIndex - r : undefined;
    this.open = this.open && this.open.index >= r ? { ...this.open, index: this.open.index - r } : undefined;
  }

  private userKey(e: EventOf<'user_message'>): string {
    const id = e.payload.clientMessageId;
    if (id === undefined || this.promptKeys.has(id)) return `user-${e.seq}`;
    this.promptKeys.add(id);
    return promptRowKey(id);
  }

  private reset(): void {
    // A new array: snapshots handed out before keep the old one intact.
    this.rows = [];
    this.promptKeys = new Set();
    this.rowOf = [];
    this.toolIndex = new Map();
    this.permissionIndex = new Map();
    this.questionIndex = new Map();
    this.terminalIndex = new Map();
    this.planIndex = undefined;
    this.open = undefined;
    this.checkpoints = new Map();
    this.looseCheckpoint = undefined;
    this.endedWithout = new Set();
  }

  private push(row: Row): number {
    this.changed = true;
    this.touched = this.rows.length;
    return this.rows.push(row) - 1;
  }

  private replace(index: number, row: Row): void {
    this.changed = true;
    this.touched = index;
    this.rows[index] = row;
  }

  private fold(e: SessionEventT): void {
    this.stats.folded++;
    if (INVISIBLE.has(e.kind)) return;
    if (e.kind === 'agent_message' || e.kind === 'agent_thought') {
      const kind = e.kind === 'agent_message' ? 'agent' : 'thought';
      const text = e.payload.text;
      const prev = this.open?.kind === kind ? this.rows[this.open.index] : undefined;
      if (this.open && prev && (prev.type === 'agent' || prev.type === 'thought')) {
        if (text !== '') {
          // From the second chunk on: a message of one chunk has nothing to read piecemeal.
          const pieces = prev.pieces ?? new TextPieces(prev.text);
          pieces.add(text);
          this.replace(this.open.index, { ...prev, text: prev.text + text, pieces });
        }
      } else {
        this.open = { index: this.push({ type: kind, key: `${kind}-${e.seq}`, text }), kind };
      }
      return;
    }
    // A checkpoint stored while the agent streams (a slow one) must not split its bubble.
    if (e.kind === 'checkpoint') return this.foldCheckpoint(e);
    this.open = undefined;
    switch (e.kind) {
      case 'user_message':
        this.planIndex = undefined;
        this.push({
          type: 'user',
          key: this.userKey(e),
          text: e.payload.text,
          pending: false,
          seq: e.seq,
          ...(e.payload.attachments?.length ? { attachments: e.payload.attachments } : {}),
        });
        break;
      case 'turn_started':
        break;
      case 'turn_ended': {
        const note = stopNote(e.payload);
        if (note) this.push({ type: 'stopped', key: `stop-${e.seq}`, text: note });
        if (e.payload.usage) this.push({ type: 'usage', key: `usage-${e.seq}`, usage: e.payload.usage });
        const id = e.payload.clientMessageId;
        const cp = (id === undefined ? undefined : this.checkpoints.get(id)) ?? this.looseCheckpoint;
        if (id !== undefined) this.checkpoints.delete(id);
        this.looseCheckpoint = undefined;
        if (cp) this.push({ type: 'turn-end', key: `turnend-${e.seq}`, ...cp });
        else if (id !== undefined) this.endedWithout.add(id);
        break;
      }
      case 'files_restored':
        this.push({ type: 'restored', key: `restored-${e.seq}`, restored: e.payload });
        break;
      case 'setup_command':
        this.push({ type: 'setup', key: `setup-${e.seq}`, setup: e.payload });
        break;
      case 'tool_call':
      case 'tool_call_update': {
        const id = e.payload.toolCallId;
        const at = this.toolIndex.get(id);
        const prev = at === undefined ? undefined : this.rows[at];
        const call = toolFrom(e, prev?.type === 'tool' ? prev.call : undefined);
        const index = at ?? this.push({ type: 'tool', key: `tool-${e.seq}`, call });
        if (at === undefined) this.toolIndex.set(id, index);
        else if (prev) this.replace(at, { type: 'tool', key: prev.key, call });
        for (const c of call.content) if (c.type === 'terminal') this.terminalIndex.set(c.terminalId, index);
        break;
      }
      case 'terminal_output': {
        // Shown inside the tool call that embeds the terminal; one never embedded shows nothing.
        const at = this.terminalIndex.get(e.payload.terminalId);
        const prev = at === undefined ? undefined : this.rows[at];
        if (at === undefined || prev?.type !== 'tool') break;
        const terminalsDone = { ...prev.call.terminalsDone, [e.payload.terminalId]: e.payload };
        this.replace(at, { ...prev, call: { ...prev.call, terminalsDone } });
        break;
      }
      case 'file_written':
        this.push({ type: 'file', key: `file-${e.seq}`, written: e.payload });
        break;
      case 'plan': {
        const entries = e.payload.entries;
        const prev = this.planIndex === undefined ? undefined : this.rows[this.planIndex];
        if (this.planIndex !== undefined && prev) this.replace(this.planIndex, { type: 'plan', key: prev.key, entries });
        else this.planIndex = this.push({ type: 'plan', key: `plan-${e.seq}`, entries });
        break;
      }
      case 'error':
        this.push({
          type: 'error',
          key: `error-${e.seq}`,
          code: e.payload.code,
          message: e.payload.message,
          stderrTail: e.payload.stderrTail ?? [],
        });
        break;
      case 'permission_requested': {
        const { requestId, toolCall } = e.payload;
        const index = this.push({
          type: 'permission',
          key: `perm-${e.seq}`,
          requestId,
          title: toolCall.title,
          toolKind: toolCall.kind,
          resolution: undefined,
        });
        this.permissionIndex.set(requestId, index);
        break;
      }
      case 'permission_resolved': {
        const requestId = e.payload.requestId;
        const at = this.permissionIndex.get(requestId);
        const prev = at === undefined ? undefined : this.rows[at];
        const resolution = resolutionFrom(e.payload);
        if (at !== undefined && prev?.type === 'permission') this.replace(at, { ...prev, resolution });
        else
          this.push({
            type: 'permission',
            key: `perm-${e.seq}`,
            requestId,
            title: e.payload.title ?? 'Permission request',
            toolKind: undefined,
            resolution,
          });
        break;
      }
      case 'notice':
        this.push({ type: 'notice', key: `notice-${e.seq}`, text: e.payload.text, ...(e.payload.sessionId ? { sessionId: e.payload.sessionId } : {}) });
        break;
      case 'question_asked': {
        const { requestId, question } = e.payload;
        this.questionIndex.set(requestId, this.push({ type: 'question', key: `question-${e.seq}`, requestId, question, answer: undefined, completed: false }));
        break;
      }
      case 'question_answered':
      case 'question_completed': {
        // An answer or completion whose question is on an older page (not loaded) shows nothing.
        const at = this.questionIndex.get(e.payload.requestId);
        const prev = at === undefined ? undefined : this.rows[at];
        if (at === undefined || prev?.type !== 'question') break;
        if (e.kind === 'question_completed') this.replace(at, { ...prev, completed: true });
        else {
          const { requestId: _id, ...answer } = e.payload;
          this.replace(at, { ...prev, answer });
        }
        break;
      }
      case 'unreadable':
        this.push({ type: 'unreadable', key: `unreadable-${e.seq}`, storedKind: e.payload.storedKind });
        break;
      case 'session_info':
      case 'available_commands':
      case 'agent_update':
      case 'auth_required':
        break;
    }
  }

  private foldCheckpoint(e: EventOf<'checkpoint'>): void {
    const p = e.payload;
    if (p.reason !== 'turn') return;
    const cp = { checkpointId: p.checkpointId, partial: p.partial === true };
    if (p.clientMessageId !== undefined && this.endedWithout.delete(p.clientMessageId)) {
      this.open = undefined;
      this.push({ type: 'turn-end', key: `turnend-${e.seq}`, ...cp });
    } else if (p.clientMessageId !== undefined) this.checkpoints.set(p.clientMessageId, cp);
    else this.looseCheckpoint = cp;
  }
}

/**
 * A row with nothing to show: a message or thought that is only white space so far (Qwen Code
 * sends "\n\n" before a tool call). It keeps its place, so a later chunk can still fill it,
 * but it is drawn as nothing and the arrow keys pass over it.
 */
export function isBlankRow(row: Row): boolean {
  if (row.type !== 'agent' && row.type !== 'thought') return false;
  // The pieces answer without reading the whole text (a streaming message's text is a rope).
  return row.pieces ? !row.pieces.visibleIn(row.text.length) : !/\S/.test(row.text);
}

/** The text of the newest user prompt among loaded events (for Retry after a crash loop). */
export function lastUserPrompt(events: readonly SessionEventT[]): string | undefined {
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i];
    if (e?.kind === 'user_message' && e.payload.text) return e.payload.text;
  }
  return undefined;
}
