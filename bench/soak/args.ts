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
  /**
   * Timed mode (`--hours H`, fractions allowed): a steady load for H hours, sampled every
   * minute, judged by the slope of each figure over the last 40 minutes; no chaos rounds
   * unless asked for.
   */
  hours: number | undefined;
  /** Timed mode: a session's pause between two turns, as a person types. */
  paceMs: number;
  /** Timed mode: the window the slopes are taken over, in minutes. */
  slopeWindowMin: number;
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
  --out FILE               also write the figures as JSON

Timed mode (issue 23: a host running for hours):
  --hours H                run a steady load for H hours (fractions allowed: --hours 0.1 is
                           six minutes), sampling every minute; every hour and at the end the
                           slope of each figure over the last 40 minutes is printed and must be
                           flat (see bench/soak/samples.ts SLOPE_LIMITS); every turn and event
                           is checked against the store at the end. No chaos rounds unless
                           --chaos-rounds is given.
  --pace-ms N              a session's pause between turns (default 1000)
  --slope-window-min N     the window the slopes are taken over (default 40)`;

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
  hours: undefined,
  paceMs: 1000,
  slopeWindowMin: 40,
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
  '--pace-ms': 'paceMs',
  '--slope-window-min': 'slopeWindowMin',
};

export function parseSoakArgs(argv: readonly string[]): SoakArgs {
  const args: SoakArgs = { ...DEFAULTS };
  let timed = false;
  const given = new Set<string>();
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
    else if (flag === '--hours') {
      const raw = value();
      if (!/^\d+(\.\d+)?$/.test(raw) || Number(raw) <= 0) throw new Error(`--hours must be a positive number (fractions allowed)\n${SOAK_USAGE}`);
      args.hours = Number(raw);
      timed = true;
    }
    else if (flag in NUMERIC) {
      given.add(flag);
      const raw = value();
      if (!/^\d+$/.test(raw)) throw new Error(`${flag} must be a whole number\n${SOAK_USAGE}`);
      (args as unknown as Record<string, number>)[NUMERIC[flag]!] = Number(raw);
    } else throw new Error(`unknown option ${arg}\n${SOAK_USAGE}`);
  }
  if (args.sessions < 1 || args.turns < 1 || args.parallel < 1 || args.reattachEvery < 1) throw new Error(`sessions, turns, parallel and reattach-every must be at least 1\n${SOAK_USAGE}`);
  if (timed) {
    // Sampled each minute, no chaos, unless asked otherwise.
    if (!given.has('--sample-ms')) args.sampleMs = 60_000;
    if (!given.has('--chaos-rounds')) args.chaosRounds = 0;
    if (args.slopeWindowMin < 1) throw new Error(`--slope-window-min must be at least 1\n${SOAK_USAGE}`);
  }
  return args;
}
