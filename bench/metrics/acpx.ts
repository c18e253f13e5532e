/**
 * ingest_vs_acpx: the same `/flood N` from the demo agent, consumed by acpx (the headless ACP
 * client on npm, pinned below) and by Switchboard's host (`serve`, stored and streamed to a
 * client of the window's WebSocket), rep by rep in the same run.
 *
 * acpx is installed by the benchmark itself with `npm install --prefix` into a cache dir
 * under the OS temp dir (never into this project), once. It declares node >= 22.13 in its
 * engines; it runs its one-shot `exec` on Node 20 here (checked by its output below).
 *
 * acpx starts the agent for every `exec`; the host's session is already live. So acpx's flood
 * time is its run of `/flood N` minus its run of `/flood 1` (start, session, exit), the
 * medians of the reps: like for like. The ratio with acpx's start-up included is in the detail.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { liveSession, promptTurn, startHost } from '../lib/host';
import { median } from '../lib/stats';
import type { BenchContext, BenchGroup, Metric } from '../lib/types';

export const ACPX_VERSION = '0.19.1';
const DEMO_AGENT = resolve(import.meta.dirname, '../../out/main/demo-agent.js');

function run(command: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<{ code: number | null; stdout: string; stderr: string; ms: number }> {
  return new Promise((resolveRun, reject) => {
    const start = performance.now();
    const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolveRun({ code, stdout: Buffer.concat(out).toString(), stderr, ms: performance.now() - start }));
  });
}

/** acpx's CLI entry, installed into the cache dir if it is not there yet. */
export async function installAcpx(progress: (message: string) => void): Promise<string> {
  const prefix = join(tmpdir(), `switchboard-bench-acpx-${ACPX_VERSION}`);
  const cli = join(prefix, 'node_modules/acpx/dist/cli.js');
  const manifest = join(prefix, 'node_modules/acpx/package.json');
  if (existsSync(cli) && (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version === ACPX_VERSION) return cli;
  progress(`installing acpx@${ACPX_VERSION} into ${prefix}`);
  // No install scripts: acpx's own code is plain JavaScript, and nothing else it pulls in is run by `exec`.
  const npm = await run('npm', ['install', '--prefix', prefix, '--no-audit', '--no-fund', '--ignore-scripts', `acpx@${ACPX_VERSION}`]);
  if (npm.code !== 0 || !existsSync(cli)) throw new Error(`npm install acpx@${ACPX_VERSION} failed (exit ${npm.code}): ${npm.stderr.trim().split('\n').slice(-3).join(' | ')}`);
  return cli;
}

/** One `acpx exec "/flood N"` against a fresh demo agent; checks that every chunk came out. */
async function acpxFlood(cli: string, count: number): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-bench-acpx-run-'));
  try {
    const agent = `${process.execPath} ${DEMO_AGENT} --data-dir ${join(dir, 'agent')}`;
    // HOME in the temp dir: acpx keeps its configuration and session records there.
    const r = await run(process.execPath, [cli, '--agent', agent, '--cwd', dir, '--format', 'quiet', '--approve-all', 'exec', `/flood ${count}`], { cwd: dir, env: { ...process.env, HOME: dir } });
    if (r.code !== 0) throw new Error(`acpx exited with ${r.code}: ${r.stderr.trim().split('\n').slice(-3).join(' | ')}`);
    if (!r.stdout.includes(`flood ${count}\n`) || !r.stdout.startsWith('flood 1\n')) throw new Error(`acpx printed no complete flood (${r.stdout.length} characters: ${JSON.stringify(r.stdout.slice(0, 80))})`);
    return r.ms;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export const acpxComparison: BenchGroup = {
  names: ['ingest_vs_acpx'],

  async run(ctx: BenchContext): Promise<Metric[]> {
    const count = ctx.quick ? 20_000 : 100_000;
    const reps = ctx.quick ? 2 : 5;
    const cli = await installAcpx(ctx.progress);
    const host = await startHost();
    try {
      const session = await liveSession(host.client);
      await promptTurn(host.client, session, `/flood ${count / 4}`);
      await acpxFlood(cli, count / 4);
      const hostMs: number[] = [];
      const acpxMs: number[] = [];
      const startMs: number[] = [];
      for (let rep = 0; rep < reps; rep++) {
        hostMs.push(await promptTurn(host.client, session, `/flood ${count}`));
        acpxMs.push(await acpxFlood(cli, count));
        startMs.push(await acpxFlood(cli, 1));
        ctx.progress(`flood ${count}: host ${hostMs.at(-1)!.toFixed(0)} ms; acpx ${acpxMs.at(-1)!.toFixed(0)} ms, of which start-up ${startMs.at(-1)!.toFixed(0)} ms`);
      }
      const host1 = median(hostMs);
      const acpxAll = median(acpxMs);
      const acpxStart = median(startMs);
      const acpxNet = acpxAll - acpxStart;
      if (!(acpxNet > 0)) throw new Error(`acpx's flood took no time beyond its start-up (${acpxAll.toFixed(0)} ms vs ${acpxStart.toFixed(0)} ms): cannot compare`);
      const hostRate = (count / host1) * 1000;
      const acpxRate = (count / acpxNet) * 1000;
      return [
        {
          name: 'ingest_vs_acpx',
          value: hostRate / acpxRate,
          unit: 'ratio',
          target: 8,
          better: 'higher',
          detail:
            `/flood ${count}, medians of ${reps}: host ${Math.round(hostRate).toLocaleString('en')} events/s (${host1.toFixed(0)} ms); ` +
            `acpx ${ACPX_VERSION} --format quiet on Node ${process.versions.node} ${Math.round(acpxRate).toLocaleString('en')} events/s (${acpxAll.toFixed(0)} ms less its ${acpxStart.toFixed(0)} ms start-up); ` +
            `with acpx's start-up counted ${((acpxAll / host1)).toFixed(1)} ×`,
        },
      ];
    } finally {
      await host.stop();
    }
  },
};
