/**
 * `node --import tsx bench/agent-turns.ts [ROUNDS] [--prof DIR]`: the built demo agent's CPU per
 * short turn, with nothing else running: one agent process, 8 sessions (the host's sessions per
 * agent), each round a `/flood 10` in every session at once, read by a bare ACP SDK client. With
 * 100 sessions at once the agents' turns take the core the host shares with them
 * (docs/performance.md, stop 41). With --prof the agent writes a CPU profile into DIR as it exits
 * (bench/lib/cpu-prof-preload.mjs).
 */
import * as acp from '@agentclientprotocol/sdk';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { tempDataDir } from '../e2e/support/serve';

const args = process.argv.slice(2);
const rounds = Number(args.find((a) => /^\d+$/.test(a)) ?? 200);
const profDir = args.includes('--prof') ? args[args.indexOf('--prof') + 1] : undefined;
const SESSIONS = 8;
const WARM_ROUNDS = 50;

/** CPU ms (user + system) `pid` used so far, from /proc. */
function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

const dir = tempDataDir();
const preload = pathToFileURL(resolve(import.meta.dirname, 'lib/cpu-prof-preload.mjs')).href;
const child = spawn(process.execPath, [resolve(import.meta.dirname, '../out/main/demo-agent.js'), '--data-dir', join(dir.path, 'demo-agent')], {
  stdio: ['pipe', 'pipe', 'ignore'],
  env: { ...process.env, ...(profDir ? { NODE_OPTIONS: `--import=${preload}`, SWITCHBOARD_CPU_PROF_DIR: resolve(profDir) } : {}) },
});
const exited = new Promise((r) => child.once('exit', r));
const conn = acp
  .client({ name: 'bench-agent-turns' })
  .onNotification(acp.methods.client.session.update, () => {})
  .onNotification('*', () => {})
  .connect(acp.ndJsonStream(Writable.toWeb(child.stdin) as WritableStream<Uint8Array>, Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>));
// The agent exits when its stdin ends; the connection then closes, which is no error here.
conn.closed.catch(() => {});
try {
  await conn.agent.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
  const ids: string[] = [];
  for (let i = 0; i < SESSIONS; i++) ids.push((await conn.agent.request(acp.methods.agent.session.new, { cwd: dir.path, mcpServers: [] })).sessionId);
  const round = (): Promise<unknown> =>
    Promise.all(ids.map((sessionId) => conn.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: '/flood 10' }] })));
  for (let r = 0; r < WARM_ROUNDS; r++) await round();
  const cpu = cpuMs(child.pid!);
  const start = performance.now();
  for (let r = 0; r < rounds; r++) await round();
  const turns = rounds * SESSIONS;
  console.log(`${turns} turns of /flood 10 (${SESSIONS} sessions at once, after ${WARM_ROUNDS} warm-up rounds): agent CPU ${((cpuMs(child.pid!) - cpu) / turns).toFixed(3)} ms a turn, wall ${((performance.now() - start) / turns).toFixed(3)} ms a turn`);
} finally {
  child.stdin.end();
  const killer = setTimeout(() => child.kill('SIGTERM'), 3000);
  await exited;
  clearTimeout(killer);
  dir.cleanup();
}
if (profDir) console.log(`profile in ${resolve(profDir)}`);
