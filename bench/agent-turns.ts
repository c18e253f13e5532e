/**
 * `node --import tsx bench/agent-turns.ts [ROUNDS] [--prof DIR]`: the built demo agent's CPU per
 * short turn, with nothing else running: one agent process, 8 sessions (the host's sessions per
 * agent), each round a `/flood 10` in every session at once, read by a bare ACP SDK client. With
 * 100 sessions at once the agents' turns take the core the host shares with them
 * (docs/performance.md, stop 41). With --prof the agent writes a CPU profile into DIR as it exits
 * (bench/lib/cpu-prof-preload.mjs).
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startBareClient } from './lib/bare-client';
import { cpuByProcess } from './lib/processes';

const args = process.argv.slice(2);
const rounds = Number(args.find((a) => /^\d+$/.test(a)) ?? 200);
const profDir = args.includes('--prof') ? args[args.indexOf('--prof') + 1] : undefined;
const SESSIONS = 8;
const WARM_ROUNDS = 50;

const preload = pathToFileURL(resolve(import.meta.dirname, 'lib/cpu-prof-preload.mjs')).href;
const agent = await startBareClient({
  sessions: SESSIONS,
  env: profDir ? { NODE_OPTIONS: `--import=${preload}`, SWITCHBOARD_CPU_PROF_DIR: resolve(profDir) } : {},
});
/** The agent's CPU ms so far. */
const cpuMs = (): number => (cpuByProcess(agent.pid).get(agent.pid)?.seconds ?? 0) * 1000;
try {
  const round = (): Promise<unknown> => Promise.all(agent.sessionIds.map((id) => agent.prompt('/flood 10', id)));
  for (let r = 0; r < WARM_ROUNDS; r++) await round();
  const cpu = cpuMs();
  const start = performance.now();
  for (let r = 0; r < rounds; r++) await round();
  const turns = rounds * SESSIONS;
  console.log(`${turns} turns of /flood 10 (${SESSIONS} sessions at once, after ${WARM_ROUNDS} warm-up rounds): agent CPU ${((cpuMs() - cpu) / turns).toFixed(3)} ms a turn, wall ${((performance.now() - start) / turns).toFixed(3)} ms a turn`);
} finally {
  await agent.stop();
}
if (profDir) console.log(`profile in ${resolve(profDir)}`);
