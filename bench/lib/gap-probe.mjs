// Preloaded into `serve` by `bench/profile.ts ingest|backfill` (`node --import`, beside
// --cpu-prof): a 1 ms timer that notes every interval over SWITCHBOARD_GAP_MS (default 8) with
// its start and end on the clock V8's CPU profile uses (monotonic µs), and writes them to
// SWITCHBOARD_GAP_FILE at exit, so the profile's samples inside each stall say what caused it.
import { writeFileSync } from 'node:fs';

const file = process.env.SWITCHBOARD_GAP_FILE;
if (file) {
  const over = Number(process.env.SWITCHBOARD_GAP_MS ?? 8) * 1000;
  const gaps = [];
  const now = () => Number(process.hrtime.bigint() / 1000n);
  let last = now();
  setInterval(() => {
    const t = now();
    if (t - last > over) gaps.push([last, t]);
    last = t;
  }, 1).unref();
  process.on('exit', () => writeFileSync(file, JSON.stringify(gaps)));
}
