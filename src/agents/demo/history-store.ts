/**
 * On-disk session history, so a session survives an agent restart and can be
 * replayed by `session/load` in a new process.
 *
 * Per session three files under `<dataDir>/sessions/`:
 * - `<id>.meta.json`: cwd, title, timestamps, prompt count. Small and rewritten
 *   atomically (write + rename) so `session/list` and `session/resume` never
 *   have to scan a long history.
 * - `<id>.turn`: the prompt count and time of the newest prompt, a fixed-size
 *   record overwritten in place at each prompt. Rewriting the meta per prompt
 *   cost an ext4 data flush each time (a rename over an existing file, like a
 *   truncating write, flushes the new file's data first: `auto_da_alloc`): over
 *   half of a short turn's CPU, which with 100 sessions at once took the host's
 *   share of the two cores (docs/performance.md, stop 41). A record that can't
 *   be read leaves the meta's count, never the session.
 * - `<id>.jsonl`: append-only prompts and the updates sent, in send order.
 *
 * All writes are synchronous: one process, one writer per session, and a sync
 * append cannot be reordered or lost to a `process.exit` (see `/crash`).
 */
import { appendFileSync, closeSync, constants, existsSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { SessionUpdate } from '@agentclientprotocol/sdk';

export type SessionMeta = {
  sessionId: string;
  cwd: string;
  title: string;
  createdAt: string;
  updatedAt: string;
  promptCount: number;
  /** The session's additional folders as last given (`session/new`, `load`, `resume`). */
  additionalDirectories?: string[];
  /** A `session/fork` made it: from which session, with how many of its prompts. */
  forkedFrom?: { sessionId: string; prompts: number };
};

export type HistoryEntry =
  | { kind: 'prompt'; text: string; at: string }
  | { kind: 'update'; update: SessionUpdate };

// Ids arrive from the client and become file names: refuse anything that could
// escape the directory instead of trying to sanitise it.
const SAFE_ID = /^[A-Za-z0-9_-]{1,128}$/;

/** `<count> <ISO time>`, padded: every write covers the whole record, so no old tail is left. */
const TURN_RECORD_BYTES = 64;

export class HistoryStore {
  private readonly dir: string;

  constructor(dataDir: string) {
    this.dir = join(dataDir, 'sessions');
    mkdirSync(this.dir, { recursive: true });
  }

  create(meta: SessionMeta): void {
    this.writeMeta(meta);
    writeFileSync(this.historyPath(meta.sessionId), '');
  }

  readMeta(sessionId: string): SessionMeta | undefined {
    if (!SAFE_ID.test(sessionId)) return undefined;
    const path = this.metaPath(sessionId);
    if (!existsSync(path)) return undefined;
    let meta: SessionMeta | undefined;
    try {
      meta = parseMeta(JSON.parse(readFileSync(path, 'utf8')));
    } catch {
      return undefined;
    }
    const turn = meta && this.readTurn(sessionId);
    if (!meta || !turn) return meta;
    // Whichever was written last wins; a meta written after the record already holds its count.
    return { ...meta, promptCount: Math.max(meta.promptCount, turn.promptCount), updatedAt: turn.at > meta.updatedAt ? turn.at : meta.updatedAt };
  }

  /**
   * A prompt was taken: the session's prompt count and newest activity, written in place (no
   * truncation, no rename: see the top of this file). Read back by `readMeta`.
   */
  recordTurn(sessionId: string, promptCount: number, at: string): void {
    const record = Buffer.alloc(TURN_RECORD_BYTES, ' ');
    record.write(`${promptCount} ${at}`, 'utf8');
    const fd = openSync(this.turnPath(sessionId), constants.O_WRONLY | constants.O_CREAT, 0o644);
    try {
      writeSync(fd, record, 0, TURN_RECORD_BYTES, 0);
    } finally {
      closeSync(fd);
    }
  }

  private readTurn(sessionId: string): { promptCount: number; at: string } | undefined {
    let text: string;
    try {
      text = readFileSync(this.turnPath(sessionId), 'utf8');
    } catch {
      return undefined;
    }
    const m = /^(\d+) (\S+)\s*$/.exec(text);
    return m ? { promptCount: Number(m[1]), at: m[2]! } : undefined;
  }

  updateMeta(sessionId: string, patch: Partial<Omit<SessionMeta, 'sessionId'>>): SessionMeta | undefined {
    const current = this.readMeta(sessionId);
    if (!current) return undefined;
    const next = { ...current, ...patch, sessionId };
    this.writeMeta(next);
    return next;
  }

  /** Newest first, like most agents' session pickers. */
  list(cwd?: string): SessionMeta[] {
    const metas: SessionMeta[] = [];
    for (const name of readdirSync(this.dir)) {
      if (!name.endsWith('.meta.json')) continue;
      const meta = this.readMeta(name.slice(0, -'.meta.json'.length));
      if (meta && (cwd === undefined || meta.cwd === cwd)) metas.push(meta);
    }
    return metas.sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
  }

  append(sessionId: string, entries: readonly HistoryEntry[]): void {
    if (entries.length === 0) return;
    appendFileSync(this.historyPath(sessionId), entries.map((e) => JSON.stringify(e) + '\n').join(''));
  }

  readEntries(sessionId: string): HistoryEntry[] {
    const path = this.historyPath(sessionId);
    if (!SAFE_ID.test(sessionId) || !existsSync(path)) return [];
    const entries: HistoryEntry[] = [];
    for (const line of readFileSync(path, 'utf8').split('\n')) {
      if (!line.trim()) continue;
      try {
        entries.push(JSON.parse(line) as HistoryEntry);
      } catch {
        // A crash mid-append can leave a torn last line; the rest is still good.
      }
    }
    return entries;
  }

  /** `session/delete`: the session's files go; true if it existed. */
  remove(sessionId: string): boolean {
    const existed = existsSync(this.metaPath(sessionId));
    rmSync(this.metaPath(sessionId), { force: true });
    rmSync(this.historyPath(sessionId), { force: true });
    rmSync(this.turnPath(sessionId), { force: true });
    return existed;
  }

  private writeMeta(meta: SessionMeta): void {
    const path = this.metaPath(meta.sessionId);
    const tmp = `${path}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(meta));
    renameSync(tmp, path);
  }

  private metaPath(sessionId: string): string {
    return join(this.dir, `${sessionId}.meta.json`);
  }

  private turnPath(sessionId: string): string {
    return join(this.dir, `${sessionId}.turn`);
  }

  private historyPath(sessionId: string): string {
    return join(this.dir, `${sessionId}.jsonl`);
  }
}

function parseMeta(raw: unknown): SessionMeta | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const r = raw as Record<string, unknown>;
  if (typeof r.sessionId !== 'string' || typeof r.cwd !== 'string') return undefined;
  const now = new Date().toISOString();
  return {
    sessionId: r.sessionId,
    cwd: r.cwd,
    title: typeof r.title === 'string' ? r.title : 'Demo session',
    createdAt: typeof r.createdAt === 'string' ? r.createdAt : now,
    updatedAt: typeof r.updatedAt === 'string' ? r.updatedAt : now,
    promptCount: typeof r.promptCount === 'number' ? r.promptCount : 0,
    ...(Array.isArray(r.additionalDirectories) ? { additionalDirectories: r.additionalDirectories.filter((d): d is string => typeof d === 'string') } : {}),
    ...(isForkedFrom(r.forkedFrom) ? { forkedFrom: { sessionId: r.forkedFrom.sessionId, prompts: r.forkedFrom.prompts } } : {}),
  };
}

function isForkedFrom(v: unknown): v is { sessionId: string; prompts: number } {
  if (typeof v !== 'object' || v === null) return false;
  const f = v as Record<string, unknown>;
  return typeof f.sessionId === 'string' && typeof f.prompts === 'number';
}

/** Text chunks larger than this are split across entries so a replay never sends one huge message. */
const MAX_COALESCED_CHARS = 64 * 1024;

type CoalescedKind = 'agent_message_chunk' | 'agent_thought_chunk';

/**
 * Buffers a session's history writes so `/flood 100000` costs a handful of
 * appends, not 100k: consecutive text chunks of the same kind become one entry.
 * Anything else flushes the buffer first, so the file keeps send order.
 */
export class SessionJournal {
  private pending: { kind: CoalescedKind; text: string } | undefined;

  constructor(
    private readonly store: HistoryStore,
    readonly sessionId: string,
  ) {}

  recordPrompt(text: string, at: string): void {
    this.flush();
    this.store.append(this.sessionId, [{ kind: 'prompt', text, at }]);
  }

  recordUpdate(update: SessionUpdate): void {
    if (
      (update.sessionUpdate === 'agent_message_chunk' || update.sessionUpdate === 'agent_thought_chunk') &&
      update.content.type === 'text'
    ) {
      if (this.pending && this.pending.kind !== update.sessionUpdate) this.flush();
      this.pending ??= { kind: update.sessionUpdate, text: '' };
      this.pending.text += update.content.text;
      if (this.pending.text.length >= MAX_COALESCED_CHARS) this.flush();
      return;
    }
    this.flush();
    this.store.append(this.sessionId, [{ kind: 'update', update }]);
  }

  flush(): void {
    const pending = this.pending;
    if (!pending) return;
    this.pending = undefined;
    this.store.append(this.sessionId, [
      { kind: 'update', update: { sessionUpdate: pending.kind, content: { type: 'text', text: pending.text } } },
    ]);
  }
}
