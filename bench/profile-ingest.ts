/**
 * `node --import tsx bench/profile-ingest.ts [COUNT]`: a CPU profile of the built host
 * (`serve` under `node --cpu-prof`) while the demo agent floods one watched session; prints
 * the functions with the most self time and where the .cpuprofile is (open it in DevTools).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { liveSession, promptTurn } from './lib/host';
import { BenchClient } from './lib/ws-client';

interface Profile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  samples: number[];
  timeDeltas: number[];
}

const count = Number(process.argv[2] ?? 100_000);
const dataDir = mkdtempSync(join(tmpdir(), 'switchboard-profile-'));
const profDir = mkdtempSync(join(tmpdir(), 'switchboard-cpuprofile-'));
const child = spawn(process.execPath, ['--cpu-prof', `--cpu-prof-dir=${profDir}`, 'bin/switchboard.mjs', 'serve', '--port', '0', '--data-dir', dataDir], {
  cwd: join(import.meta.dirname, '..'),
  stdio: ['ignore', 'pipe', 'ignore'],
});
const url = await new Promise<string>((resolve) =>
  createInterface({ input: child.stdout! }).on('line', (line) => {
    const m = /Switchboard ready: (\S+)/.exec(line);
    if (m) resolve(m[1]!);
  }),
);
const client = await BenchClient.connect(url);
const session = await liveSession(client);
await promptTurn(client, session, `/flood ${Math.ceil(count / 5)}`);
const ms = await promptTurn(client, session, `/flood ${count}`);
console.log(`/flood ${count}: ${ms.toFixed(0)} ms, ${Math.round((count / ms) * 1000)} events/s (profile covers start-up and a warm-up flood too)`);
client.close();
child.kill('SIGTERM');
await new Promise((resolve) => child.once('exit', resolve));

const file = join(profDir, readdirSync(profDir)[0]!);
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
const self = new Map<string, number>();
profile.samples.forEach((id, i) => {
  const f = byId.get(id)!;
  const key = `${f.functionName || '(anonymous)'} ${f.url.split('/').at(-1)}:${f.lineNumber}`;
  self.set(key, (self.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0));
});
const total = [...self.values()].reduce((a, b) => a + b, 0);
for (const [key, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25)) {
  console.log(`${(us / 1000).toFixed(1).padStart(8)} ms ${((100 * us) / total).toFixed(1).padStart(5)}%  ${key}`);
}
console.log(`profile: ${file}`);
rmSync(dataDir, { recursive: true, force: true });
