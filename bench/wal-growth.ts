/**
 * `node --import tsx bench/wal-growth.ts [RATE] [SECONDS]`: the WAL file's size while a steady
 * stream of RATE events a second (default 1,000) is stored for SECONDS (default 10) by the
 * host's event log (its write slice) with the host's WAL checkpoints in a worker, then while
 * the stream pauses 4 s, then for 4 s more. Printed every 2 s.
 *
 * What it shows (stop 29): the worker's passive checkpoints never find every frame copied while
 * the writer commits every millisecond, so SQLite never restarts the WAL and it grows for as
 * long as the stream lasts (about 43 MB/s at 1,000 events/s here); the first write after a
 * pause restarts it (cut back to `journal_size_limit`).
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WalCheckpoints } from '../src/main/datadir/wal-checkpoints';
import { EventLog, HOST_WRITE_SLICE } from '../src/main/store/event-log';
import { Store } from '../src/main/store/store';
import { systemClock } from '../src/main/util/clock';
import { silentLogger } from '../src/main/util/log';

const rate = Number(process.argv[2] ?? 1_000);
const seconds = Number(process.argv[3] ?? 10);
const dir = mkdtempSync(join(tmpdir(), 'switchboard-wal-growth-'));
const file = join(dir, 'switchboard.db');
const store = Store.open(file);
store.sessions.insert({ id: 's', agent_id: 'demo', cwd: dir, state: 'ACTIVE' }, Date.now());
const checkpoints = new WalCheckpoints({ db: store.db, file, log: silentLogger });
const log = new EventLog(store.db, systemClock, () => checkpoints.noteWrite(), undefined, undefined, HOST_WRITE_SLICE);
const walMb = (): string => {
  try {
    return `${(statSync(`${file}-wal`).size / 2 ** 20).toFixed(0)} MB`;
  } catch {
    return 'no file';
  }
};
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

let streaming = true;
let sent = 0;
let phaseStart = performance.now();
let phaseSent = 0;
// Every millisecond, as many events as are due: a steady rate. Distinct message ids keep each
// event a row of its own, as a stream of tool calls would be.
const stream = setInterval(() => {
  if (!streaming) return;
  const due = Math.floor(((performance.now() - phaseStart) / 1000) * rate);
  for (; phaseSent < due; phaseSent++, sent++) log.append('s', 'agent_message', { text: `event ${sent}`, messageId: `m${sent}` });
}, 1);
const started = performance.now();
const report = setInterval(() => console.log(`${((performance.now() - started) / 1000).toFixed(0)} s, ${streaming ? 'streaming' : 'paused'}: WAL ${walMb()}`), 2_000);
const resume = (): void => {
  phaseStart = performance.now();
  phaseSent = 0;
  streaming = true;
};

try {
  await sleep(seconds * 1000);
  streaming = false;
  await sleep(4_000);
  resume();
  await sleep(4_000);
} finally {
  clearInterval(stream);
  clearInterval(report);
  log.dispose();
  await checkpoints.dispose();
  store.dispose();
  rmSync(dir, { recursive: true, force: true });
}
