import type { Db } from './db';
import { AuthRequest, StateReason, type SessionStateT } from '../../shared/contract';
import { Emitter, type Event } from '../util/event';

export interface SessionRow {
  id: string;
  agent_id: string;
  cwd: string;
  title: string | null;
  first_prompt: string | null;
  state: SessionStateT;
  state_reason: string | null;
  acp_session_id: string | null;
  last_seq: number;
  created_at: number;
  updated_at: number;
  last_activity_at: number;
  detached_at: number | null;
  archived_at: number | null;
  /** JSON of the `AuthRequest` the agent waits on; null when none. */
  auth_request: string | null;
  /** The person's name for it (`sessions:rename`); preferred over the agent's `title`. */
  custom_title: string | null;
  /** When a window last showed it; later activity is unread. */
  viewed_at: number | null;
  /** JSON array of the absolute folders the session may use besides `cwd`; null when none. */
  additional_dirs: string | null;
  /** JSON of the `SessionControls` last known (modes, models, options, usage); null when none. */
  controls: string | null;
  /** The session a fork copied (its id); null for others. */
  forked_from: string | null;
  /** 1: imported from a file, a copy with no agent session that is never resumed. */
  read_only: number;
  /** 1: its agent advertised `session/fork` when it last started. */
  can_fork: number;
}

/** The session's additional folders; an unreadable value counts as none (nothing is widened). */
export function additionalDirsOf(row: Pick<SessionRow, 'additional_dirs'>): string[] {
  if (!row.additional_dirs) return [];
  try {
    const parsed: unknown = JSON.parse(row.additional_dirs);
    return Array.isArray(parsed) ? parsed.filter((d): d is string => typeof d === 'string') : [];
  } catch {
    return [];
  }
}

/** A new session's row: `acp_session_id` and `title` when it opens a session the agent listed. */
export interface NewSessionRow {
  id: string;
  agent_id: string;
  cwd: string;
  state: SessionStateT;
  additionalDirs?: readonly string[];
  acpSessionId?: string;
  title?: string;
  /** A fork: the session it copies. */
  forkedFrom?: string;
  /** An import: read-only, archived at `archivedAt`, ended for `stateReason`. */
  readOnly?: boolean;
  archivedAt?: number;
  stateReason?: StateReason;
}

/**
 * The stored reason as a view field. A reason this version does not know (an older version
 * stored it) is left out rather than shown as a code or refused.
 */
export function stateReasonOf(row: Pick<SessionRow, 'state_reason'>): { stateReason?: StateReason } {
  // Every pushed view reads it (a turn pushes two): a set's look-up, not a parse, which builds an
  // error for a refused value and was once seen holding a flood's loop for 30 ms.
  const reason = row.state_reason;
  return reason !== null && STATE_REASONS.has(reason) ? { stateReason: reason as StateReason } : {};
}

const STATE_REASONS: ReadonlySet<string> = new Set(StateReason.options);

/** The sign-in the session waits on, as a view field; an unreadable one is left out. */
export function authRequestOf(row: Pick<SessionRow, 'auth_request'>): { auth?: AuthRequest } {
  if (!row.auth_request) return {};
  try {
    const parsed = AuthRequest.safeParse(JSON.parse(row.auth_request));
    return parsed.success ? { auth: parsed.data } : {};
  } catch {
    return {};
  }
}

/** A column of the sessions table this repository writes. */
export type SessionColumn =
  | 'state'
  | 'acp_session_id'
  | 'title'
  | 'first_prompt'
  | 'cwd'
  | 'last_activity_at'
  | 'archived_at'
  | 'auth_request'
  | 'custom_title'
  | 'viewed_at'
  | 'controls'
  | 'can_fork';

/** A session's row changed: which one, and what (a column, or the row itself). */
export interface SessionRowChange {
  sessionId: string;
  what: 'created' | 'removed' | SessionColumn;
}

/**
 * Every column of `sessions`, in the order `sessionRowOf` reads them (a test holds this to the
 * table's columns). Rows are read as arrays and made rows here: better-sqlite3 builds each row
 * object a property at a time, which for these 22 columns cost 2–3 × the whole read (10,000
 * rows: 80–130 ms as objects, 26–40 ms as arrays made into rows of one shape; one row by id,
 * read for every pushed view: 8–12 µs as an object, 5–6 µs as an array).
 */
export const SESSION_COLUMNS = [
  'id', 'agent_id', 'cwd', 'title', 'first_prompt', 'state', 'state_reason', 'acp_session_id', 'last_seq',
  'created_at', 'updated_at', 'last_activity_at', 'detached_at', 'archived_at', 'auth_request', 'custom_title',
  'viewed_at', 'additional_dirs', 'controls', 'forked_from', 'read_only', 'can_fork',
] as const satisfies readonly (keyof SessionRow)[];

/** A row read as an array in `SESSION_COLUMNS` order. */
export function sessionRowOf(r: readonly unknown[]): SessionRow {
  return {
    id: r[0] as string,
    agent_id: r[1] as string,
    cwd: r[2] as string,
    title: r[3] as string | null,
    first_prompt: r[4] as string | null,
    state: r[5] as SessionStateT,
    state_reason: r[6] as string | null,
    acp_session_id: r[7] as string | null,
    last_seq: r[8] as number,
    created_at: r[9] as number,
    updated_at: r[10] as number,
    last_activity_at: r[11] as number,
    detached_at: r[12] as number | null,
    archived_at: r[13] as number | null,
    auth_request: r[14] as string | null,
    custom_title: r[15] as string | null,
    viewed_at: r[16] as number | null,
    additional_dirs: r[17] as string | null,
    controls: r[18] as string | null,
    forked_from: r[19] as string | null,
    read_only: r[20] as number,
    can_fork: r[21] as number,
  };
}

/** Every column, in `sessionRowOf`'s order. */
const ROW = SESSION_COLUMNS.join(', ');

/** The sidebar's order, newest created first; read along `sessions_by_created` (migration 0017). */
export const LIST_SQL = `SELECT ${ROW} FROM sessions ORDER BY created_at DESC, id LIMIT ? OFFSET ?`;

/**
 * The same order from just after a listed session (`@createdAt`, `@id`): a window reads a long
 * list a page at a time, and a session made or deleted meanwhile moves no page's start (an
 * offset would repeat or skip one). A range of the index, then its order: no sort.
 */
export const LIST_AFTER_SQL = `SELECT ${ROW} FROM sessions
  WHERE created_at <= @createdAt AND NOT (created_at = @createdAt AND id <= @id)
  ORDER BY created_at DESC, id LIMIT @limit`;

/** Where a page of the list starts: just after this session. */
export interface ListCursor {
  createdAt: number;
  id: string;
}

/**
 * Sessions table; statements are prepared once. Every write that changed a row is announced
 * on `onDidChange` by this repository itself, so no caller can forget to tell the windows.
 * The writes elsewhere are `EventsRepo`'s seq and activity bumps (the events it stores, and a
 * turn's end, `EventLog.touch`), which the events and the turn's end announce to the windows
 * watching; a view read before they are written carries them (`EventLog.pendingActivityAt`).
 */
export class SessionsRepo {
  private readonly stmts;
  private readonly didChange = new Emitter<SessionRowChange>();
  readonly onDidChange: Event<SessionRowChange> = this.didChange.event;

  constructor(db: Db) {
    this.stmts = {
      insert: db.prepare(
        `INSERT INTO sessions (id, agent_id, cwd, state, state_reason, additional_dirs, acp_session_id, title, forked_from, read_only, archived_at,
           created_at, updated_at, last_activity_at)
         VALUES (@id, @agent_id, @cwd, @state, @state_reason, @additional_dirs, @acp_session_id, @title, @forked_from, @read_only, @archived_at,
           @now, @now, @now)`,
      ),
      get: db.prepare(`SELECT ${ROW} FROM sessions WHERE id = ?`).raw(true),
      list: db.prepare(LIST_SQL).raw(true),
      listAfter: db.prepare(LIST_AFTER_SQL).raw(true),
      setState: db.prepare(
        `UPDATE sessions SET state = @to, state_reason = @reason, updated_at = @now,
           detached_at = CASE WHEN @to = 'DETACHED' THEN @now ELSE detached_at END
         WHERE id = @id AND state = @from`,
      ),
      byAcp: db.prepare(`SELECT ${ROW} FROM sessions WHERE agent_id = ? AND acp_session_id = ? LIMIT 1`).raw(true),
      setAcp: db.prepare(`UPDATE sessions SET acp_session_id = ?, updated_at = ? WHERE id = ?`),
      setTitle: db.prepare(`UPDATE sessions SET title = ?, updated_at = ? WHERE id = ?`),
      setFirstPrompt: db.prepare(
        `UPDATE sessions SET first_prompt = ?, updated_at = ? WHERE id = ? AND first_prompt IS NULL`,
      ),
      setCwd: db.prepare(`UPDATE sessions SET cwd = ?, updated_at = ? WHERE id = ?`),
      touch: db.prepare(`UPDATE sessions SET last_activity_at = ? WHERE id = ?`),
      inStates: db.prepare(`SELECT ${ROW} FROM sessions WHERE state IN (SELECT value FROM json_each(?))`).raw(true),
      idleDetached: db.prepare(
        `SELECT id FROM sessions WHERE state = 'DETACHED'
           AND MAX(last_activity_at, COALESCE(detached_at, 0)) <= ? ORDER BY last_activity_at LIMIT ?`,
      ),
      count: db.prepare(`SELECT COUNT(*) AS n FROM sessions`),
      setArchived: db.prepare(`UPDATE sessions SET archived_at = ?, updated_at = ? WHERE id = ?`),
      setAuth: db.prepare(`UPDATE sessions SET auth_request = ?, updated_at = ? WHERE id = ?`),
      setCustomTitle: db.prepare(`UPDATE sessions SET custom_title = ?, updated_at = ? WHERE id = ?`),
      // updated_at too: a view pushed after this one must not be taken for stale (unread changed).
      markViewed: db.prepare(`UPDATE sessions SET viewed_at = ?, updated_at = MAX(updated_at, ?) WHERE id = ?`),
      // Not `updated_at`: the view (which that orders) does not carry the controls.
      getControls: db.prepare(`SELECT controls FROM sessions WHERE id = ?`),
      setControls: db.prepare(`UPDATE sessions SET controls = ? WHERE id = ?`),
      // Only when it changes: every start sets it, and an unchanged value must not push a view.
      setCanFork: db.prepare(`UPDATE sessions SET can_fork = ?, updated_at = ? WHERE id = ? AND can_fork != ?`),
      remove: db.transaction((id: string) => {
        // Explicit, not left to ON DELETE CASCADE: a foreign-key-less copy of the file still ends clean.
        for (const table of ['events', 'prompts', 'permissions', 'permission_rules', 'questions', 'drafts', 'checkpoints', 'workspaces']) {
          db.prepare(`DELETE FROM ${table} WHERE session_id = ?`).run(id);
        }
        // A group left without sessions goes with its last one.
        db.prepare(`DELETE FROM session_groups WHERE id NOT IN (SELECT group_id FROM workspaces WHERE group_id IS NOT NULL)`).run();
        return db.prepare(`DELETE FROM sessions WHERE id = ?`).run(id).changes === 1;
      }),
      recordPrompt: db.prepare(`INSERT OR IGNORE INTO prompts (session_id, client_message_id, at) VALUES (?, ?, ?)`),
      hasPrompt: db.prepare(`SELECT 1 FROM prompts WHERE session_id = ? AND client_message_id = ?`),
    };
  }

  insert(row: NewSessionRow, now: number): void {
    this.announce(row.id, 'created', this.stmts.insert.run({
      id: row.id,
      agent_id: row.agent_id,
      cwd: row.cwd,
      state: row.state,
      state_reason: row.stateReason ?? null,
      additional_dirs: row.additionalDirs?.length ? JSON.stringify(row.additionalDirs) : null,
      acp_session_id: row.acpSessionId ?? null,
      title: row.title?.trim() ? row.title.trim() : null,
      forked_from: row.forkedFrom ?? null,
      read_only: row.readOnly ? 1 : 0,
      archived_at: row.archivedAt ?? null,
      now,
    }).changes);
  }

  get(id: string): SessionRow | undefined {
    const r = this.stmts.get.get(id) as unknown[] | undefined;
    return r && sessionRowOf(r);
  }

  list(limit = 10_000, offset = 0): SessionRow[] {
    return (this.stmts.list.all(limit, offset) as unknown[][]).map(sessionRowOf);
  }

  /** The next `limit` sessions of the list's order after `cursor`. */
  listAfter(cursor: ListCursor, limit: number): SessionRow[] {
    return (this.stmts.listAfter.all({ createdAt: cursor.createdAt, id: cursor.id, limit }) as unknown[][]).map(sessionRowOf);
  }

  /** Compare-and-set: changes the row only if it is still in `from`. Returns false otherwise. */
  setState(id: string, from: SessionStateT, to: SessionStateT, reason: StateReason | undefined, now: number): boolean {
    return this.announce(id, 'state', this.stmts.setState.run({ id, from, to, reason: reason ?? null, now }).changes);
  }

  /** The session bound to `acpSessionId` of agent `agentId`, if one is. */
  byAcpSessionId(agentId: string, acpSessionId: string): SessionRow | undefined {
    const r = this.stmts.byAcp.get(agentId, acpSessionId) as unknown[] | undefined;
    return r && sessionRowOf(r);
  }

  setAcpSessionId(id: string, acpSessionId: string | null, now: number): void {
    this.announce(id, 'acp_session_id', this.stmts.setAcp.run(acpSessionId, now, id).changes);
  }

  setTitle(id: string, title: string, now: number): void {
    this.announce(id, 'title', this.stmts.setTitle.run(title, now, id).changes);
  }

  /** Stores the first prompt once; later prompts leave it. Returns true if it was stored. */
  setFirstPrompt(id: string, text: string, now: number): boolean {
    return this.announce(id, 'first_prompt', this.stmts.setFirstPrompt.run(text, now, id).changes);
  }

  setCwd(id: string, cwd: string, now: number): void {
    this.announce(id, 'cwd', this.stmts.setCwd.run(cwd, now, id).changes);
  }

  touch(id: string, now: number): void {
    this.announce(id, 'last_activity_at', this.stmts.touch.run(now, id).changes);
  }

  inStates(states: readonly SessionStateT[]): SessionRow[] {
    return (this.stmts.inStates.all(JSON.stringify(states)) as unknown[][]).map(sessionRowOf);
  }

  /** DETACHED sessions whose later of last activity and detach time is at or before `cutoff`. */
  idleDetached(cutoff: number, limit = 500): string[] {
    return (this.stmts.idleDetached.all(cutoff, limit) as { id: string }[]).map((r) => r.id);
  }

  setArchived(id: string, archivedAt: number | null, now: number): void {
    this.announce(id, 'archived_at', this.stmts.setArchived.run(archivedAt, now, id).changes);
  }

  setAuthRequest(id: string, request: AuthRequest | null, now: number): void {
    this.announce(id, 'auth_request', this.stmts.setAuth.run(request === null ? null : JSON.stringify(request), now, id).changes);
  }

  /** The person's name for the session; null gives the title back to the agent. */
  setCustomTitle(id: string, title: string | null, now: number): void {
    this.announce(id, 'custom_title', this.stmts.setCustomTitle.run(title, now, id).changes);
  }

  /** A window showed the session until `now`: activity up to then is seen. */
  markViewed(id: string, now: number): void {
    this.announce(id, 'viewed_at', this.stmts.markViewed.run(now, now, id).changes);
  }

  /** The stored controls' JSON (see `SessionControls`), or undefined. */
  controlsJson(id: string): string | undefined {
    const row = this.stmts.getControls.get(id) as { controls: string | null } | undefined;
    return row?.controls ?? undefined;
  }

  setControlsJson(id: string, json: string): void {
    this.announce(id, 'controls', this.stmts.setControls.run(json, id).changes);
  }

  /** What its agent said at its last start: whether it can fork the session. */
  setCanFork(id: string, canFork: boolean, now: number): void {
    const value = canFork ? 1 : 0;
    this.announce(id, 'can_fork', this.stmts.setCanFork.run(value, now, id, value).changes);
  }

  /** Removes the session with its transcript, prompts, permission and question records, in one transaction. */
  remove(id: string): boolean {
    return this.announce(id, 'removed', this.stmts.remove(id) ? 1 : 0);
  }

  /** The prompt with this client message id was accepted already. */
  hasPrompt(sessionId: string, clientMessageId: string): boolean {
    return this.stmts.hasPrompt.get(sessionId, clientMessageId) !== undefined;
  }

  /** Remembers a prompt's client message id; false if it was seen before (a retried send). */
  recordPrompt(sessionId: string, clientMessageId: string, now: number): boolean {
    return this.stmts.recordPrompt.run(sessionId, clientMessageId, now).changes === 1;
  }

  count(): number {
    return (this.stmts.count.get() as { n: number }).n;
  }

  /** Announces a write that changed the row; returns whether it did. */
  private announce(sessionId: string, what: SessionRowChange['what'], changes: number): boolean {
    if (changes === 0) return false;
    this.didChange.fire({ sessionId, what });
    return true;
  }
}

/**
 * The title a person sees: the name they gave it, else the agent's, else the first prompt's
 * first 60 characters.
 */
export function displayTitle(row: Pick<SessionRow, 'title' | 'first_prompt'> & { custom_title?: string | null }): string {
  if (row.custom_title && row.custom_title.trim()) return row.custom_title.trim();
  if (row.title && row.title.trim()) return row.title.trim();
  if (row.first_prompt && row.first_prompt.trim()) return row.first_prompt.trim().replace(/\s+/g, ' ').slice(0, 60);
  return 'New session';
}
