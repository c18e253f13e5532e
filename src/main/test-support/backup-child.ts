/**
 * Takes a daily backup of a database and stops dead after its first few steps, for a test to
 * kill it mid-backup:
 *
 *   node --import tsx backup-child.ts DATABASE BACKUPS_FOLDER
 *
 * Prints `midway` after the third step, then waits forever (the test's SIGKILL ends it).
 */
import { writeSync } from 'node:fs';
import { Backups } from '../datadir/backups';
import { Store } from '../store/store';
import { systemClock } from '../util/clock';
import { silentLogger } from '../util/log';

const [database, folder] = process.argv.slice(2) as [string, string];
const store = Store.open(database);
let steps = 0;
const backups = new Backups({
  folder,
  clock: systemClock,
  log: silentLogger,
  keep: () => 7,
  stepBudgetMs: 0.001,
  onStep: () => {
    if (++steps !== 3) return;
    writeSync(1, 'midway\n');
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
  },
});
void backups.take(store.db, 'daily');
