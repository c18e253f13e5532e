export interface BenchArgs {
  out: string | undefined;
  only: string[] | undefined;
  compare: string | undefined;
  /** `--target NAME=VALUE`: a target replaced for this run (to see the runner fail on purpose). */
  targets: Record<string, number>;
  quick: boolean;
  scaling: boolean;
  /** `--big-db`: the opt-in groups (the 10 GB database), besides what `--only` names. */
  bigDb: boolean;
}

export const USAGE = `npm run bench -- [--quick] [--only NAME[,NAME]] [--scaling] [--big-db] [--out FILE] [--compare OLD.json] [--target NAME=VALUE]
  --quick            small sizes, for development (figures are not comparable with a full run)
  --only             run only these metrics (names as in the table)
  --scaling          also measure how figures scale (the dense stream at 10 KB, 100 KB and 1 MB;
                     ingest with 1, 10 and 100 sessions; switch by transcript size)
  --big-db           run the 10 GB database figures (NAME_10gb): alone, or with what --only names;
                     a plain run leaves them out (about 6 minutes, ~20 GiB of the temp dir at
                     the peak; the 10 GiB folder is written once, in about 4 minutes, and cached)
  --out FILE         also write the results as JSON
  --compare OLD.json print each figure's change against a stored run (--out of an earlier run);
                     a figure more than 20% worse is flagged and fails the run
  --target NAME=V    replace a metric's target for this run
Exit code: 0 when every metric was measured and met its target (and, with --compare, none is
more than 20% worse); 1 otherwise; 2 for a usage error.`;

export function parseArgs(argv: readonly string[]): BenchArgs {
  const args: BenchArgs = { out: undefined, only: undefined, compare: undefined, targets: {}, quick: false, scaling: false, bigDb: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = (): string => {
      const v = inline ?? argv[++i];
      if (v === undefined || v.startsWith('--')) throw new Error(`${flag} needs a value\n${USAGE}`);
      return v;
    };
    if (flag === '--quick') args.quick = true;
    else if (flag === '--scaling') args.scaling = true;
    else if (flag === '--big-db') args.bigDb = true;
    else if (flag === '--out') args.out = value();
    else if (flag === '--compare') args.compare = value();
    else if (flag === '--only') args.only = value().split(',').map((s) => s.trim()).filter(Boolean);
    else if (flag === '--target') {
      const v = value();
      const m = /^([a-z0-9_]+)=(-?\d+(?:\.\d+)?)$/.exec(v);
      if (!m) throw new Error(`--target wants NAME=NUMBER, got ${v}\n${USAGE}`);
      args.targets[m[1]!] = Number(m[2]);
    } else throw new Error(`unknown option ${arg}\n${USAGE}`);
  }
  return args;
}
