import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { AppError } from '../../shared/errors';
import { isSameProcess, processStartTime } from '../brokers/process-info';

/**
 * One host per data dir. The lock file names the holder's pid and start time; a lock whose
 * holder is gone (crash, kill -9) is taken over, a live holder refuses the newcomer.
 */
export class DataDirLock {
  private constructor(private readonly file: string) {}

  static acquire(file: string): DataDirLock {
    const me = JSON.stringify({ pid: process.pid, startTime: processStartTime(process.pid) ?? null });
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        const fd = openSync(file, 'wx');
        writeSync(fd, me);
        closeSync(fd);
        return new DataDirLock(file);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
      const holder = readHolder(file);
      if (holder && holder.pid !== process.pid && isSameProcess(holder.pid, holder.startTime)) {
        throw new AppError(
          'already_exists',
          `Another Switchboard (pid ${holder.pid}) is already using this data folder (${file.replace(/[\\/][^\\/]+$/, '')}). Quit it first, or pass a different --data-dir.`,
          { pid: holder.pid },
        );
      }
      try {
        unlinkSync(file); // stale: its host is gone
      } catch {
        // Someone else removed it first; try again.
      }
    }
    throw new AppError('internal', `Could not lock ${file}`);
  }

  release(): void {
    try {
      const holder = readHolder(this.file);
      if (holder?.pid === process.pid) unlinkSync(this.file);
    } catch {
      // Already gone.
    }
  }
}

function readHolder(file: string): { pid: number; startTime: string | null } | undefined {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as { pid?: unknown; startTime?: unknown };
    if (typeof parsed.pid !== 'number') return undefined;
    return { pid: parsed.pid, startTime: typeof parsed.startTime === 'string' ? parsed.startTime : null };
  } catch {
    return undefined;
  }
}
