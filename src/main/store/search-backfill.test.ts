import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { latestVersion, migrate } from './migrations';
import { EventLog } from './event-log';
import { SearchBackfill } from './search-backfill';
import { SearchIndex } from './search-index';
import type { SearchProgressT } from '../../shared/contract';
import { FakeClock } from '../test-support/fake-clock';
import { tempDir } from '../test-support/temp-dir';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

/** A database as Switchboard before search left it: schema 6, sessions with stored events. */
function oldDatabase(sessions: { id: string; lastActivityAt: number; events: number }[]) {
  const dir = tempDir();
  const file = join(dir.path, 'old.db');
  const db = new Database(file);
  cleanups.push(() => {
    if (db.open) db.close();
    dir.cleanup();
  });
  migrate(db, 6);
  const insertSession = db.prepare(
    `INSERT INTO sessions (id, agent_id, cwd, state, last_seq, created_at, updated_at, last_activity_at) VALUES (?, 'demo', '/', 'ENDED', ?, 1, 1, ?)`,
  );
  const insertEvent = db.prepare(`INSERT INTO events (session_id, seq, kind, payload, at) VALUES (?, ?, ?, ?, ?)`);
  db.transaction(() => {
    for (const s of sessions) {
      insertSession.run(s.id, s.events, s.lastActivityAt);
      for (let seq = 1; seq <= s.events; seq++) {
        // Every third event is a turn end (not indexed): batches must count it all the same.
        const kind = seq % 3 === 0 ? 'turn_ended' : seq % 3 === 1 ? 'user_message' : 'agent_message';
        const payload = kind === 'turn_ended' ? { stopReason: 'end_turn' } : { text: `${s.id} event ${seq} ${seq === 1 ? 'genesis' : 'ordinary'}` };
        insertEvent.run(s.id, seq, kind, JSON.stringify(payload), seq);
      }
    }
  })();
  return { db, file };
}

function backfill(db: Database.Database, index = new SearchIndex(db), batchEvents: number | undefined = 2_000) {
  const queue: (() => void)[] = [];
  const progress: SearchProgressT[] = [];
  const job = new SearchBackfill({ db, index, schedule: (fn) => queue.push(fn), onProgress: (p) => progress.push(p), ...(batchEvents ? { batchEvents } : {}) });
  const step = (): boolean => {
    const fn = queue.shift();
    fn?.();
    return fn !== undefined;
  };
  return { job, index, progress, step, runAll: () => { while (step()); } };
}

describe('migration 0007 and the search backfill', () => {
  it('indexes every existing transcript in batches, reporting progress up to done', () => {
    const { db } = oldDatabase([
      { id: 'old', lastActivityAt: 10, events: 4_500 },
      { id: 'new', lastActivityAt: 20, events: 3_000 },
    ]);
    expect(migrate(db)).toBe(latestVersion);
    const { job, index, progress, runAll } = backfill(db);
    expect(index.search('genesis', 10).matches).toEqual([]);
    expect(job.start()).toBe(true);
    expect(job.progress()).toEqual({ indexed: 0, total: 7_500, done: false });
    runAll();
    // 2,000 events per batch: 2 batches for "new", 3 for "old", then the one that finds nothing left.
    expect(progress.map((p) => p.indexed)).toEqual([2_000, 3_000, 5_000, 7_000, 7_500, 7_500]);
    expect(progress.at(-1)).toEqual({ indexed: 7_500, total: 7_500, done: true });
    expect(job.progress()).toBeUndefined();
    expect(db.prepare(`SELECT COUNT(*) AS n FROM search_index`).get()).toEqual({ n: 5_000 });
    // Newest session first, and within a session newest event first.
    expect(index.search('genesis', 10).matches.map((m) => m.sessionId)).toEqual(['new', 'old']);
    expect(index.search('ordinary', 1).matches[0]?.hits.map((h) => h.seq)).toEqual([2_999, 2_998, 2_996]);
  });

  it('takes 100 events per batch unless told otherwise, so one batch holds the host a few ms', () => {
    const { db } = oldDatabase([{ id: 'one', lastActivityAt: 10, events: 600 }]);
    cleanups.push(() => db.close());
    expect(migrate(db)).toBe(latestVersion);
    const { job, progress, step } = backfill(db, undefined, 0);
    expect(job.start()).toBe(true);
    step();
    step();
    expect(progress.map((p) => p.indexed)).toEqual([100, 200]);
  });

  it('has nothing to do on a new database', () => {
    const dir = tempDir();
    cleanups.push(() => dir.cleanup());
    const db = new Database(join(dir.path, 'new.db'));
    cleanups.push(() => db.close());
    migrate(db);
    expect(backfill(db).job.start()).toBe(false);
  });

  it('resumes after a restart where the last batch ended, indexing nothing twice', () => {
    const { db } = oldDatabase([{ id: 's', lastActivityAt: 1, events: 5_000 }]);
    migrate(db);
    const first = backfill(db);
    first.job.start();
    first.step();
    first.job.dispose();
    first.runAll();
    expect(first.progress.map((p) => p.indexed)).toEqual([2_000]);
    const second = backfill(db);
    second.job.start();
    expect(second.job.progress()?.total).toBe(3_000);
    second.runAll();
    const indexed = db.prepare(`SELECT COUNT(*) AS n, COUNT(DISTINCT seq) AS distinct_seqs FROM search_docs`).get();
    expect(indexed).toEqual({ n: 3_334, distinct_seqs: 3_334 });
  });

  it('keeps events written while it runs in step, and ranks them above the older ones', () => {
    const { db } = oldDatabase([{ id: '11111111-1111-4111-8111-111111111111', lastActivityAt: 1, events: 2_500 }]);
    migrate(db);
    const ticks: (() => void)[] = [];
    const log = new EventLog(db, new FakeClock(), () => {}, (fn) => ticks.push(fn));
    const { job, runAll, step } = backfill(db, log.search);
    job.start();
    step();
    log.append('11111111-1111-4111-8111-111111111111', 'user_message', { text: 'genesis written live' });
    ticks.splice(0).forEach((fn) => fn());
    runAll();
    // The live log's search indexes what waits in it first (another index over the same tables would not know of it).
    const hits = log.search.search('genesis', 5).matches[0]?.hits ?? [];
    expect(hits.map((h) => h.seq)).toEqual([2_501, 1]);
    expect(db.prepare(`SELECT COUNT(*) AS n FROM search_docs`).get()).toEqual({ n: 1_668 });
  });

  it('drops the pending work of a session deleted before it was indexed', () => {
    const { db } = oldDatabase([{ id: 'gone', lastActivityAt: 1, events: 10 }]);
    migrate(db);
    db.prepare(`DELETE FROM events WHERE session_id = 'gone'`).run();
    db.prepare(`DELETE FROM sessions WHERE id = 'gone'`).run();
    expect(backfill(db).job.start()).toBe(false);
  });

  it('cuts a long message into the same whole parts as live indexing does', () => {
    const { db } = oldDatabase([]);
    migrate(db);
    db.prepare(`INSERT INTO sessions (id, agent_id, cwd, state, last_seq, created_at, updated_at, last_activity_at) VALUES ('s', 'demo', '/', 'ENDED', 0, 1, 1, 1)`).run();
    const ticks: (() => void)[] = [];
    const log = new EventLog(db, new FakeClock(), () => {}, (fn) => ticks.push(fn));
    const tick = () => ticks.splice(0).forEach((fn) => fn());
    log.append('s', 'user_message', { text: 'write a lot' });
    // Chunks of uneven size, some joined in one turn: about 130 KB in 300 stored chunks.
    for (let i = 0; i < 600; i++) {
      log.append('s', 'agent_message', { text: `part${i} `.padEnd(50 + ((i * 37) % 400), '-') });
      if (i % 2) tick();
    }
    log.append('s', 'user_message', { text: 'thanks' });
    tick();
    log.search.indexWaiting();
    const docs = () => db.prepare(`SELECT seq FROM search_docs ORDER BY seq`).all().map((r) => (r as { seq: number }).seq);
    const live = docs();
    // Several parts, not one row per chunk nor one for the message.
    expect(live.length).toBeGreaterThan(4);
    expect(live.length).toBeLessThan(20);
    db.exec(`DELETE FROM search_index; DELETE FROM search_docs;`);
    db.prepare(`INSERT INTO search_backfill (session_id, upto_seq, last_activity_at) VALUES ('s', ?, 1)`).run(log.lastSeq('s'));
    const { job, runAll, index } = backfill(db);
    expect(job.start()).toBe(true);
    runAll();
    expect(docs()).toEqual(live);
    expect(index.search('part599', 5).matches[0]?.hits.map((h) => h.seq)).toEqual([live.at(-2)]);
  });
});
