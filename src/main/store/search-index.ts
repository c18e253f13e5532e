import type { Db } from './db';
import { UNSHOWN_KINDS, type SearchHitT, type SessionEventT, type SnippetPartT } from '../../shared/contract';
import { ftsQuery } from './search-query';
import { eventFromRow } from './events.repo';
import { HIT_END, HIT_START, MESSAGE_KINDS, searchableText } from './search-text';

/** Words of context a snippet shows around the hit. */
const SNIPPET_TOKENS = 16;
/** Hits shown per session; more are counted as `more`. */
export const HITS_PER_SESSION = 3;
/** Hits read per query, newest first, before grouping (bounds the work of a common word). */
const HITS_READ_PER_SESSION_ASKED = 8;

export interface SearchMatch {
  sessionId: string;
  hits: SearchHitT[];
  more: boolean;
}

const HIT_KIND: Readonly<Record<string, SearchHitT['kind']>> = {
  user_message: 'user',
  agent_message: 'agent',
  agent_thought: 'thought',
  tool_call: 'tool',
  tool_call_update: 'tool',
};

/** A stored row as the index reads it. */
export interface IndexRow {
  session_id: string;
  seq: number;
  kind: string;
  payload: string;
  /** A message chunk's text as SQLite read it (`CHUNK_TEXT_SQL`), when the query did: its payload is then not needed. */
  chunk_text?: string | null;
}

/**
 * A message chunk's text, read by SQLite from the row's payload: a valid payload's `text`, as
 * the transcript reads it; anything else (an unreadable row) adds nothing. The same for live
 * messages and the backfill; no row is parsed in JavaScript for it.
 */
export const CHUNK_TEXT_SQL = `CASE WHEN json_valid(payload) AND json_type(payload, '$.text') = 'text' THEN json_extract(payload, '$.text') ELSE '' END`;

/**
 * A message is indexed whole in parts of about this many characters, or this many stored chunks:
 * a part ends with the chunk that brings it to either. Indexing a part indexes its text again in
 * place of its chunks' rows (FTS5 tokenizes what it deletes too), on the host's loop, so a part
 * bounds that work: a 1 MB answer ended in one piece took 37 ms at the next prompt, 4 MB 89 ms,
 * and 3,300 chunks of 10 characters 30–50 ms. A phrase across two parts is not found as a phrase
 * (its words are).
 */
export const PART_CHARS = 32 * 1024;
export const PART_CHUNKS = 1_000;

/**
 * What waits to be indexed (`SearchIndex.waiting`) is indexed inside the write that brings it to
 * this much text or this many rows (ADR 0034): one FTS5 segment for many rows, as a single
 * session's long answer makes (its parts, `PART_CHARS`), however many sessions the rows come from.
 */
export const WAITING_CHARS = 64 * 1024;
export const WAITING_ROWS = 256;

/**
 * A stored row, or a message (or part) that ended, not indexed yet: `seq`…`last` are its
 * events; `text` a row's searchable text, known when it was stored (a message's is read from
 * its chunks when indexed); `replaces` that rows of the message were indexed before.
 */
interface Waiting {
  sessionId: string;
  seq: number;
  last: number;
  kind: string;
  replaces: boolean;
  text?: string;
  chars: number;
}

/** `SearchIndex.snapshot`: its in-memory state as a write transaction began. */
export interface SearchIndexMemory {
  tails: Map<string, { kind: string; from: number; last: number }>;
  partSize: Map<string, { chars: number; chunks: number }>;
  waiting: Waiting[];
  waitingChars: number;
}

/** The message of a session still being written (table `search_open`, migration 0016). */
interface OpenMessage {
  kind: string;
  first_seq: number;
  last_seq: number;
}

/**
 * The transcript search index (tables: migrations 0007 and 0016). One row per prompt, per tool
 * call title, and per whole message or thought: a message streamed as many stored chunks is
 * indexed as one text once it ends, so its snippet is the message and a phrase across two chunks
 * is found (a long one in whole parts, `PART_CHARS`, each indexed once it is complete). `add`
 * runs inside `EventLog`'s write transaction. What it would index waits (ADR 0034): a row or an
 * ended message in `waiting` (and table `search_waiting`, written with its event), the chunks of
 * a message still open in `tails`; every search indexes all that waits before it runs, so a
 * search never finds an event that was not stored nor misses one that was. What waits is
 * indexed in one transaction per batch: before a search, within `TAIL_MS` (`SearchTails`),
 * inside the write that brings it to `WAITING_CHARS` or `WAITING_ROWS`, and at a clean stop. A
 * crash loses no index row: the next start indexes what `search_waiting` holds and every open
 * message whole from the stored events (`recover`). Rowids of live rows grow with time (each
 * takes its own when indexed, within about a second of being stored); the backfill's go below
 * every other (see `addOlder`), so rowid order is newest first.
 */
export class SearchIndex {
  private readonly stmts;
  /**
   * Characters and stored chunks of each open message's part so far. Kept in memory only: after
   * a restart every open message is ended (`recover`), and a session forgotten meanwhile
   * counts its part from 0 again (the part grows at most twice as long).
   */
  private readonly partSize = new Map<string, { chars: number; chunks: number }>();
  /**
   * Chunks of open messages stored but not indexed yet, by session: `from` its first such seq,
   * `last` its newest. Indexed as one row by `indexWaiting`, which a search runs first, or with
   * the message when it ends. No entry: nothing waits, and whether some of the open message is
   * indexed on its own is not known (so ending it forgets what is).
   */
  private readonly tails = new Map<string, { kind: string; from: number; last: number }>();
  /** Rows and ended messages stored but not indexed yet, oldest first (each also in `search_waiting`). */
  private waiting: Waiting[] = [];
  /** Text of what `waiting` holds, as far as known when it was stored. */
  private waitingChars = 0;
  private readonly indexWaitingNow: () => number;
  /** `indexWaitingRows` in a transaction of its own, or a savepoint inside a write. */
  private readonly indexBatch: () => void;
  /**
   * A batch indexed inside a write failed (the write went on without it): none is tried inside a
   * write again until one on its own turn (`indexWaiting`) succeeds.
   */
  private batchFailed = false;
  /** Index rows written by this process so far (what tells `SearchMerges` there is work). */
  rowsWritten = 0;
  /** Characters of live text indexed by this process so far (what bounds a write: `EventLog`). */
  charsWritten = 0;

  constructor(private readonly db: Db) {
    this.indexWaitingNow = db.transaction(() => {
      const before = this.rowsWritten;
      this.indexWaitingRows();
      for (const [sessionId, t] of this.tails) this.insertChunks(sessionId, t.from, t.last, t.kind);
      this.tails.clear();
      this.batchFailed = false;
      return this.rowsWritten - before;
    });
    this.indexBatch = db.transaction(() => this.indexWaitingRows());
    this.stmts = {
      doc: db.prepare(`INSERT INTO search_docs (session_id, seq) VALUES (?, ?)`),
      docWithId: db.prepare(`INSERT INTO search_docs (id, session_id, seq) VALUES (?, ?, ?)`),
      text: db.prepare(`INSERT INTO search_index (rowid, text) VALUES (?, ?)`),
      lowestId: db.prepare(`SELECT MIN(id) AS id FROM search_docs`),
      open: db.prepare(`SELECT kind, first_seq, last_seq FROM search_open WHERE session_id = ?`),
      allOpen: db.prepare(`SELECT session_id, kind, first_seq, last_seq FROM search_open`),
      openStart: db.prepare(`INSERT INTO search_open (session_id, kind, first_seq, last_seq) VALUES (?, ?, ?, ?)`),
      openGrow: db.prepare(`UPDATE search_open SET last_seq = ? WHERE session_id = ?`),
      openEnd: db.prepare(`DELETE FROM search_open WHERE session_id = ?`),
      waitingAdd: db.prepare(`INSERT INTO search_waiting (session_id, seq, last_seq, kind, replaces) VALUES (?, ?, ?, ?, ?)`),
      // Gone when its session was deleted meanwhile (trigger `search_forget_session`): nothing to index.
      waitingDone: db.prepare(`DELETE FROM search_waiting WHERE session_id = ? AND seq = ?`),
      // In the order their events were stored (a row whose event is gone first: it indexes nothing).
      allWaiting: db.prepare(
        `SELECT w.session_id, w.seq, w.last_seq, w.kind, w.replaces FROM search_waiting w
           LEFT JOIN events e ON e.session_id = w.session_id AND e.seq = w.last_seq
          ORDER BY e.at, w.session_id, w.seq`,
      ),
      eventRow: db.prepare(`SELECT session_id, seq, kind, payload FROM events WHERE session_id = ? AND seq = ?`),
      // The chunks' texts, read by SQLite: a part can be a thousand rows.
      chunkTexts: db.prepare(`SELECT ${CHUNK_TEXT_SQL} FROM events WHERE session_id = ? AND seq BETWEEN ? AND ? AND kind = ? ORDER BY seq`).pluck(),
      forgetTexts: db.prepare(`DELETE FROM search_index WHERE rowid IN (SELECT id FROM search_docs WHERE session_id = ? AND seq BETWEEN ? AND ?)`),
      docAt: db.prepare(`SELECT 1 FROM search_docs WHERE session_id = ? AND seq = ?`),
      forgetDocs: db.prepare(`DELETE FROM search_docs WHERE session_id = ? AND seq BETWEEN ? AND ?`),
      // The inner query is answered by FTS5 in rowid order: it stops after `limit` hits and
      // computes snippets for those only.
      query: db.prepare(
        `SELECT d.session_id, d.seq, e.kind, e.at, f.snip
           FROM (SELECT rowid AS id, snippet(search_index, 0, '${HIT_START}', '${HIT_END}', '…', ${SNIPPET_TOKENS}) AS snip
                   FROM search_index WHERE search_index MATCH ? ORDER BY rowid DESC LIMIT ?) AS f
           JOIN search_docs d ON d.id = f.id
           JOIN events e ON e.session_id = d.session_id AND e.seq = d.seq
          ORDER BY f.id DESC`,
      ),
    };
  }

  /**
   * Indexes a live event (call inside the transaction that stores it, after storing it). A chunk
   * of the agent's message waits (`tails`): a search indexes the chunks that wait before it
   * runs, so it finds every stored chunk, and `SearchTails` indexes them within a second
   * anyway. The next shown event of the session ends the message, which is then indexed whole
   * in place of whatever of it was indexed before. A streamed text is so tokenized once, not
   * three times (as a chunk, as a chunk deleted, as the message): in a 100,000-update flood
   * the index's inserts, deletes and merges were a fifth of the host's time.
   */
  add(e: SessionEventT): void {
    if (UNSHOWN_KINDS.has(e.kind)) return;
    const open = this.stmts.open.get(e.sessionId) as OpenMessage | undefined;
    if (open && open.kind === e.kind) {
      this.stmts.openGrow.run(e.seq, e.sessionId);
      this.wait(e.sessionId, e.kind, e.seq);
      this.grow(e.sessionId, { ...open, last_seq: e.seq }, messageChunkText(e).length);
      return;
    }
    if (open) this.end(e.sessionId, open);
    if (!MESSAGE_KINDS.has(e.kind)) {
      const text = searchableText(e);
      if (text !== undefined) this.defer({ sessionId: e.sessionId, seq: e.seq, last: e.seq, kind: e.kind, replaces: false, text, chars: text.length });
      return;
    }
    this.stmts.openStart.run(e.sessionId, e.kind, e.seq, e.seq);
    this.wait(e.sessionId, e.kind, e.seq);
    this.grow(e.sessionId, { kind: e.kind, first_seq: e.seq, last_seq: e.seq }, messageChunkText(e).length);
  }

  /**
   * What a write transaction changes in memory here (`tails`, `partSize`), to put back with
   * `restore` when the transaction rolls back: else the chunks that waited before it would be
   * forgotten, or a failed chunk's seq would be taken for the start of what waits.
   */
  snapshot(): SearchIndexMemory {
    return {
      tails: new Map([...this.tails].map(([id, t]) => [id, { ...t }])),
      partSize: new Map([...this.partSize].map(([id, size]) => [id, { ...size }])),
      waiting: [...this.waiting],
      waitingChars: this.waitingChars,
    };
  }

  restore(memory: SearchIndexMemory): void {
    this.tails.clear();
    for (const [id, t] of memory.tails) this.tails.set(id, t);
    this.partSize.clear();
    for (const [id, size] of memory.partSize) this.partSize.set(id, size);
    this.waiting = memory.waiting;
    this.waitingChars = memory.waitingChars;
  }

  /** True while something stored waits to be indexed (see `waiting` and `tails`). */
  get hasWaiting(): boolean {
    return this.tails.size > 0 || this.waiting.length > 0;
  }

  /**
   * Indexes everything that waits, in a transaction of its own: the rows and ended messages in
   * the order they were stored, then each open message's waiting chunks as one row under its
   * first waiting seq. Returns how many index rows it wrote.
   */
  indexWaiting(): number {
    if (!this.hasWaiting) return 0;
    const memory = this.snapshot();
    try {
      return this.indexWaitingNow();
    } catch (err) {
      // Rolled back: all of it still waits (its `search_waiting` rows are back too).
      this.restore(memory);
      this.batchFailed = true;
      throw err;
    }
  }

  /**
   * Queues a row or an ended message to be indexed (see `waiting`), in the caller's transaction.
   * A full batch is indexed now, in a savepoint: if the index refuses it, the write still stores
   * its events, and the batch waits for the next try (its `search_waiting` rows stay).
   */
  private defer(w: Waiting): void {
    this.stmts.waitingAdd.run(w.sessionId, w.seq, w.last, w.kind, w.replaces ? 1 : 0);
    this.waiting.push(w);
    this.waitingChars += w.chars;
    if (this.batchFailed || (this.waitingChars < WAITING_CHARS && this.waiting.length < WAITING_ROWS)) return;
    try {
      this.indexBatch();
    } catch (err) {
      // SQLite may have rolled back the whole write (a full disk, an I/O error): the write fails as a whole.
      if (!this.db.inTransaction) throw err;
      this.batchFailed = true;
    }
  }

  /** Indexes `waiting` (call inside a transaction). */
  private indexWaitingRows(): void {
    for (const w of this.waiting) {
      if (this.stmts.waitingDone.run(w.sessionId, w.seq).changes === 0) continue;
      this.indexNow(w);
    }
    this.waiting = [];
    this.waitingChars = 0;
  }

  /** One waiting row or message, indexed (its `search_waiting` row already deleted). */
  private indexNow(w: Omit<Waiting, 'chars'>): void {
    if (!MESSAGE_KINDS.has(w.kind)) {
      const text = w.text ?? rowTextAt(this.stmts.eventRow.get(w.sessionId, w.seq) as IndexRow | undefined);
      return this.insert(w.sessionId, w.seq, text);
    }
    if (w.replaces) {
      this.stmts.forgetTexts.run(w.sessionId, w.seq, w.last);
      this.stmts.forgetDocs.run(w.sessionId, w.seq, w.last);
    }
    this.insertChunks(w.sessionId, w.seq, w.last, w.kind);
  }

  private wait(sessionId: string, kind: string, seq: number): void {
    const t = this.tails.get(sessionId);
    if (t) t.last = seq;
    else this.tails.set(sessionId, { kind, from: seq, last: seq });
  }

  /** The session is not live any more: its open part's size is not kept (see `partSize`). */
  forget(sessionId: string): void {
    this.partSize.delete(sessionId);
  }

  /** A chunk joined the open message: a part that reached its size ends (it waits to be indexed whole). */
  private grow(sessionId: string, open: OpenMessage, chars: number): void {
    const size = this.partSize.get(sessionId) ?? { chars: 0, chunks: 0 };
    size.chars += chars;
    size.chunks++;
    this.partSize.set(sessionId, size);
    if (partIsFull(size)) this.end(sessionId, open);
  }

  /**
   * Indexes what a previous run left waiting (it stopped before its batch was indexed) and ends
   * every message it left open (it stopped while the agent was writing one): each is indexed
   * whole. Call once at start-up, before any live event, inside a transaction. Returns how many
   * of both there were.
   */
  recover(): number {
    const left = this.stmts.allWaiting.all() as { session_id: string; seq: number; last_seq: number; kind: string; replaces: number }[];
    for (const w of left) {
      this.stmts.waitingDone.run(w.session_id, w.seq);
      this.indexNow({ sessionId: w.session_id, seq: w.seq, last: w.last_seq, kind: w.kind, replaces: w.replaces === 1 });
    }
    const open = this.stmts.allOpen.all() as (OpenMessage & { session_id: string })[];
    for (const m of open) {
      // One chunk indexed as it is (by a search, or by the last run's clean stop) is the message.
      if (m.first_seq === m.last_seq && this.stmts.docAt.get(m.session_id, m.first_seq) !== undefined) this.stmts.openEnd.run(m.session_id);
      else this.end(m.session_id, m);
    }
    this.indexWaitingRows();
    return left.length + open.length;
  }

  /**
   * Indexes stored rows older than anything indexed so far: `rows` are one session's shown events
   * (`UNSHOWN_KINDS` left out), newest first, ending on a whole message (the caller reads on
   * until the message at the bottom begins). Each searchable row, and each message as a whole,
   * takes the next id below the lowest one. Returns how many index rows it added.
   */
  addOlder(rows: readonly IndexRow[]): number {
    let next = Math.min(0, (this.stmts.lowestId.get() as { id: number | null }).id ?? 0) - 1;
    let added = 0;
    const put = (sessionId: string, seq: number, text: string | undefined): void => {
      if (text === undefined) return;
      this.rowsWritten++;
      this.stmts.docWithId.run(next, sessionId, seq);
      this.stmts.text.run(next, text);
      next--;
      added++;
    };
    for (let i = 0; i < rows.length; ) {
      const r = rows[i]!;
      if (!MESSAGE_KINDS.has(r.kind)) {
        put(r.session_id, r.seq, rowText(r));
        i++;
        continue;
      }
      // Rows are newest first: the message runs down to the last row of its kind in a row.
      let j = i;
      while (j + 1 < rows.length && rows[j + 1]!.kind === r.kind) j++;
      // Cut into parts as `add` cuts it (oldest first), then indexed newest part first.
      const parts: { seq: number; texts: string[] }[] = [];
      const size = { chars: PART_CHARS, chunks: PART_CHUNKS };
      for (let k = j; k >= i; k--) {
        if (partIsFull(size)) {
          parts.push({ seq: rows[k]!.seq, texts: [] });
          size.chars = 0;
          size.chunks = 0;
        }
        const text = chunkText(rows[k]!);
        parts[parts.length - 1]!.texts.push(text);
        size.chars += text.length;
        size.chunks++;
      }
      for (let p = parts.length - 1; p >= 0; p--) put(r.session_id, parts[p]!.seq, messageText(parts[p]!.texts));
      i = j + 1;
    }
    return added;
  }

  /**
   * Sessions with hits for `input`, ordered by their newest hit; at most `HITS_PER_SESSION`
   * hits each. Reads a bounded number of the newest hits, so a word found a million times
   * costs what a rare one does; `truncated` says more sessions may match.
   */
  search(input: string, limit: number): { matches: SearchMatch[]; truncated: boolean } {
    const query = ftsQuery(input);
    if (query === undefined) return { matches: [], truncated: false };
    try {
      this.indexWaiting();
    } catch {
      // A disk that refuses the write: the search still runs, without what waited (the next
      // write says what failed; it is indexed with the next batch, or at the next start).
    }
    const read = limit * HITS_READ_PER_SESSION_ASKED;
    const rows = this.stmts.query.all(query, read) as { session_id: string; seq: number; kind: string; at: number; snip: string }[];
    const bySession = new Map<string, SearchMatch>();
    let truncated = rows.length === read;
    for (const r of rows) {
      let match = bySession.get(r.session_id);
      if (!match) {
        if (bySession.size === limit) {
          truncated = true;
          continue;
        }
        match = { sessionId: r.session_id, hits: [], more: false };
        bySession.set(r.session_id, match);
      }
      if (match.hits.length === HITS_PER_SESSION) {
        match.more = true;
        continue;
      }
      match.hits.push({ seq: r.seq, at: r.at, kind: HIT_KIND[r.kind] ?? 'agent', snippet: snippetParts(r.snip) });
    }
    return { matches: [...bySession.values()], truncated };
  }

  private insert(sessionId: string, seq: number, text: string | undefined): void {
    if (text === undefined) return;
    this.rowsWritten++;
    this.charsWritten += text.length;
    const id = this.stmts.doc.run(sessionId, seq).lastInsertRowid;
    this.stmts.text.run(id, text);
  }

  /**
   * A message (or a part of one) ended: it waits to be indexed as one row of its whole text,
   * under its first seq, in place of the rows of it indexed before (none when all of it waited).
   */
  private end(sessionId: string, m: OpenMessage): void {
    const chars = this.partSize.get(sessionId)?.chars ?? 0;
    this.partSize.delete(sessionId);
    this.stmts.openEnd.run(sessionId);
    const waited = this.tails.get(sessionId);
    this.tails.delete(sessionId);
    this.defer({ sessionId, seq: m.first_seq, last: m.last_seq, kind: m.kind, replaces: waited?.from !== m.first_seq, chars });
  }

  /** One row of the text of a message's chunks `from`…`last` (as stored), under `from`. */
  private insertChunks(sessionId: string, from: number, last: number, kind: string): void {
    this.insert(sessionId, from, messageText(this.stmts.chunkTexts.all(sessionId, from, last, kind) as string[]));
  }
}

/** A stored row's searchable text, read as the transcript reads it (an unreadable row has none). */
function rowText(r: IndexRow): string | undefined {
  return searchableText(eventFromRow({ ...r, at: 0 }));
}

/** `rowText` of a row that may be gone (trimmed since it was stored). */
function rowTextAt(r: IndexRow | undefined): string | undefined {
  return r && rowText(r);
}

/** A chunk's raw text (white space kept: the chunks join into the message as the agent sent it). */
function chunkText(r: IndexRow): string {
  if (r.chunk_text !== undefined) return r.chunk_text ?? '';
  return messageChunkText(eventFromRow({ ...r, at: 0 }));
}

/** The text an event adds to a message: an agent message's or thought's chunk, else nothing. */
function messageChunkText(e: SessionEventT): string {
  return e.kind === 'agent_message' || e.kind === 'agent_thought' ? e.payload.text : '';
}

/** A part this big ends with the chunk that made it so. */
function partIsFull(size: { chars: number; chunks: number }): boolean {
  return size.chars >= PART_CHARS || size.chunks >= PART_CHUNKS;
}

/** The searchable text of a whole message from its chunks, or undefined when it says nothing. */
function messageText(parts: readonly string[]): string | undefined {
  return searchableText({ sessionId: '', seq: 0, at: 0, kind: 'agent_message', payload: { text: parts.join('') } });
}

/** FTS5's snippet with our markers, as plain-text parts. */
export function snippetParts(snip: string): SnippetPartT[] {
  const parts: SnippetPartT[] = [];
  let at = 0;
  while (at < snip.length) {
    const start = snip.indexOf(HIT_START, at);
    if (start < 0) break;
    const end = snip.indexOf(HIT_END, start + 1);
    if (end < 0) break;
    if (start > at) parts.push({ text: snip.slice(at, start) });
    parts.push({ text: snip.slice(start + 1, end), hit: true });
    at = end + 1;
  }
  if (at < snip.length) parts.push({ text: snip.slice(at) });
  return mergeAdjacentHits(parts);
}

/** "event" "log" with only a space between them read better as one mark. */
function mergeAdjacentHits(parts: SnippetPartT[]): SnippetPartT[] {
  const out: SnippetPartT[] = [];
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i]!;
    const prev = out[out.length - 1];
    const next = parts[i + 1];
    if (!p.hit && prev?.hit && next?.hit && /^[ \t]+$/.test(p.text)) {
      out[out.length - 1] = { text: prev.text + p.text + next.text, hit: true };
      i++;
      continue;
    }
    if (p.hit && prev?.hit) {
      out[out.length - 1] = { text: prev.text + p.text, hit: true };
      continue;
    }
    out.push(p);
  }
  return out;
}
