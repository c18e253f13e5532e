/**
 * A separate process that tries to lock data dirs at instants a "go" file names, and holds
 * what it got until its stdin closes. Lets a test start several would-be hosts at the same
 * instant, several rounds over (a race shows only now and then).
 *
 *   node --import tsx lock-contender.ts GOFILE LOCKFILE...
 *
 * Prints `waiting`, then per round `<i>:locked` or `<i>:refused: <message>`, then `done`.
 * The go file holds the first instant (ms since the epoch) and the gap between rounds.
 */
import { existsSync, readFileSync } from 'node:fs';
import { DataDirLock } from '../datadir/data-dir-lock';

const [goFile, ...lockFiles] = process.argv.slice(2) as [string, ...string[]];
const tick = new Int32Array(new SharedArrayBuffer(4));
process.stdout.write('waiting\n');
while (!existsSync(goFile)) Atomics.wait(tick, 0, 0, 1);
const [first, gap] = readFileSync(goFile, 'utf8').split(' ').map(Number) as [number, number];

const held: DataDirLock[] = [];
lockFiles.forEach((lockFile, i) => {
  const at = first + i * gap;
  // Wait gently, then spin to hit the instant exactly.
  while (Date.now() < at - 20) Atomics.wait(tick, 0, 0, 1);
  while (Date.now() < at) {
    // Spin.
  }
  try {
    held.push(DataDirLock.acquire(lockFile));
    process.stdout.write(`${i}:locked\n`);
  } catch (err) {
    process.stdout.write(`${i}:refused: ${(err as Error).message}\n`);
  }
});
process.stdout.write('done\n');
process.stdin.resume();
process.stdin.on('end', () => {
  for (const lock of held) lock.dispose();
  process.exit(0);
});
