/**
 * How long agents outlive a `kill -9` of their host (issue 11, ADR 0012): starts `serve` (from
 * source) with N stubborn demo agents (they ignore end of input and SIGTERM, and keep a helper),
 * one session each, SIGKILLs serve and times until the last agent process and helper is gone.
 *
 *   flock /tmp/sb-heavy.lock node --import tsx scripts/measure-orphans.ts [--runs 10] [--agents 3]
 *
 * Target: every agent process gone 3 s after the kill.
 */
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { dataPaths } from '../src/main/datadir/paths';
import { agentFootprint, isLive, killAll, markedAgentProcesses, markedProcesses, waitUntil, watchdogOf } from '../src/main/test-support/processes';
import { startServe, WsClient } from '../src/main/test-support/serve-process';
import { tempDir } from '../src/main/test-support/temp-dir';

const argv = process.argv.slice(2);
const option = (name: string, fallback: number): number => {
  const at = argv.indexOf(`--${name}`);
  return at === -1 ? fallback : Number(argv[at + 1]);
};
const runs = option('runs', 10);
const agents = option('agents', 3);

function marked(dir: string, count = markedProcesses): number[] {
  const db = new Database(dataPaths(dir).database, { readonly: true });
  const ids = (db.prepare(`SELECT id FROM brokers`).all() as { id: string }[]).map((r) => r.id);
  db.close();
  return count(ids);
}

/** One run: ms from the kill to the last agent process gone, and to the watchdog gone. */
async function run(): Promise<{ agentsGone: number; watchdogGone: number }> {
  const dir = tempDir();
  const p = startServe(['serve', '--port', '0', '--data-dir', dir.path, '--max-sessions-per-broker', '1'], {
    SWITCHBOARD_DEMO_AGENT_ARGS: '--stubborn',
  });
  try {
    const client = await WsClient.connect(await p.ready);
    for (let i = 0; i < agents; i++) {
      const view = await client.call('sessions:create', { cwd: dir.path });
      await client.call('sessions:switch', { sessionId: view.id });
      await client.waitFor('session:updated', (v) => v.id === view.id && v.state === 'ACTIVE');
    }
    // Each stubborn agent and its helper.
    await waitUntil(() => marked(dir.path, markedAgentProcesses).length === 2 * agents, 'every agent and helper to run');
    const pids = marked(dir.path);
    const watchdog = watchdogOf(p.pid)?.pid;
    if (watchdog === undefined) throw new Error('serve started no watchdog');
    client.close();

    const killedAt = performance.now();
    p.child.kill('SIGKILL');
    let agentsGone = NaN;
    let watchdogGone = NaN;
    await waitUntil(
      () => {
        const now = performance.now() - killedAt;
        if (Number.isNaN(agentsGone) && pids.every((pid) => !isLive(pid))) agentsGone = now;
        if (Number.isNaN(watchdogGone) && !isLive(watchdog)) watchdogGone = now;
        return !Number.isNaN(agentsGone) && !Number.isNaN(watchdogGone);
      },
      'every agent process and the watchdog to be gone',
      10_000,
      2,
    );
    if (marked(dir.path).length > 0) throw new Error('a marked process survived');
    return { agentsGone, watchdogGone };
  } finally {
    p.child.kill('SIGKILL');
    await p.exited;
    killAll(agentFootprint(dir.path));
    dir.cleanup();
  }
}

const stats = (xs: number[]): string => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length / 2;
  const median = sorted.length % 2 ? sorted[Math.floor(mid)]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return `median ${median.toFixed(0)} ms, max ${sorted.at(-1)!.toFixed(0)} ms`;
};

const results: { agentsGone: number; watchdogGone: number }[] = [];
for (let i = 0; i < runs; i++) {
  const r = await run();
  results.push(r);
  console.log(`run ${i + 1}/${runs}: agents gone after ${r.agentsGone.toFixed(0)} ms, watchdog after ${r.watchdogGone.toFixed(0)} ms`);
}
console.log(`${agents} stubborn agents, ${runs} runs of kill -9 of serve:`);
console.log(`  last agent process gone: ${stats(results.map((r) => r.agentsGone))}`);
console.log(`  watchdog gone:           ${stats(results.map((r) => r.watchdogGone))}`);
const worst = Math.max(...results.map((r) => r.agentsGone));
console.log(worst <= 3_000 ? '  within the 3 s target' : '  OVER the 3 s target');
process.exitCode = worst <= 3_000 ? 0 : 1;
