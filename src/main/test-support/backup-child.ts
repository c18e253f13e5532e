/**
 * Takes a daily backup of a database and stops dead once the copy is made, before it gets its
 * backup name, for a test to kill it there:
 *
 *   node --import tsx backup-child.ts DATABASE BACKUPS_FOLDER
 *
 * Prints `copied` there, then waits forever (the test's SIGKILL ends it).
 */
import { writeSync } from 'node:fs';
import { Backups } from '../datadir/backups';
import { systemClock } from '../util/clock';
import { silentLogger } from '../util/log';

const [database, folder] = process.argv.slice(2) as [string, string];
const backups = new Backups({
  database,
  folder,
  clock: systemClock,
  log: silentLogger,
  keep: () => 7,
  onCopied: () => {
    writeSync(1, 'copied\n');
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
  },
});
void backups.take('daily');
