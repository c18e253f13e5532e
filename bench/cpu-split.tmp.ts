import { readFileSync, readdirSync } from 'node:fs';
import { liveSession, promptTurn, startHost } from './lib/host';
const ticks = (pid: number) => { const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' '); return (Number(f[11]) + Number(f[12])) * 10; };
const children = (pid: number) => readdirSync('/proc').filter((d) => /^\d+$/.test(d)).map(Number).filter((p) => { try { return readFileSync(`/proc/${p}/stat`, 'utf8').split(') ')[1]!.split(' ')[1] === String(pid); } catch { return false; } });
const host = await startHost();
const s = await liveSession(host.client);
await promptTurn(host.client, s, '/flood 25000');
const hp = host.serve.child.pid!;
const kids = children(hp);
for (let i = 0; i < 3; i++) {
  const h0 = ticks(hp), a0 = kids.map(ticks), me0 = process.cpuUsage();
  const ms = await promptTurn(host.client, s, '/flood 100000');
  const me = process.cpuUsage(me0);
  console.log(`${Math.round(100000 / ms * 1000)}/s wall ${ms.toFixed(0)} ms; host cpu ${ticks(hp) - h0} ms; agent(s) ${kids.map((k, j) => ticks(k) - a0[j]!)} ms; client ${((me.user + me.system) / 1000).toFixed(0)} ms`);
}
await host.stop();
