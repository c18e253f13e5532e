import type { Db } from './db';
import type { SearchHitT, SessionEventT, SnippetPartT } from '../../shared/contract';
import { ftsQuery } from './search-query';
import { eventFromRow } from './events.repo';
import { HIT_END, HIT_START, searchableText } from './search-text';

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

/**
 * The transcript search index (tables: migration 0007). `add` runs inside `EventLog`'s write
 * transaction, so an event and its index row are stored together or not at all. Rowids of
 * live rows grow with time; the backfill's go below every other (see `addOlder`), so rowid
 * order is newest first.
 */
export class SearchIndex {
  private readonly stmts;

  constructor(db: Db) {
    this.stmts = {
      doc: db.prepare(`INSERT INTO search_docs (session_id, seq) VALUES (?, ?)`),
      docWithId: db.prepare(`INSERT INTO search_docs (id, session_id, seq) VALUES (?, ?, ?)`),
      text: db.prepare(`INSERT INTO search_index (rowid, text) VALUES (?, ?)`),
      lowestId: db.prepare(`SELECT MIN(id) AS id FROM search_docs`),
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

  /** Indexes a live event (call inside the transaction that stores it). */
  add(e: SessionEventT): void {
    const text = searchableText(e);
    if (text === undefined) return;
    const id = this.stmts.doc.run(e.sessionId, e.seq).lastInsertRowid;
    this.stmts.text.run(id, text);
  }

  /**
   * Indexes stored rows older than anything indexed so far, newest first: each takes the next
   * id below the lowest one. Returns how many had text.
   */
  addOlder(rows: readonly { session_id: string; seq: number; kind: string; payload: string }[]): number {
    let next = Math.min(0, (this.stmts.lowestId.get() as { id: number | null }).id ?? 0) - 1;
    let added = 0;
    for (const r of rows) {
      // Read as the transcript reads it: one definition of what a row says (an unreadable row has no text).
      const text = searchableText(eventFromRow({ ...r, at: 0 }));
      if (text === undefined) continue;
      this.stmts.docWithId.run(next, r.session_id, r.seq);
      this.stmts.text.run(next, text);
      next--;
      added++;
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
