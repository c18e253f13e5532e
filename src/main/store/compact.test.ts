import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { existsSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { seedSessions } from '../test-support/seed-store';
import { tempDir } from '../test-support/temp-dir';
import { COMPACTION_STAGES, compactDatabase, compactionCopyOf, removeCompactionLeftover, type CompactionStage } from './compact';
import { checkDatabaseFile } from './db-check';
import { Store } from './store';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

const CHILD = resolve(import.meta.dirname, '../test-support/compact-child.ts');

/** A database with a deleted session's pages free, and what it should still hold. */
function grownDatabase(): { file: string; kept: string[]; events: number } {
  const dir = tempDir();
  cleanups.push(dir.cleanup);
  const file = join(dir.path, 'switchboard.db');
  const store = Store.open(file);
  const [gone, ...kept] = seedSessions(store, [{ events: 500, textSize: 600 }, { events: 40 }, { events: 25 }]);
  store.sessions.remove(gone!);
  store.dispose();
  return { file, kept, events: 65 };
}

function contents(file: string): { sessions: string[]; events: number } {
  const store = Store.open(file);
  try {
    return {
      sessions: store.sessions.list().map((s) => s.id).sort(),
      events: (store.db.prepare('SELECT COUNT(*) AS n FROM events').get() as { n: number }).n,
    };
  } finally {
    store.dispose();
  }
}

/** Runs the compaction in a child process and SIGKILLs it when it reaches `stage`. */
async function killedAt(file: string, stage: CompactionStage): Promise<void> {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, file, stage], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  await new Promise<void>((resolveAt, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes(`at ${stage}`)) {
        child.kill('SIGKILL');
        resolveAt();
      }
    });
    child.once('exit', (code) => reject(new Error(`the child exited (${code}) before ${stage}: ${out} ${err}`)));
  });
  await new Promise((r) => child.once('exit', r));
}

describe('compactDatabase', () => {
  it('gives back the free pages and keeps every row', () => {
    const { file, kept, events } = grownDatabase();
    const before = statSync(file).size;
    const result = compactDatabase(file);
    expect(result.bytesBefore).toBe(before);
    expect(result.bytesAfter).toBeLessThan(before / 2);
    expect(statSync(file).size).toBe(result.bytesAfter);
    expect(contents(file)).toEqual({ sessions: [...kept].sort(), events });
    expect(existsSync(compactionCopyOf(file))).toBe(false);
  });

  it.each(COMPACTION_STAGES)('loses nothing when the process is killed at "%s"', async (stage) => {
    const { file, kept, events } = grownDatabase();
    await killedAt(file, stage);
    // What the next start does before it opens the store.
    removeCompactionLeftover(file);
    expect(checkDatabaseFile(file)).toMatchObject({ ok: true });
    expect(contents(file)).toEqual({ sessions: [...kept].sort(), events });
    expect(existsSync(compactionCopyOf(file))).toBe(false);
  });

  it('never takes a torn copy left by a crash during the copy for the database', () => {
    const { file, kept, events } = grownDatabase();
    writeFileSync(compactionCopyOf(file), 'SQLite format 3\0 and then the crash');
    expect(removeCompactionLeftover(file)).toBe(true);
    expect(contents(file)).toEqual({ sessions: [...kept].sort(), events });
  });

  it('refuses while another connection has the database open, leaving it as it was', () => {
    const { file, kept, events } = grownDatabase();
    const other = new Database(file);
    other.pragma('journal_mode = WAL');
    try {
      expect(() => compactDatabase(file)).toThrow(/in use by another connection/);
      // The other connection goes on writing to the same file.
      other.prepare(`INSERT INTO settings (key, value) VALUES ('after', '1')`).run();
    } finally {
      other.close();
    }
    expect(existsSync(compactionCopyOf(file))).toBe(false);
    expect(contents(file)).toEqual({ sessions: [...kept].sort(), events });
  });
});
