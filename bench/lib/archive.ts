/**
 * Large data folders for the archive figures, written straight into SQLite (the store's own
 * schema, through `Store.open` and its migrations) into a cache dir outside the repository and
 * reused by later runs: millions of events take a minute this way.
 *
 * Rows are written raw, not through `EventLog`, so they are not in the search index. With
 * `backfill`, each session is marked for the search backfill (`search_backfill`, as migration
 * 0007 marks the sessions of an archive written before search existed): a host that opens a
 * copy indexes them in the background. Without it, nothing is pending and search simply finds
 * nothing in them; opening the folder reads neither.
 *
 * A benchmark that writes into a cached archive (sessions of its own, the host's daily backup)
 * calls `restoreArchive` before and after: what it added goes, through the product's own
 * clean-up, and the pages it freed are reused by the next run, so the folder does not grow.
 */
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seededRandom } from '../../src/agents/demo/markdown-doc';
import { cachedDone, schemaFingerprint } from './cache-schema';
import { backupsFolder } from '../../src/main/datadir/backups';
import { dataPaths } from '../../src/main/datadir/paths';
import { cleanUp } from '../../src/main/store/clean-up';
import { Store } from '../../src/main/store/store';

export interface ArchiveSpec {
  /** Part of the cache dir's name. */
  name: string;
  sessions: number;
  eventsPerSession: number;
  backfill: boolean;
}

export interface Archive {
  dataDir: string;
  sessions: number;
  events: number;
  bytes: number;
}

const WORDS = ['session', 'broker', 'window', 'store', 'event', 'prompt', 'cache', 'index', 'render', 'stream', 'agent', 'build', 'test', 'file', 'change', 'review', 'merge', 'deploy', 'config', 'error'];

/** Every session `archive` writes has a title that starts so; any other was added later. */
const OWN_TITLE = 'Archived session ';

/**
 * The cached archive for `spec` (in `root`, the OS temp dir by default), written first if it is
 * not there (or was left half written).
 */
export function archive(spec: ArchiveSpec, progress: (message: string) => void, root = tmpdir()): Archive {
  const dataDir = join(root, `switchboard-bench-archive-${spec.name}-v1`);
  const done = join(dataDir, 'archive-done.json');
  const cached = cachedDone<Omit<Archive, 'dataDir'>>(done);
  if (cached) return { dataDir, sessions: cached.sessions, events: cached.events, bytes: cached.bytes };
  rmSync(dataDir, { recursive: true, force: true });
  const written = writeArchive(dataDir, spec, progress);
  writeFileSync(done, JSON.stringify({ sessions: written.sessions, events: written.events, bytes: written.bytes, schema: schemaFingerprint() }));
  return written;
}

/** A throwaway copy of an archive's data folder (a backfill changes it); `cleanup` removes it. */
export function copyArchive(source: Archive): { path: string; cleanup(): void } {
  const path = mkdtempSync(join(tmpdir(), 'switchboard-bench-copy-'));
  for (const name of readdirSync(source.dataDir)) {
    if (name.startsWith('switchboard.db')) copyFileSync(join(source.dataDir, name), join(path, name));
  }
  // The copy reaches the disk before the host starts on it: else the kernel writes its hundreds
  // of MB back while the figure is taken, and a commit waits on that (the backfill's loop read
  // 77–200 ms at most with it, where a commit takes a few ms).
  spawnSync('sync');
  return { path, cleanup: () => rmSync(path, { recursive: true, force: true }) };
}

/**
 * Takes a cached archive back to what `archive` wrote: the sessions added since (seeded, or
 * created through a host) are deleted with everything of theirs by the product's clean-up, and
 * the backups folder goes. Resolves with how many sessions were deleted.
 */
export async function restoreArchive(data: Archive): Promise<number> {
  rmSync(backupsFolder(data.dataDir), { recursive: true, force: true });
  const store = Store.open(dataPaths(data.dataDir).database);
  try {
    const own = `title LIKE '${OWN_TITLE}%'`;
    // The clean-up takes every archived session: none of the archive's own may be one.
    const ownArchived = store.db.prepare(`SELECT COUNT(*) AS n FROM sessions WHERE ${own} AND archived_at IS NOT NULL`).get() as { n: number };
    if (ownArchived.n > 0) throw new Error(`${data.dataDir}: ${ownArchived.n} of the archive's own sessions are archived; write it again (delete the folder)`);
    const added = store.db.prepare(`UPDATE sessions SET archived_at = ?, state = 'ENDED' WHERE title IS NULL OR NOT (${own})`).run(Date.now()).changes;
    const deleted = added > 0 ? await cleanUp(store, Number.MAX_SAFE_INTEGER) : 0;
    const left = store.db.prepare('SELECT COUNT(*) AS n FROM sessions').get() as { n: number };
    if (deleted !== added || left.n !== data.sessions) throw new Error(`${data.dataDir}: ${left.n} sessions after restoring it, not the archive's ${data.sessions}`);
    store.db.pragma('wal_checkpoint(TRUNCATE)');
    return deleted;
  } finally {
    store.dispose();
  }
}

function writeArchive(dataDir: string, spec: ArchiveSpec, progress: (message: string) => void): Archive {
  const paths = dataPaths(dataDir);
  mkdirSync(paths.logs, { recursive: true });
  const store = Store.open(paths.database);
  const rand = seededRandom(spec.sessions * 31 + spec.eventsPerSession);
  const sentence = (n: number): string => {
    let s = '';
    for (let i = 0; i < n; i++) s += (i ? ' ' : '') + WORDS[Math.floor(rand() * WORDS.length)]!;
    return `${s}.`;
  };
  const insert = store.db.prepare('INSERT INTO events (session_id, seq, kind, payload, at) VALUES (?, ?, ?, ?, ?)');
  const finish = store.db.prepare('UPDATE sessions SET last_seq = ?, last_activity_at = ?, updated_at = ? WHERE id = ?');
  const mark = store.db.prepare('INSERT INTO search_backfill (session_id, upto_seq, last_activity_at) VALUES (?, ?, ?)');
  const base = Date.now() - spec.sessions * 60_000;
  let events = 0;
  let bytes = 0;
  const started = Date.now();
  const writeSession = store.db.transaction((i: number) => {
    const id = randomUUID();
    const at = base + i * 60_000;
    store.sessions.insert({ id, agent_id: 'demo', cwd: dataDir, state: 'ENDED' }, at);
    store.sessions.setTitle(id, `Archived session ${i + 1}: ${sentence(3)}`, at);
    let seq = 0;
    while (seq < spec.eventsPerSession) {
      const clientMessageId = randomUUID();
      const turn = [
        ['user_message', { text: `${sentence(6 + Math.floor(rand() * 10))}?`, clientMessageId }],
        ['agent_message', { text: `${sentence(30 + Math.floor(rand() * 60))}\n\n${sentence(20 + Math.floor(rand() * 40))}` }],
        ['turn_ended', { stopReason: 'end_turn', clientMessageId }],
      ] as const;
      for (const [kind, payload] of turn) {
        if (seq >= spec.eventsPerSession) break;
        const json = JSON.stringify(payload);
        insert.run(id, ++seq, kind, json, at);
        bytes += json.length;
      }
    }
    finish.run(seq, at, at, id);
    if (spec.backfill) mark.run(id, seq, at);
    events += seq;
  });
  try {
    for (let i = 0; i < spec.sessions; i++) {
      writeSession(i);
      if (i % Math.ceil(spec.sessions / 10) === 0 && i > 0) progress(`archive ${spec.name}: ${i} of ${spec.sessions} sessions written (${Math.round((Date.now() - started) / 1000)} s)`);
    }
    return { dataDir, sessions: spec.sessions, events, bytes };
  } finally {
    store.dispose();
  }
}
