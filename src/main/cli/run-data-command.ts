/**
 * Runs `switchboard backup`, `restore` and `doctor` (parsed in `data-commands.ts`).
 */
import { isAppError } from '../../shared/errors';
import { backupToFile, restoreFromFile } from '../datadir/restore';
import { DataDirLock } from '../datadir/data-dir-lock';
import { dataPaths } from '../datadir/paths';
import type { DataCommand } from './data-commands';
import { formatDoctor, runDoctor } from './doctor';

const write = (stream: NodeJS.WriteStream, text: string): void => {
  stream.write(text);
};

/** Runs a data-folder command; resolves with the exit code: 0 done, 1 refused, failed or (doctor) any problem found. */
export async function runDataCommand(c: DataCommand): Promise<number> {
  const paths = dataPaths(c.dataDir);
  try {
    switch (c.command) {
      case 'backup': {
        const r = await backupToFile(paths.database, c.file);
        write(process.stdout, `Backed up ${paths.database} to ${r.file} (schema ${r.schemaVersion}, ${r.pages} pages, checked).\n`);
        return 0;
      }
      case 'restore': {
        const r = restoreFromFile({ database: paths.database, lock: paths.lock }, c.file, { acquireLock: (file) => DataDirLock.acquire(file), now: () => Date.now() });
        write(
          process.stdout,
          `Restored ${r.restoredFrom} (schema ${r.schemaVersion}) as ${paths.database}.\n` +
            (r.setAside ? `The database that was there is kept as ${r.setAside}.\n` : ''),
        );
        return 0;
      }
      case 'doctor': {
        const checks = await runDoctor({ dataDir: c.dataDir });
        write(process.stdout, formatDoctor(c.dataDir, checks));
        return checks.some((x) => x.status === 'problem') ? 1 : 0;
      }
    }
  } catch (err) {
    write(process.stderr, `switchboard: ${isAppError(err) || err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
}
