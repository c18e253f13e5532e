/**
 * `node --import tsx bench/agent-turns.ts [ROUNDS] [--flood] [--prof DIR]`: the built demo agent's CPU per
 * short turn, with nothing else running: one agent process, 8 sessions (the host's sessions per
 * agent), each round a `/flood 10` in every session at once, read by a bare ACP SDK client. With
 * 100 sessions at once the agents' turns take the core the host shares with them
 * (docs/performance.md, stop 41). With --prof the agent writes a CPU profile into DIR as it exits
 * (bench/lib/cpu-prof-preload.mjs).
 *
 * `--flood`: the agent's CPU for `/flood 100000` split over the 8 sessions instead (ROUNDS floods,
 * after 5 unmeasured): its cost per update, the other half of a flood's CPU on these 2 cores
 * (stop 42). The bare client reads slowly, so the wall time is the client's, not the agent's.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startBareClient } from './lib/bare-client';
import { cpuByProcess } from './lib/processes';
import { median } from './lib/stats';

const args = process.argv.slice(2);
const rounds = Number(args.find((a) => /^\d+$/.test(a)) ?? 200);
const profDir = args.includes('--prof') ? args[args.indexOf('--prof') + 1] : undefined;
const SESSIONS = 8;
const WARM_ROUNDS = 50;
const FLOOD = args.includes('--flood');
const FLOOD_EVENTS = 100_000;
const FLOOD_WARM = 5;

const preload = pathToFileURL(resolve(import.meta.dirname, 'lib/cpu-prof-preload.mjs')).href;
const agent = await startBareClient({
  sessions: SESSIONS,
  env: profDir ? { NODE_OPTIONS: `--import=${preload}`, SWITCHBOARD_CPU_PROF_DIR: resolve(profDir) } : {},
});
/** The agent's CPU ms so far. */
const cpuMs = (): number => (cpuByProcess(agent.pid).get(agent.pid)?.seconds ?? 0) * 1000;
try {
  if (FLOOD) {
    const flood = (): Promise<unknown> => Promise.all(agent.sessionIds.map((id) => agent.prompt(`/flood ${FLOOD_EVENTS / SESSIONS}`, id)));
    for (let r = 0; r < FLOOD_WARM; r++) await flood();
    const each: number[] = [];
    for (let r = 0; r < rounds; r++) {
      const cpu = cpuMs();
      await flood();
      each.push(cpuMs() - cpu);
    }
    console.log(`/flood ${FLOOD_EVENTS} over ${SESSIONS} sessions, ${rounds} times (after ${FLOOD_WARM}): agent CPU ${each.map((ms) => ms.toFixed(0)).join(' ')} ms a flood, median ${median(each).toFixed(0)} ms (${((1000 * median(each)) / FLOOD_EVENTS).toFixed(2)} µs an update)`);
  } else await shortTurns();
} finally {
  await agent.stop();
}
if (profDir) console.log(`profile in ${resolve(profDir)}`);

async function shortTurns(): Promise<void> {
  const round = (): Promise<unknown> => Promise.all(agent.sessionIds.map((id) => agent.prompt('/flood 10', id)));
  for (let r = 0; r < WARM_ROUNDS; r++) await round();
  const cpu = cpuMs();
  const start = performance.now();
  for (let r = 0; r < rounds; r++) await round();
  const turns = rounds * SESSIONS;
  console.log(`${turns} turns of /flood 10 (${SESSIONS} sessions at once, after ${WARM_ROUNDS} warm-up rounds): agent CPU ${((cpuMs() - cpu) / turns).toFixed(3)} ms a turn, wall ${((performance.now() - start) / turns).toFixed(3)} ms a turn`);
}
