/**
 * Reading a V8 CPU profile (`node --cpu-prof`, or DevTools' Profiler over CDP): where the time
 * went, by function. Self time is the time a function was on top of the stack; total time is
 * the time it was anywhere on it (counted once per sample however deep it recurses).
 */
export interface CpuProfile {
  nodes: { id: number; parent?: number; children?: number[]; callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number } }[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

export interface FunctionTime {
  name: string;
  /** File name and line (1-based) where the function is. */
  where: string;
  selfMs: number;
  totalMs: number;
}

const IDLE = new Set(['(idle)', '(program)', '(garbage collector)', '(root)']);

/** `[start, end]` on the profile's clock (monotonic µs): only samples inside count. */
export type Window = readonly [number, number];

export function functionTimes(profile: CpuProfile, window?: Window): { functions: FunctionTime[]; busyMs: number; idleMs: number; gcMs: number; wallMs: number } {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const keyOf = (id: number): string => {
    const f = byId.get(id)!.callFrame;
    return `${f.functionName || '(anonymous)'}\t${f.url.split('/').at(-1) ?? ''}:${f.lineNumber + 1}`;
  };
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  let idle = 0;
  let gc = 0;
  let all = 0;
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i] ?? 0;
    if (window && (at < window[0] || at > window[1])) return;
    const us = profile.timeDeltas[i + 1] ?? 0; // a sample's delta is the time until the next one
    all += us;
    const name = byId.get(id)?.callFrame.functionName ?? '';
    if (name === '(idle)') idle += us;
    if (name === '(garbage collector)') gc += us;
    const key = keyOf(id);
    self.set(key, (self.get(key) ?? 0) + us);
    const seen = new Set<string>();
    for (let n: number | undefined = id; n !== undefined; n = parent.get(n)) {
      const k = keyOf(n);
      if (seen.has(k)) continue;
      seen.add(k);
      total.set(k, (total.get(k) ?? 0) + us);
    }
  });
  const functions = [...total.keys()].map((k) => {
    const [name, where] = k.split('\t') as [string, string];
    return { name, where, selfMs: (self.get(k) ?? 0) / 1000, totalMs: (total.get(k) ?? 0) / 1000 };
  });
  return { functions, busyMs: (all - idle) / 1000, idleMs: idle / 1000, gcMs: gc / 1000, wallMs: all / 1000 };
}

/** Lines for a report: the top functions by self time and by total time (idle and root left out). */
export function summarise(profile: CpuProfile, top = 25, only?: (f: FunctionTime) => boolean, window?: Window): string[] {
  const { functions, busyMs, idleMs, gcMs, wallMs } = functionTimes(profile, window);
  const shown = functions.filter((f) => !IDLE.has(f.name) || f.name === '(garbage collector)' || f.name === '(program)');
  const pct = (ms: number): string => `${((100 * ms) / busyMs).toFixed(1).padStart(5)}%`;
  const row = (f: FunctionTime, ms: number): string => `${ms.toFixed(1).padStart(9)} ms ${pct(ms)}  ${f.name} (${f.where})`;
  const lines = [`profile: ${(wallMs / 1000).toFixed(2)} s sampled, ${(busyMs / 1000).toFixed(2)} s busy, ${(idleMs / 1000).toFixed(2)} s idle, GC ${(gcMs / 1000).toFixed(2)} s`];
  lines.push('by self time:');
  for (const f of [...shown].sort((a, b) => b.selfMs - a.selfMs).slice(0, top)) lines.push(row(f, f.selfMs));
  lines.push(`by total time${only ? ' (filtered)' : ''}:`);
  for (const f of shown.filter((f) => f.name !== '(root)' && (!only || only(f))).sort((a, b) => b.totalMs - a.totalMs).slice(0, top)) lines.push(row(f, f.totalMs));
  return lines;
}

/**
 * Lines for each of the `top` longest stalls (`[start, end]` in the profile's µs clock, from
 * bench/lib/gap-probe.mjs): the functions on top of the stack meanwhile, each with the nearest
 * caller from `app` files (bundles of our code) so that a native function says whose call it was.
 */
export function stalls(profile: CpuProfile, gaps: [number, number][], top = 8, app = /session-host|cli\.js|index\.js/): string[] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const label = (id: number): string => byId.get(id)!.callFrame.functionName || '(anonymous)';
  const times: number[] = [];
  let t = profile.startTime;
  for (const d of profile.timeDeltas) times.push((t += d));
  const lines: string[] = [];
  for (const [start, end] of [...gaps].sort((a, b) => b[1] - b[0] - (a[1] - a[0])).slice(0, top)) {
    const by = new Map<string, number>();
    let busy = 0;
    profile.samples.forEach((id, i) => {
      const at = times[i]!;
      if (at < start || at > end) return;
      const us = (times[i + 1] ?? at) - at;
      if (label(id) === '(idle)') return;
      busy += us;
      let caller = '';
      for (let n = parent.get(id); n !== undefined; n = parent.get(n)) {
        if (app.test(byId.get(n)!.callFrame.url)) {
          caller = label(n);
          break;
        }
      }
      const key = caller && caller !== label(id) ? `${label(id)} ← ${caller}` : label(id);
      by.set(key, (by.get(key) ?? 0) + us);
    });
    lines.push(`stall of ${((end - start) / 1000).toFixed(1)} ms at ${((start - profile.startTime) / 1000).toFixed(0)} ms (${(busy / 1000).toFixed(1)} ms sampled busy):`);
    for (const [k, us] of [...by].sort((a, b) => b[1] - a[1]).slice(0, 6)) lines.push(`  ${(us / 1000).toFixed(1).padStart(6)} ms  ${k}`);
  }
  return lines;
}
