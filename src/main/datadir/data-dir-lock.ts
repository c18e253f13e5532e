import { randomUUID } from 'node:crypto';
import { linkSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { AppError } from '../../shared/errors';
import { isSameProcess, processStartTime } from '../util/process-info';
import type { Disposable } from '../util/lifecycle';

interface Holder {
  pid: number;
  startTime: string | null;
  /** Tells this process's locks apart (a second host in the same process is refused too). */
  nonce?: string;
}

/** Lock files this process holds: a same-pid holder is only stale if it's not one of these. */
const heldHere = new Set<string>();

/**
 * One host per data dir. The lock file names the holder's pid and start time; a lock whose
 * holder is gone (crash, kill -9) is taken over, a live holder refuses the newcomer, naming
 * its pid. The file appears with its content in one step (`link`), and a stale one is
 * replaced in one step (`rename`) by whoever holds the takeover lock, so hosts starting at the
 * same instant never both win.
 */
export class DataDirLock implements Disposable {
  private released = false;

  private constructor(
    private readonly file: string,
    private readonly nonce: string,
  ) {}

  static acquire(path: string): DataDirLock {
    const file = resolve(path);
    const nonce = randomUUID();
    const me: Holder = { pid: process.pid, startTime: processStartTime(process.pid) ?? null, nonce };
    for (let attempt = 0; attempt < 200; attempt++) {
      if (createWith(file, me)) return DataDirLock.held(file, nonce);
      const holder = readHolder(file);
      if (holder === 'missing') continue;
      if (holder && isRunning(file, holder)) throw refusal(file, holder.pid);
      // Stale. Only the holder of the takeover lock replaces it, after checking again.
      const takeover = `${file}.takeover`;
      if (!createWith(takeover, me)) {
        const other = readHolder(takeover);
        if (other !== 'missing' && !(other && isSameProcess(other.pid, other.startTime))) removeQuietly(takeover);
        else pause(5); // another host is replacing the stale lock right now
        continue;
      }
      try {
        const again = readHolder(file);
        if (again === 'missing') continue;
        if (again && isRunning(file, again)) throw refusal(file, again.pid);
        const tmp = writeTemp(file, me);
        renameSync(tmp, file);
        return DataDirLock.held(file, nonce);
      } finally {
        removeQuietly(takeover);
      }
    }
    throw new AppError('internal', `Could not lock ${file}`);
  }

  private static held(file: string, nonce: string): DataDirLock {
    heldHere.add(file);
    return new DataDirLock(file, nonce);
  }

  /** Releases the lock. Idempotent: a second call never touches a lock someone took since. */
  dispose(): void {
    if (this.released) return;
    this.released = true;
    heldHere.delete(this.file);
    const holder = readHolder(this.file);
    // Someone may have taken it over (after judging us gone): theirs is not ours to remove.
    if (holder && holder !== 'missing' && holder.pid === process.pid && (holder.nonce === undefined || holder.nonce === this.nonce)) {
      removeQuietly(this.file);
    }
  }
}

function refusal(file: string, pid: number): AppError {
  return new AppError(
    'already_exists',
    `Another Switchboard (pid ${pid}) is already using this data folder (${dirname(file)}). Quit it first, or pass a different --data-dir.`,
    { pid },
  );
}

function isRunning(file: string, holder: Holder): boolean {
  if (holder.pid === process.pid) return heldHere.has(file);
  return isSameProcess(holder.pid, holder.startTime);
}

/** Creates `file` holding `holder`, atomically with its content; false if it exists. */
function createWith(file: string, holder: Holder): boolean {
  const tmp = writeTemp(file, holder);
  try {
    linkSync(tmp, file);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    return false;
  } finally {
    removeQuietly(tmp);
  }
}

function writeTemp(file: string, holder: Holder): string {
  const tmp = `${file}.${process.pid}.${randomUUID().slice(0, 8)}.tmp`;
  writeFileSync(tmp, JSON.stringify(holder));
  return tmp;
}

function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function removeQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // Already gone.
  }
}

/** The holder named in `file`; undefined if unreadable (stale), 'missing' if there's no file. */
function readHolder(file: string): Holder | 'missing' | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'missing' : undefined;
  }
  try {
    const parsed = JSON.parse(text) as { pid?: unknown; startTime?: unknown; nonce?: unknown };
    if (typeof parsed.pid !== 'number') return undefined;
    return {
      pid: parsed.pid,
      startTime: typeof parsed.startTime === 'string' ? parsed.startTime : null,
      ...(typeof parsed.nonce === 'string' ? { nonce: parsed.nonce } : {}),
    };
  } catch {
    return undefined;
  }
}
