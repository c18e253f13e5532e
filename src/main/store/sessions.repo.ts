import type { Db } from './db';
import { AuthRequest, StateReason, type SessionStateT } from '../../shared/contract';

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
  /** JSON array of the absolute folders the session may use besides `cwd`; null when none. */
  additional_dirs: string | null;
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
}

/**
 * The stored reason as a view field. A reason this version does not know (an older version
 * stored it) is left out rather than shown as a code or refused.
 */
export function stateReasonOf(row: Pick<SessionRow, 'state_reason'>): { stateReason?: StateReason } {
  const parsed = StateReason.safeParse(row.state_reason);
  return parsed.success ? { stateReason: parsed.data } : {};
}

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

/** Sessions table; statements are prepared once. */
export class SessionsRepo {
  private readonly stmts;

  constructor(db: Db) {
    this.stmts = {
      insert: db.prepare(
        `INSERT INTO sessions (id, agent_id, cwd, state, additional_dirs, acp_session_id, title, created_at, updated_at, last_activity_at)
         VALUES (@id, @agent_id, @cwd, @state, @additional_dirs, @acp_session_id, @title, @now, @now, @now)`,
      ),
      get: db.prepare(`SELECT * FROM sessions WHERE id = ?`),
      list: db.prepare(`SELECT * FROM sessions ORDER BY created_at DESC, id LIMIT ? OFFSET ?`),
      setState: db.prepare(
        `UPDATE sessions SET state = @to, state_reason = @reason, updated_at = @now,
           detached_at = CASE WHEN @to = 'DETACHED' THEN @now ELSE detached_at END
         WHERE id = @id AND state = @from`,
      ),
      byAcp: db.prepare(`SELECT * FROM sessions WHERE agent_id = ? AND acp_session_id = ? LIMIT 1`),
      setAcp: db.prepare(`UPDATE sessions SET acp_session_id = ?, updated_at = ? WHERE id = ?`),
      setTitle: db.prepare(`UPDATE sessions SET title = ?, updated_at = ? WHERE id = ?`),
      setFirstPrompt: db.prepare(
        `UPDATE sessions SET first_prompt = ?, updated_at = ? WHERE id = ? AND first_prompt IS NULL`,
      ),
      setCwd: db.prepare(`UPDATE sessions SET cwd = ?, updated_at = ? WHERE id = ?`),
      touch: db.prepare(`UPDATE sessions SET last_activity_at = ? WHERE id = ?`),
      inStates: db.prepare(`SELECT * FROM sessions WHERE state IN (SELECT value FROM json_each(?))`),
      idleDetached: db.prepare(
        `SELECT id FROM sessions WHERE state = 'DETACHED'
           AND MAX(last_activity_at, COALESCE(detached_at, 0)) <= ? ORDER BY last_activity_at LIMIT ?`,
      ),
      count: db.prepare(`SELECT COUNT(*) AS n FROM sessions`),
      setArchived: db.prepare(`UPDATE sessions SET archived_at = ?, updated_at = ? WHERE id = ?`),
      setAuth: db.prepare(`UPDATE sessions SET auth_request = ?, updated_at = ? WHERE id = ?`),
      remove: db.transaction((id: string) => {
        // Explicit, not left to ON DELETE CASCADE: a foreign-key-less copy of the file still ends clean.
        for (const table of ['events', 'prompts', 'permissions', 'permission_rules']) {
          db.prepare(`DELETE FROM ${table} WHERE session_id = ?`).run(id);
        }
        return db.prepare(`DELETE FROM sessions WHERE id = ?`).run(id).changes === 1;
      }),
      recordPrompt: db.prepare(`INSERT OR IGNORE INTO prompts (session_id, client_message_id, at) VALUES (?, ?, ?)`),
      hasPrompt: db.prepare(`SELECT 1 FROM prompts WHERE session_id = ? AND client_message_id = ?`),
    };
  }

  insert(row: NewSessionRow, now: number): void {
    this.stmts.insert.run({
      id: row.id,
      agent_id: row.agent_id,
      cwd: row.cwd,
      state: row.state,
      additional_dirs: row.additionalDirs?.length ? JSON.stringify(row.additionalDirs) : null,
      acp_session_id: row.acpSessionId ?? null,
      title: row.title?.trim() ? row.title.trim() : null,
      now,
    });
  }

  get(id: string): SessionRow | undefined {
    return this.stmts.get.get(id) as SessionRow | undefined;
  }

  list(limit = 10_000, offset = 0): SessionRow[] {
    return this.stmts.list.all(limit, offset) as SessionRow[];
  }

  /** Compare-and-set: changes the row only if it is still in `from`. Returns false otherwise. */
  setState(id: string, from: SessionStateT, to: SessionStateT, reason: StateReason | undefined, now: number): boolean {
    return this.stmts.setState.run({ id, from, to, reason: reason ?? null, now }).changes === 1;
  }

  /** The session bound to `acpSessionId` of agent `agentId`, if one is. */
  byAcpSessionId(agentId: string, acpSessionId: string): SessionRow | undefined {
    return this.stmts.byAcp.get(agentId, acpSessionId) as SessionRow | undefined;
  }

  setAcpSessionId(id: string, acpSessionId: string | null, now: number): void {
    this.stmts.setAcp.run(acpSessionId, now, id);
  }

  setTitle(id: string, title: string, now: number): void {
    this.stmts.setTitle.run(title, now, id);
  }

  /** Stores the first prompt once; later prompts leave it. Returns true if it was stored. */
  setFirstPrompt(id: string, text: string, now: number): boolean {
    return this.stmts.setFirstPrompt.run(text, now, id).changes === 1;
  }

  setCwd(id: string, cwd: string, now: number): void {
    this.stmts.setCwd.run(cwd, now, id);
  }

  touch(id: string, now: number): void {
    this.stmts.touch.run(now, id);
  }

  inStates(states: readonly SessionStateT[]): SessionRow[] {
    return this.stmts.inStates.all(JSON.stringify(states)) as SessionRow[];
  }

  /** DETACHED sessions whose later of last activity and detach time is at or before `cutoff`. */
  idleDetached(cutoff: number, limit = 500): string[] {
    return (this.stmts.idleDetached.all(cutoff, limit) as { id: string }[]).map((r) => r.id);
  }

  setArchived(id: string, archivedAt: number | null, now: number): void {
    this.stmts.setArchived.run(archivedAt, now, id);
  }

  setAuthRequest(id: string, request: AuthRequest | null, now: number): void {
    this.stmts.setAuth.run(request === null ? null : JSON.stringify(request), now, id);
  }

  /** Removes the session with its transcript, prompts and permission records, in one transaction. */
  remove(id: string): boolean {
    return this.stmts.remove(id);
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
}

/** The title a person sees: the agent's, else the first prompt's first 60 characters. */
export function displayTitle(row: Pick<SessionRow, 'title' | 'first_prompt'>): string {
  if (row.title && row.title.trim()) return row.title.trim();
  if (row.first_prompt && row.first_prompt.trim()) return row.first_prompt.trim().replace(/\s+/g, ' ').slice(0, 60);
  return 'New session';
}
