/**
 * `node --import tsx bench/profile-diff.ts DIR_A REPS_A DIR_B REPS_B [TOP]`: where two host
 * profiles from `bench/profile.ts` (each DIR holds the host's .cpuprofile and the
 * measured.json written beside it) differ, per rep of their measured parts: the functions whose
 * self and total time grew most from A to B. For questions such as "what does a flood over 100
 * sessions cost the host that the same flood in one session does not" — run both profiles of the
 * same build, pinned (`--pin`), and compare.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { functionTimes, type CpuProfile, type FunctionTime } from './lib/cpu-profile';

interface Side {
  byKey: Map<string, FunctionTime>;
  busyMs: number;
  gcMs: number;
}

function side(dir: string, reps: number): Side {
  const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
  if (!file) throw new Error(`${dir} holds no .cpuprofile (the host writes it when it exits)`);
  const { start, end } = JSON.parse(readFileSync(join(dir, 'measured.json'), 'utf8')) as { start: number; end: number };
  const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile;
  const { functions, busyMs, gcMs } = functionTimes(profile, [start, end]);
  const byKey = new Map<string, FunctionTime>();
  for (const f of functions) byKey.set(`${f.name} (${f.where})`, { ...f, selfMs: f.selfMs / reps, totalMs: f.totalMs / reps });
  return { byKey, busyMs: busyMs / reps, gcMs: gcMs / reps };
}

const [dirA, repsA, dirB, repsB, topArg] = process.argv.slice(2);
if (!dirA || !repsA || !dirB || !repsB) {
  console.error('usage: bench/profile-diff.ts DIR_A REPS_A DIR_B REPS_B [TOP]');
  process.exit(2);
}
const a = side(dirA, Number(repsA));
const b = side(dirB, Number(repsB));
const top = Number(topArg ?? 30);
console.log(`per rep: busy ${a.busyMs.toFixed(1)} → ${b.busyMs.toFixed(1)} ms, GC ${a.gcMs.toFixed(1)} → ${b.gcMs.toFixed(1)} ms`);
for (const which of ['selfMs', 'totalMs'] as const) {
  const keys = new Set([...a.byKey.keys(), ...b.byKey.keys()]);
  const rows = [...keys].map((k) => ({ k, a: a.byKey.get(k)?.[which] ?? 0, b: b.byKey.get(k)?.[which] ?? 0 }));
  rows.sort((x, y) => y.b - y.a - (x.b - x.a));
  console.log(`\nby ${which === 'selfMs' ? 'self' : 'total'} time, most grown (ms per rep, A → B):`);
  for (const r of rows.slice(0, top)) console.log(`${(r.b - r.a).toFixed(1).padStart(8)}  ${r.a.toFixed(1).padStart(7)} → ${r.b.toFixed(1).padStart(7)}  ${r.k.slice(0, 140)}`);
}
