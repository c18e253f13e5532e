/**
 * `node --import tsx bench/flood-cpu.ts SESSIONS [PLAN]`: one host of the built app with SESSIONS
 * demo sessions, `/flood 100000/SESSIONS` in each at once, over and over; for each flood its wall
 * time, the host's CPU during it and in the 1.5 s after (search batches, index merges), and the
 * agents' CPU and page faults. PLAN says what comes after each flood: `i` 1.5 s idle, `b` 6 s of
 * another process computing (default: 12 × `i`). How a flood's cost settles as the processes warm
 * up, and what a busy machine does to processes that wait (docs/performance.md, stop 42).
 */
import { spawn } from 'node:child_process';
import { liveSession, promptTurn, startHost } from './lib/host';
import { hostTreeCpu } from './lib/processes';

const sessions = Number(process.argv[2]);
const plan = (process.argv[3] ?? 'iiiiiiiiiiii').split('');
if (!Number.isInteger(sessions) || sessions < 1 || plan.some((p) => p !== 'i' && p !== 'b')) {
  console.error('usage: node --import tsx bench/flood-cpu.ts SESSIONS [PLAN of i and b]');
  process.exit(2);
}
const IDLE_MS = 1_500;
const BUSY_MS = 6_000;

const host = await startHost();
const pid = host.serve.child.pid!;
/** Another process computing and allocating for `ms`. */
const busy = (ms: number): Promise<unknown> =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, ['-e', `const end = Date.now() + ${ms}; let a = []; while (Date.now() < end) { a.push(new Array(1000).fill(Math.random())); if (a.length > 5000) a = []; }`]);
    child.once('exit', resolve);
  });
try {
  const ids: string[] = [];
  for (let i = 0; i < sessions; i++) ids.push(await liveSession(host.client));
  const each = Math.ceil(100_000 / sessions);
  let after = 'start';
  for (const step of plan) {
    const a = hostTreeCpu(pid);
    const start = performance.now();
    await Promise.all(ids.map((id) => promptTurn(host.client, id, `/flood ${each}`)));
    const ms = performance.now() - start;
    const b = hostTreeCpu(pid);
    await new Promise((r) => setTimeout(r, IDLE_MS));
    const c = hostTreeCpu(pid);
    console.log(
      `after ${after}: flood ${ms.toFixed(0)} ms; host ${(b.host - a.host).toFixed(0)} ms (+${(c.host - b.host).toFixed(0)} ms after); agents ${(b.agents - a.agents).toFixed(0)} ms, ${b.agentFaults - a.agentFaults} page faults`,
    );
    if (step === 'b') await busy(BUSY_MS);
    after = step === 'b' ? `${IDLE_MS / 1000} s idle and ${BUSY_MS / 1000} s of another process busy` : `${IDLE_MS / 1000} s idle`;
  }
} finally {
  await host.stop();
}
