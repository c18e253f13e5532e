export interface BenchArgs {
  out: string | undefined;
  only: string[] | undefined;
  quick: boolean;
  scaling: boolean;
}

export const USAGE = `npm run bench -- [--quick] [--only NAME[,NAME]] [--scaling] [--out FILE]
  --quick      small sizes, for development (figures are not comparable with a full run)
  --only       run only these metrics (names as in the table)
  --scaling    also measure how figures scale (stream lag by size, switch by transcript size,
               ingest by concurrent sessions)
  --out FILE   also write the results as JSON`;

export function parseArgs(argv: readonly string[]): BenchArgs {
  const args: BenchArgs = { out: undefined, only: undefined, quick: false, scaling: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [flag, inline] = arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = (): string => {
      const v = inline ?? argv[++i];
      if (v === undefined || v.startsWith('--')) throw new Error(`${flag} needs a value\n${USAGE}`);
      return v;
    };
    if (flag === '--quick') args.quick = true;
    else if (flag === '--scaling') args.scaling = true;
    else if (flag === '--out') args.out = value();
    else if (flag === '--only') args.only = value().split(',').map((s) => s.trim()).filter(Boolean);
    else throw new Error(`unknown option ${arg}\n${USAGE}`);
  }
  return args;
}
