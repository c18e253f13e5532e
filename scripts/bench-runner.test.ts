/**
 * The benchmark runner's rules (bench/lib/runner.ts), with groups that report fixed figures:
 * a met target exits 0, a missed one 1, a figure that could not be measured is an error (never
 * a 0 that passes), and a figure more than 20% worse than a stored run fails `--compare`.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseArgs } from '../bench/lib/args';
import { speed, type Speed } from '../bench/lib/machine';
import { runBench } from '../bench/lib/runner';
import type { BenchGroup, Metric, MetricError } from '../bench/lib/types';

const root = join(import.meta.dirname, '..');

const lag = (value: number): Metric => ({ name: 'lag_ms', value, unit: 'ms', target: 250, better: 'lower' });
const rate = (value: number): Metric => ({ name: 'rate_per_s', value, unit: '/s', target: 1000, better: 'higher' });

function group(names: string[], run: () => (Metric | MetricError)[] | Promise<(Metric | MetricError)[]>): BenchGroup & { runs: number } {
  const g = {
    names,
    runs: 0,
    async run() {
      g.runs++;
      return run();
    },
  };
  return g;
}

async function bench(groups: BenchGroup[], argv: string[] = [], readings?: Speed[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const speedIo = readings ? { speed: () => readings.shift()! } : {};
  const code = await runBench(groups, parseArgs(argv), { out: (l) => out.push(l), err: (l) => err.push(l), machine: () => ({ cores: 2 }), command: 'test', ...speedIo });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'bench-runner-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('bench runner settling', () => {
  it('waits for a quiet machine before each group it runs, and says what it saw', async () => {
    const seen: string[] = [];
    const a = group(['lag_ms'], () => (seen.push('a'), [lag(100)]));
    const b = group(['rate_per_s'], () => (seen.push('b'), [rate(2000)]));
    const err: string[] = [];
    const settle = async () => (seen.push('settle'), 'machine quiet after 0.5 s');
    const code = await runBench([a, b], parseArgs(['--only', 'rate_per_s']), { out: () => {}, err: (l) => err.push(l), machine: () => ({}), command: 'test', settle });
    expect(code).toBe(0);
    expect(seen).toEqual(['settle', 'b']);
    expect(err).toContain('  · machine quiet after 0.5 s');
  });
});

describe('bench runner exit code', () => {
  it('exits 0 when every figure meets its target', async () => {
    const r = await bench([group(['lag_ms'], () => [lag(100)]), group(['rate_per_s'], () => [rate(2000)])]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^lag_ms\s+100\s+ms\s+≤ 250\s+ok/m);
    expect(r.out).toContain('2 of 2 met');
  });

  it('exits 1 when a target is missed, in either direction', async () => {
    expect((await bench([group(['lag_ms'], () => [lag(251)])])).code).toBe(1);
    const r = await bench([group(['rate_per_s'], () => [rate(999)])]);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/^rate_per_s .* MISSED/m);
  });

  it('exits 1 when a target is broken on purpose with --target', async () => {
    const g = () => [group(['lag_ms'], () => [lag(100)])];
    expect((await bench(g())).code).toBe(0);
    const r = await bench(g(), ['--target', 'lag_ms=50']);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/≤ 50\s+MISSED/);
  });

  it('counts a group that throws as an error for each metric it was asked for, and runs the other groups', async () => {
    const after = group(['rate_per_s'], () => [rate(2000)]);
    const r = await bench([
      group(['lag_ms', 'other_ms'], () => {
        throw new Error('the long-task observer reported nothing');
      }),
      after,
    ]);
    expect(r.code).toBe(1);
    expect(after.runs).toBe(1);
    expect(r.out).toMatch(/^lag_ms\s+ERROR.*the long-task observer reported nothing/m);
    expect(r.out).toMatch(/^other_ms\s+ERROR/m);
    expect(r.out).toContain('2 not measured');
  });

  it('counts a figure the group did not return, or one that is not a number, as not measured rather than 0', async () => {
    const missing = await bench([group(['lag_ms', 'other_ms'], () => [lag(10)])]);
    expect(missing.code).toBe(1);
    expect(missing.out).toMatch(/^other_ms\s+ERROR.*not measured/m);
    for (const value of [Number.NaN, Number.POSITIVE_INFINITY]) {
      const r = await bench([group(['lag_ms'], () => [lag(value)])]);
      expect(r.code).toBe(1);
      expect(r.out).toMatch(/^lag_ms\s+ERROR.*not measured/m);
    }
  });

  it('keeps the figures a group measured when it reports one of its metrics as not measurable', async () => {
    const r = await bench([group(['lag_ms', 'rate_per_s'], () => [lag(10), { name: 'rate_per_s', error: 'acpx cannot run here' }])]);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/^lag_ms\s+10\.0\s+ms\s+≤ 250\s+ok/m);
    expect(r.out).toMatch(/^rate_per_s\s+ERROR.*acpx cannot run here/m);
  });

  it('runs only the groups --only names, and refuses unknown names with exit 2', async () => {
    const a = group(['lag_ms'], () => [lag(1)]);
    const b = group(['rate_per_s'], () => [rate(1)]);
    const r = await bench([a, b], ['--only', 'lag_ms']);
    expect(r.code).toBe(0);
    expect([a.runs, b.runs]).toEqual([1, 0]);
    expect((await bench([a, b], ['--only', 'nope'])).code).toBe(2);
  });

  it('leaves an opt-in group (the 10 GB database) out of a plain run, and runs it with --big-db or when --only names it', async () => {
    const small = group(['lag_ms'], () => [lag(1)]);
    const big = Object.assign(group(['lag_ms_10gb'], () => [{ ...lag(2), name: 'lag_ms_10gb' }]), { optIn: true });
    const plain = await bench([small, big]);
    expect(plain.code).toBe(0);
    expect([small.runs, big.runs]).toEqual([1, 0]);
    expect(plain.out).not.toContain('lag_ms_10gb');
    const flagged = await bench([small, big], ['--big-db']);
    expect([small.runs, big.runs]).toEqual([1, 1]);
    expect(flagged.out).toMatch(/^lag_ms_10gb\s+2\.00\s+ms/m);
    await bench([small, big], ['--big-db', '--only', 'lag_ms']);
    expect([small.runs, big.runs]).toEqual([2, 2]);
    await bench([small, big], ['--only', 'lag_ms_10gb']);
    expect([small.runs, big.runs]).toEqual([2, 3]);
  });
});

describe('bench runner --out and --compare', () => {
  it('writes the figures, verdicts and errors as JSON', async () => {
    const file = join(dir, 'run.json');
    const r = await bench([group(['lag_ms'], () => [lag(300)]), group(['rate_per_s'], () => Promise.reject(new Error('acpx did not start')))], ['--out', file]);
    expect(r.code).toBe(1);
    const json = JSON.parse(readFileSync(file, 'utf8'));
    expect(json.exitCode).toBe(1);
    expect(json.metrics.lag_ms).toMatchObject({ value: 300, target: 250, better: 'lower', met: false });
    expect(json.errors.rate_per_s).toContain('acpx did not start');
  });

  it('prints each change against a stored run and fails on one more than 20% worse', async () => {
    const file = join(dir, 'old.json');
    await bench([group(['lag_ms'], () => [lag(100)]), group(['rate_per_s'], () => [rate(2000)])], ['--out', file]);
    const within = await bench([group(['lag_ms'], () => [lag(115)]), group(['rate_per_s'], () => [rate(1700)])], ['--compare', file]);
    expect(within.code).toBe(0);
    expect(within.out).toMatch(/^lag_ms .* \+15%/m);
    expect(within.out).toMatch(/^rate_per_s .* -15%/m);
    const slower = await bench([group(['lag_ms'], () => [lag(130)]), group(['rate_per_s'], () => [rate(1500)])], ['--compare', file]);
    expect(slower.code).toBe(1);
    expect(slower.out).toMatch(/^lag_ms .* \+30% WORSE/m);
    expect(slower.out).toMatch(/^rate_per_s .* -25% WORSE/m);
    expect(slower.out).toContain('2 more than 20% worse');
  });

  it('refuses a --compare file that is not a stored run', async () => {
    const file = join(dir, 'bad.json');
    writeFileSync(file, '{"hello": 1}');
    expect((await bench([group(['lag_ms'], () => [lag(1)])], ['--compare', file])).code).toBe(2);
  });
});

describe('bench runner machine speed', () => {
  const normal = (): Speed[] => [
    { nodeStartMs: 45, bareNodeStartMs: 44, cpuMs: 40, syscallMs: 20, env: {} },
    { nodeStartMs: 47, bareNodeStartMs: 45, cpuMs: 42, syscallMs: 22, env: {} },
  ];
  const certs = { NODE_EXTRA_CA_CERTS: '/etc/ssl/certs/ca-certificates.crt' };
  const slow = (): Speed[] => [
    { nodeStartMs: 90, bareNodeStartMs: 50, cpuMs: 85, syscallMs: 21, env: certs },
    { nodeStartMs: 95, bareNodeStartMs: 52, cpuMs: 80, syscallMs: 21, env: certs },
  ];

  it('reads it as the run begins and ends, prints it and stores it with the figures', async () => {
    const file = join(dir, 'run.json');
    const seen: string[] = [];
    const readings = normal();
    const g = group(['lag_ms'], () => (seen.push('group'), [lag(100)]));
    const code = await runBench([g], parseArgs(['--out', file]), {
      out: (l) => seen.push(l),
      err: () => {},
      machine: () => ({}),
      command: 'test',
      settle: async () => (seen.push('settle'), 'quiet'),
      speed: () => (seen.push('speed'), readings.shift()!),
    });
    expect(code).toBe(0);
    // Each reading on a quiet machine, one before the first group and one after the last.
    expect(seen.slice(0, 5)).toEqual(['settle', 'speed', 'settle', 'group', 'settle']);
    expect(seen[5]).toBe('speed');
    expect(seen).toContain(
      'machine speed: node -e 0 in 45 ms (44 ms with only PATH set), the CPU probe 40 ms, 20,000 stat calls 20 ms as the run began; node -e 0 in 47 ms (45 ms with only PATH set), the CPU probe 42 ms, 20,000 stat calls 22 ms as it ended',
    );
    expect(seen.some((l) => l.startsWith('the environment sets'))).toBe(false);
    expect(JSON.parse(readFileSync(file, 'utf8')).speed).toEqual({
      start: { nodeStartMs: 45, bareNodeStartMs: 44, cpuMs: 40, syscallMs: 20, env: {} },
      end: { nodeStartMs: 47, bareNodeStartMs: 45, cpuMs: 42, syscallMs: 22, env: {} },
    });
  });

  it('says when the machine ran slower than for the stored run, next to the figures flagged worse, which still fail', async () => {
    const file = join(dir, 'old.json');
    await bench([group(['lag_ms'], () => [lag(100)])], ['--out', file], normal());
    const r = await bench([group(['lag_ms'], () => [lag(140)])], ['--compare', file], slow());
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/^lag_ms .* \+40% WORSE/m);
    expect(r.out).toContain(
      "against the stored run (node -e 0 in 46 ms, the CPU probe 41 ms, the stat calls 21 ms): 2.01× its start-up time, 2.01× its CPU probe's, 1.00× its stat calls'",
    );
    expect(r.out).toContain("this run's machine or environment was slower than the stored run's: the 1 figure(s) flagged WORSE (lag_ms) may be the machine");
    // What made every start slower is named: the variable, and that the stored run had none.
    expect(r.out).toContain('the environment sets NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt: every host and agent this run started paid for it');
    expect(r.out).toContain("the stored run's environment set none of them; this one's NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt");
    expect(r.out).toContain('1 more than 20% worse');
  });

  it('says a run whose system calls alone were slower ran on a slower machine', async () => {
    const file = join(dir, 'old.json');
    await bench([group(['lag_ms'], () => [lag(100)])], ['--out', file], normal());
    const slowCalls = normal().map((s) => ({ ...s, syscallMs: s.syscallMs * 3 }));
    const r = await bench([group(['lag_ms'], () => [lag(100)])], ['--compare', file], slowCalls);
    expect(r.out).toContain("3.00× its stat calls'");
    expect(r.out).toContain("this run's machine or environment was slower than the stored run's");
  });

  it('says when it ran faster, and nothing of the kind at the same speed', async () => {
    const file = join(dir, 'old.json');
    await bench([group(['lag_ms'], () => [lag(100)])], ['--out', file], slow());
    const faster = await bench([group(['lag_ms'], () => [lag(60)])], ['--compare', file], normal());
    expect(faster.out).toContain("this run's machine or environment was faster than the stored run's");
    const same = await bench([group(['lag_ms'], () => [lag(100)])], ['--compare', file], slow());
    expect(same.out).toContain('1.00× its start-up time');
    expect(same.out).not.toMatch(/was (slower|faster)/);
  });

  it('says so when the stored run has no reading', async () => {
    const file = join(dir, 'old.json');
    await bench([group(['lag_ms'], () => [lag(100)])], ['--out', file]);
    expect(JSON.parse(readFileSync(file, 'utf8')).speed).toBeUndefined();
    const r = await bench([group(['lag_ms'], () => [lag(100)])], ['--compare', file], normal());
    expect(r.out).toContain('the stored run has no speed reading');
  });

  it('reads this machine for real, and names the start-up variables the environment sets', () => {
    const s = speed({ PATH: process.env.PATH, NODE_OPTIONS: '--max-old-space-size=512', HOME: '/nowhere' });
    for (const ms of [s.nodeStartMs, s.bareNodeStartMs, s.cpuMs, s.syscallMs]) {
      expect(ms).toBeGreaterThan(1);
      expect(ms).toBeLessThan(2_000);
    }
    expect(s.env).toEqual({ NODE_OPTIONS: '--max-old-space-size=512' });
  });
});

describe('npm run bench entry', () => {
  it('exits 2 with the usage on an unknown option, before measuring anything', () => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'bench/run.ts', '--bogus'], { cwd: root, encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('unknown option --bogus');
  });
});
