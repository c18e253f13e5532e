/**
 * Shared settings of the property-based (fuzz) tests, `*.fuzz.test.ts`.
 *
 * Every run is seeded so a failure can be replayed: the seed is fixed by default (the same
 * cases on every machine and every `npm test`), `FUZZ_SEED` picks another one, and fast-check
 * prints the seed and the counterexample's path when a property fails. `FUZZ_SCALE`
 * multiplies each target's case count (`npm run fuzz` sets 10), `FUZZ_RUNS` replaces it;
 * `FUZZ_PATH` replays one reported failure (with the seed it was reported with).
 */
import fc from 'fast-check';

/** The seed `npm test` uses unless `FUZZ_SEED` says otherwise. */
export const DEFAULT_FUZZ_SEED = 20_261_126;

function envInt(name: string): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return undefined;
  const value = Number(raw);
  if (!Number.isSafeInteger(value)) throw new Error(`${name} must be an integer, got ${JSON.stringify(raw)}`);
  return value;
}

const CASE_TIMEOUT_MS = 15_000;

export interface FuzzSettings {
  seed: number;
  numRuns: number;
  path?: string;
  /** fast-check prints the seed, the path and the shrunk case in its error. */
  verbose: number;
  endOnFailure: boolean;
  /** A case that takes longer fails (a hang is a finding too), with its seed and path. */
  timeout: number;
}

/**
 * fast-check parameters for a target with `defaultRuns` cases in `npm test` (the default
 * counts are sized so all fuzz files add under a minute of test time on two cores). `shrink`: look
 * for the smallest failing case (cheap in-process targets); a target that drives a host
 * process stops at the first counterexample instead (seed + path reproduce it).
 */
export function fuzzSettings(defaultRuns: number, shrink = false): FuzzSettings {
  const runs = envInt('FUZZ_RUNS');
  const path = process.env.FUZZ_PATH;
  return {
    seed: envInt('FUZZ_SEED') ?? DEFAULT_FUZZ_SEED,
    numRuns: runs ?? defaultRuns * (envInt('FUZZ_SCALE') ?? 1),
    ...(path ? { path } : {}),
    verbose: 1,
    endOnFailure: !shrink,
    timeout: CASE_TIMEOUT_MS,
  };
}

/** A per-test timeout for `runs` cases of about `msPerCase` each, with room for a slow machine. */
export function fuzzTimeout(settings: FuzzSettings, msPerCase: number): number {
  return 30_000 + settings.numRuns * msPerCase * 4;
}

/** Bytes of any value, biased to the ones that break parsers (NUL, CR/LF, high bit, invalid UTF-8). */
export const rawBytes = (maxLength: number): fc.Arbitrary<Uint8Array> =>
  fc.oneof(
    fc.uint8Array({ maxLength }),
    fc.array(fc.constantFrom(0x00, 0x0a, 0x0d, 0x22, 0x5c, 0x7b, 0x7d, 0x80, 0xc0, 0xc3, 0xed, 0xa0, 0xf4, 0xff), { maxLength }).map((a) => Uint8Array.from(a)),
  );

/** JSON text that is valid but hostile: deep nesting, huge numbers, duplicate and prototype keys. */
export const hostileJsonText = (): fc.Arbitrary<string> =>
  fc.oneof(
    fc.integer({ min: 1, max: 20_000 }).map((depth) => '['.repeat(depth) + ']'.repeat(depth)),
    fc.integer({ min: 1, max: 20_000 }).map((depth) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth)),
    fc.constantFrom('1e400', '-1e400', '123456789012345678901234567890', '1e-400', '-0', '0.1e99999'),
    fc.constantFrom(
      '{"__proto__":{"polluted":true}}',
      '{"constructor":{"prototype":{"polluted":true}}}',
      '{"a":1,"a":2}',
      '{"toString":1,"valueOf":2,"hasOwnProperty":3}',
    ),
    fc.json({ maxDepth: 4 }),
  );
