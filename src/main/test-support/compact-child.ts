/**
 * Compacts a database and stops dead at a chosen step, for a test to kill it there:
 *
 *   node --import tsx compact-child.ts FILE STAGE
 *
 * Prints `at STAGE` when it gets there, then waits forever (the test's SIGKILL ends it).
 */
import { writeSync } from 'node:fs';
import { compactDatabase, type CompactionStage } from '../store/compact';

const [file, stop] = process.argv.slice(2) as [string, CompactionStage];
compactDatabase(file, {
  onStage: (stage) => {
    if (stage !== stop) return;
    writeSync(1, `at ${stage}\n`);
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
  },
});
process.stdout.write('done\n');
