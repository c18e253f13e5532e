import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SearchProgressT } from '../../../shared/contract';
import { tempDir } from '../../test-support/temp-dir';
import { SearchBackfill } from '../search-backfill';
import { PART_CHUNKS, SearchIndex } from '../search-index';
import { latestVersion, migrate } from './index';

const dirs: { cleanup(): void }[] = [];
afterEach(() => dirs.splice(0).forEach((d) => d.cleanup()));

type Ev = [kind: string, payload: object];

/**
 * A database as the previous Switchboard left it (schema 13): transcripts indexed one row per
 * stored chunk, as migration 0007's backfill and the old EventLog wrote them.
 */
function chunkIndexedDatabase(events: Ev[]): Database.Database {
  const dir = tempDir();
  dirs.push(dir);
  const db = new Database(join(dir.path, 'old.db'));
  migrate(db, 13);
  db.prepare(`INSERT INTO sessions (id, agent_id, cwd, state, last_seq, created_at, updated_at, last_activity_at) VALUES ('s', 'demo', '/', 'ENDED', ?, 1, 1, 1)`).run(events.length);
  const insert = db.prepare(`INSERT INTO events (session_id, seq, kind, payload, at) VALUES ('s', ?, ?, ?, ?)`);
  const doc = db.prepare(`INSERT INTO search_docs (session_id, seq) VALUES ('s', ?)`);
  const text = db.prepare(`INSERT INTO search_index (rowid, text) VALUES (?, ?)`);
  db.transaction(() => {
    events.forEach(([kind, payload], i) => {
      insert.run(i + 1, kind, JSON.stringify(payload), i + 1);
      const t = (payload as { text?: string }).text;
      if (t) text.run(doc.run(i + 1).lastInsertRowid, t);
    });
  })();
  return db;
}

function runBackfill(db: Database.Database): { index: SearchIndex; progress: SearchProgressT[] } {
  const index = new SearchIndex(db);
  const queue: (() => void)[] = [];
  const progress: SearchProgressT[] = [];
  const job = new SearchBackfill({ db, index, schedule: (fn) => queue.push(fn), onProgress: (p) => progress.push(p) });
  job.start();
  for (let fn = queue.shift(); fn; fn = queue.shift()) fn();
  return { index, progress };
}

const count = (db: Database.Database, table: string): number => (db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;

describe('migration 0016 (search whole messages)', () => {
  it('drops the per-chunk index and queues every transcript to be indexed again, keeping the events', () => {
    const db = chunkIndexedDatabase([
      ['user_message', { text: 'say hello' }],
      ['agent_message', { text: 'Echo:' }],
      ['agent_message', { text: ' hello there' }],
      ['turn_ended', { stopReason: 'end_turn' }],
    ]);
    expect(count(db, 'search_index')).toBe(3);
    expect(migrate(db)).toBe(latestVersion);
    expect(count(db, 'search_index')).toBe(0);
    expect(count(db, 'search_docs')).toBe(0);
    expect(count(db, 'events')).toBe(4);
    expect(db.prepare(`SELECT session_id, upto_seq FROM search_backfill`).all()).toEqual([{ session_id: 's', upto_seq: 4 }]);
    expect(count(db, 'search_open')).toBe(0);
  });

  it('after the upgrade the backfill finds "Echo: hello there" as one message, snippet and phrase', () => {
    const db = chunkIndexedDatabase([
      ['user_message', { text: 'say hello' }],
      ['agent_message', { text: 'Echo:' }],
      ['session_info', { title: 'say hello' }],
      ['agent_message', { text: ' hello there' }],
      ['turn_ended', { stopReason: 'end_turn' }],
    ]);
    migrate(db);
    const { index, progress } = runBackfill(db);
    expect(progress.at(-1)).toEqual({ indexed: 5, total: 5, done: true });
    const hits = index.search('hello', 5).matches[0]?.hits ?? [];
    expect(hits.map((h) => [h.seq, h.kind, h.snippet.map((p) => p.text).join('')])).toEqual([
      [2, 'agent', 'Echo: hello there'],
      [1, 'user', 'say hello'],
    ]);
    expect(index.search('"echo hello"', 5).matches).toHaveLength(1);
  });

  it('indexes a message cut by a batch boundary whole, once, and counts every event', () => {
    // 2,000 events per batch, newest first: the message at seqs 2-2,100 straddles the first batch's bottom.
    const events: Ev[] = [['user_message', { text: 'start' }]];
    for (let i = 0; i < 2_099; i++) events.push(['agent_message', { text: i === 0 ? 'alpha ' : i === 2_098 ? 'omega' : 'x ' }]);
    for (let i = 0; i < 1_000; i++) events.push(i % 2 ? ['turn_ended', { stopReason: 'end_turn' }] : ['user_message', { text: `prompt ${i}` }]);
    const db = chunkIndexedDatabase(events);
    migrate(db);
    const { index, progress } = runBackfill(db);
    expect(progress.at(-1)).toEqual({ indexed: 3_100, total: 3_100, done: true });
    // The message in whole parts of PART_CHUNKS chunks (seqs 2, 1,002 and 2,002), one row per
    // prompt: no chunk indexed alone, none twice.
    expect(PART_CHUNKS).toBe(1_000);
    expect(count(db, 'search_docs')).toBe(1 + 3 + 500);
    expect(index.search('alpha', 5).matches[0]?.hits.map((h) => h.seq)).toEqual([2]);
    expect(index.search('omega', 5).matches[0]?.hits.map((h) => h.seq)).toEqual([2_002]);
  });
});
