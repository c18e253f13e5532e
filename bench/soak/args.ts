export interface SoakArgs {
  sessions: number;
  turns: number;
  parallel: number;
  /** A window leaves its session and another attaches every this many turns. */
  reattachEvery: number;
  idleTimeoutMs: number;
  reapIntervalMs: number;
  sampleMs: number;
  chaosRounds: number;
  chaosSessions: number;
  seed: number;
  /** Leak thresholds: growth from the warmed-up baseline to the settled end. */
  maxRssGrowthMb: number;
  maxHeapGrowthMb: number;
  maxFdGrowth: number;
  maxHandleGrowth: number;
  out: string | undefined;
}

export const SOAK_USAGE = `npm run soak -- [options]
  --quick                  40 sessions × 10 turns, 3 chaos rounds (a few minutes)
  --sessions N             sessions (default 200)
  --turns N                turns per session (default 20)
  --parallel N             sessions running at once, each in its own window (default 10)
  --reattach-every N       a window leaves and another attaches every N turns (default 5)
  --idle-timeout-ms N      the reaper's idle timeout (default 1500)
  --reap-interval-ms N     the reaper's interval (default 500)
  --sample-ms N            how often memory, descriptors and handles are sampled (default 1000)
  --chaos-rounds N         SIGKILL-and-restart rounds after the soak (default 20; 0: none)
  --chaos-sessions N       sessions streaming in each chaos round (default 12)
  --seed N                 seed of the chaos rounds (default: random, printed)
  --max-rss-growth-mb N    leak threshold for resident memory (default 64)
  --max-heap-growth-mb N   leak threshold for the JS heap (default 24)
  --max-fd-growth N        leak threshold for open file descriptors (default 8)
  --max-handle-growth N    leak threshold for active handles and timers (default 8)
  --out FILE               also write the figures as JSON`;

const DEFAULTS: SoakArgs = {
  sessions: 200,
  turns: 20,
  parallel: 10,
  reattachEvery: 5,
  idleTimeoutMs: 1500,
  reapIntervalMs: 500,
  sampleMs: 1000,
  chaosRounds: 20,
  chaosSessions: 12,
  seed: Math.floor(Math.random() * 2 ** 31),
  maxRssGrowthMb: 64,
  maxHeapGrowthMb: 24,
  maxFdGrowth: 8,
  maxHandleGrowth: 8,
  out: undefined,
};

const NUMERIC: Record<string, keyof SoakArgs> = {
  '--sessions': 'sessions',
  '--turns': 'turns',
  '--parallel': 'parallel',
  '--reattach-every': 'reattachEvery',
  '--idle-timeout-ms': 'idleTimeoutMs',
  '--reap-interval-ms': 'reapIntervalMs',
  '--sample-ms': 'sampleMs',
  '--chaos-rounds': 'chaosRounds',
  '--chaos-sessions': 'chaosSessions',
  '--seed': 'seed',
  '--max-rss-growth-mb': 'maxRssGrowthMb',
  '--max-heap-growth-mb': 'maxHeapGrowthMb',
  '--max-fd-growth': 'maxFdGrowth',
  '--max-handle-growth': 'maxHandleGrowth',
};

export function parseSoakArgs(argv: readonly string[]): SoakArgs {
  const args: SoakArgs = { ...DEFAULTS };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const eq = arg.indexOf('=');
    const flag = eq === -1 ? arg : arg.slice(0, eq);
    const value = (): string => {
      const v = eq === -1 ? argv[++i] : arg.slice(eq + 1);
      if (v === undefined || v.startsWith('--')) throw new Error(`${flag} needs a value\n${SOAK_USAGE}`);
      return v;
    };
    if (flag === '--quick') Object.assign(args, { sessions: 40, turns: 10, chaosRounds: 3 });
    else if (flag === '--out') args.out = value();
    else if (flag in NUMERIC) {
      const raw = value();
      if (!/^\d+$/.test(raw)) throw new Error(`${flag} must be a whole number\n${SOAK_USAGE}`);
      (args as unknown as Record<string, number>)[NUMERIC[flag]!] = Number(raw);
    } else throw new Error(`unknown option ${arg}\n${SOAK_USAGE}`);
  }
  if (args.sessions < 1 || args.turns < 1 || args.parallel < 1 || args.reattachEvery < 1) throw new Error(`sessions, turns, parallel and reattach-every must be at least 1\n${SOAK_USAGE}`);
  return args;
}
