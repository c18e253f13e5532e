/**
 * `node --import tsx bench/ingest-ab.ts REPS BUILD [BUILD ...] [--sessions=N] [--total=N] [--pause=MS] [--pin]`:
 * `ingest_events_per_s` and `ingest_events_per_s_N_sessions` (default 100) for two or more
 * builds of the host side by side, rep by rep in turn, so a change is judged against the build
 * before it on this machine, whose speed drifts by 10–25% over minutes (and by 2× over a day).
 *
 * A BUILD is a folder holding a built `out/` (copy one aside after `npx electron-vite build`);
 * keep it inside the checkout (say `.ab/before/out`) so its code finds `node_modules`. Every
 * host (one session and N sessions per build) is started and warmed first, as `npm run bench`
 * warms them; then each rep runs one flood on each host in turn: `/flood 100000` (or `--total`) in one
 * session, `/flood TOTAL/N` in each of the N. After each flood the tool waits `--pause` ms (default
 * 1500) before the next, and counts the host's CPU over the flood and that pause: work a flood
 * leaves for later (search batches within a second, merges) is counted with it and does not
 * spill into the next build's flood.
 *
 * Prints, per build: the median time of a flood and the host's CPU for it, one session and N,
 * and the ratio of the medians (the benchmark's target is 0.8), with the agents' and this
 * client's CPU beside the host's (the two cores hold all three). With --pin each host runs on core
 * 0 and its agents and this client on core 1: the host's CPU is then its own work, not its wait
 * for a core (the wall times are not the benchmark's).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { tempDataDir } from '../e2e/support/serve';
import { liveSession, promptTurn } from './lib/host';
import { hostTreeCpu, pinHost } from './lib/processes';
import { median, warmUntilSteady } from './lib/stats';
import { BenchClient } from './lib/ws-client';

const args = process.argv.slice(2);
const option = (name: string, fallback: number): number => Number(args.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const [repsArg, ...builds] = args.filter((a) => !a.startsWith('--'));
const reps = Number(repsArg);
const sessions = option('sessions', 100);
const pauseMs = option('pause', 1500);
const pin = args.includes('--pin');
/** Events per flood, split over the sessions (`--total`: a small one makes the turns the work). */
const TOTAL = option('total', 100_000);

if (!Number.isInteger(reps) || reps < 1 || builds.length === 0) {
  console.error('usage: node --import tsx bench/ingest-ab.ts REPS BUILD [BUILD ...] [--sessions=N] [--total=N] [--pause=MS] [--pin]');
  process.exit(2);
}
for (const build of builds) {
  if (!existsSync(resolve(build, 'out/main/cli.js'))) {
    console.error(`${build}: no out/main/cli.js (copy a built out/ there)`);
    process.exit(2);
  }
}

/**
 * Runs a build's `out/main/cli.js` as `bin/switchboard.mjs` runs the checkout's (a script file,
 * not `node -e`: the host's worker threads inherit the flags it runs with).
 */
const RUNNER_DIR = mkdtempSync(join(tmpdir(), 'switchboard-ab-'));
// However the tool ends (a failure, Ctrl-C), the runner's folder goes with it.
process.on('exit', () => rmSync(RUNNER_DIR, { recursive: true, force: true }));
process.on('SIGINT', () => process.exit(130));
const RUNNER = join(RUNNER_DIR, 'serve.mjs');
writeFileSync(RUNNER, 'const [cli, ...argv] = process.argv.slice(2);\nprocess.exitCode = await (await import(cli)).main(argv);\n');

/** CPU ms this client used so far. */
const clientCpuMs = (): number => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

interface Rep {
  ms: number;
  cpuMs: number;
  /** The agents' CPU over the same span (their process tree under the host). */
  agentsMs: number;
  /** This client's CPU over the same span. */
  clientMs: number;
}

/** `serve` of `build` on a new data folder, one client connected; `sessions` live sessions, warmed. */
async function floodHost(build: string, count: number): Promise<{ flood(): Promise<Rep>; stop(): Promise<void> }> {
  const dir = tempDataDir();
  const child: ChildProcess = spawn(process.execPath, [RUNNER, pathToFileURL(resolve(build, 'out/main/cli.js')).href, 'serve', '--port', '0', '--data-dir', dir.path], {
    stdio: ['ignore', 'pipe', 'ignore'],
    env: { ...process.env, SWITCHBOARD_LOG: 'warn' },
  });
  const exited = new Promise((r) => child.once('exit', r));
  const url = await new Promise<string>((resolveUrl, reject) => {
    void exited.then(() => reject(new Error(`${build}: serve exited before it was ready`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const m = /^Switchboard ready: (http:\/\/[^/]+)\/\?token=(\S+)$/.exec(line);
      if (m) resolveUrl(`${m[1]}/?token=${m[2]}`);
    });
  });
  const client = await BenchClient.connect(url);
  const ids: string[] = [];
  for (let i = 0; i < count; i++) ids.push(await liveSession(client));
  const each = Math.ceil(TOTAL / count);
  const flood = async (): Promise<Rep> => {
    const cpu = hostTreeCpu(child.pid!);
    const mine = clientCpuMs();
    const start = performance.now();
    await Promise.all(ids.map((id) => promptTurn(client, id, `/flood ${each}`)));
    const ms = performance.now() - start;
    const clientMs = clientCpuMs() - mine;
    await new Promise((r) => setTimeout(r, pauseMs));
    const after = hostTreeCpu(child.pid!);
    return { ms, cpuMs: after.host - cpu.host, agentsMs: after.agents - cpu.agents, clientMs };
  };
  if (pin) pinHost(child.pid!);
  // The benchmark's warm-up: until steady, and at least until each agent process streamed a quarter of the flood.
  const minWarm = Math.ceil(TOTAL / 4 / (each * Math.min(count, 8)));
  const warm = await warmUntilSteady(async () => (await flood()).ms, { min: minWarm, max: Math.max(minWarm, 20) });
  process.stderr.write(`${build}, ${count} session${count === 1 ? '' : 's'}: ${warm.length} warm-up floods (${warm.map((t) => t.toFixed(0)).join(' ')} ms)\n`);
  return {
    flood,
    async stop() {
      client.close();
      child.kill('SIGTERM');
      await exited;
      dir.cleanup();
    },
  };
}

const hosts: { build: string; one: Awaited<ReturnType<typeof floodHost>>; many: Awaited<ReturnType<typeof floodHost>>; ones: Rep[]; manys: Rep[] }[] = [];
for (const build of builds) hosts.push({ build, one: await floodHost(build, 1), many: await floodHost(build, sessions), ones: [], manys: [] });
for (let rep = 0; rep < reps; rep++) {
  for (const h of hosts) h.ones.push(await h.one.flood());
  for (const h of hosts) h.manys.push(await h.many.flood());
  process.stderr.write(`rep ${rep + 1}/${reps}\n`);
}
for (const h of hosts) {
  const one = median(h.ones.map((r) => r.ms));
  const many = median(h.manys.map((r) => r.ms));
  const cpu = (rs: Rep[]): string =>
    `host CPU ${median(rs.map((r) => r.cpuMs)).toFixed(0)} ms, agents ${median(rs.map((r) => r.agentsMs)).toFixed(0)} ms, client ${median(rs.map((r) => r.clientMs)).toFixed(0)} ms`;
  console.log(
    `${h.build}: one session ${one.toFixed(0)} ms (${cpu(h.ones)}), ` +
      `${sessions} sessions ${many.toFixed(0)} ms (${cpu(h.manys)}); ratio ${(one / many).toFixed(2)}` +
      `\n  ${sessions}-session floods: ${h.manys.map((r) => r.ms.toFixed(0)).join(' ')} ms; host CPU ${h.manys.map((r) => r.cpuMs.toFixed(0)).join(' ')} ms`,
  );
  await h.one.stop();
  await h.many.stop();
}
