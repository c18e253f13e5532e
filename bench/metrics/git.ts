/**
 * The git layer's figures (issue 19), on real repositories cached under the temp folder:
 * - checkpoint_ms_10k: a checkpoint of a 10,000-file checkout with 100 changed files
 *   (80 edited, 20 new), the person's index untouched;
 * - changes_list_ms_100k: the Changes list of a 100,000-file checkout with 100 changed files
 *   (60 edited, 20 deleted, 10 moved without git, 10 new);
 * - worktree_add_ms_10k: `createWorktree` on a 10,000-file repository (the git part of the
 *   1,500 ms click-to-ready budget; the session's start is measured with the UI).
 * Runs alone: `node --import tsx bench/metrics/git.ts [--quick]`.
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Git, claimWorktree, createCheckpoint, createWorktree, listChanges, prepareWorktree } from '../../src/main/workspace/git';
import { FIXTURE_ROOT, change100, gitFixture } from '../lib/git-fixture';
import { fmt, medianOf, timed } from '../lib/stats';
import { isMetricError, type BenchContext, type BenchGroup, type Metric } from '../lib/types';

const CHECKPOINT = 'checkpoint_ms_10k';
const CHANGES = 'changes_list_ms_100k';
const WORKTREE = 'worktree_add_ms_10k';

async function checkpointFigures(ctx: BenchContext, files: number): Promise<Metric> {
  const fx = gitFixture(files, ctx.progress);
  const git = new Git({ env: fx.env });
  const indexFile = join(FIXTURE_ROOT, 'scratch', 'checkpoint.index');
  const reps = ctx.quick ? 5 : 10;
  try {
    const main = await medianOf(2, reps, async (rep) => {
      fx.reset();
      change100(fx, fx.repo, rep + 10);
      return timed(() => createCheckpoint(git, { dir: fx.repo, indexFile, session: 'bench', turn: `t${rep + 10}` }));
    });
    // The session case: a worktree made moments before (on a slow disk its checkout is still being flushed).
    fx.reset();
    const wt = await createWorktree(git, { repoDir: fx.repo, branch: 'bench-checkpoint', path: join(FIXTURE_ROOT, 'worktrees', 'checkpoint') });
    const turns = await medianOf(0, 5, async (turn) => {
      change100(fx, wt.path, turn + 1);
      return timed(() => createCheckpoint(git, { dir: wt.path, indexFile, session: 'bench', turn: `fresh${turn + 1}` }));
    });
    // Why the scratch index is seeded with a copy of the checkout's: from an empty one every file is hashed.
    fx.reset();
    change100(fx, fx.repo, 3);
    const scratch = join(FIXTURE_ROOT, 'scratch', 'unseeded.index');
    rmSync(scratch, { force: true });
    const unseeded = await timed(() => execFileSync('git', ['add', '-A'], { cwd: fx.repo, env: { ...fx.env, GIT_INDEX_FILE: scratch } }));
    rmSync(scratch, { force: true });
    return {
      name: CHECKPOINT,
      value: main.median,
      unit: 'ms',
      target: 200,
      better: 'lower',
      detail: `${files} files, 100 changed; median of ${reps} (max ${fmt(Math.max(...main.all))}); in a worktree made just before: first turn ${fmt(turns.all[0]!)} ms, median of 5 turns ${fmt(turns.median)} ms; git add -A alone from an empty index instead of the copy: ${fmt(unseeded)} ms`,
    };
  } finally {
    fx.reset();
    rmSync(indexFile, { force: true });
  }
}

async function changesFigures(ctx: BenchContext, files: number): Promise<Metric> {
  const fx = gitFixture(files, ctx.progress);
  const git = new Git({ env: fx.env });
  const reps = ctx.quick ? 5 : 10;
  try {
    const base = fx.sh(fx.repo, 'rev-parse', 'HEAD').trim();
    const at = (k: number): string => join(fx.repo, fx.path((k * 7919) % files));
    for (let k = 0; k < 60; k++) appendFileSync(at(k), '// edited\n');
    for (let k = 60; k < 80; k++) rmSync(at(k));
    for (let k = 80; k < 90; k++) {
      const content = readFileSync(at(k));
      rmSync(at(k));
      writeFileSync(join(fx.repo, `moved-${k}.txt`), content);
    }
    for (let k = 90; k < 100; k++) writeFileSync(join(fx.repo, `new-${k}.txt`), 'new\n'.repeat(k));
    let seen = 0;
    const r = await medianOf(2, reps, async () =>
      timed(async () => {
        seen = (await listChanges(git, { dir: fx.repo, base })).files.length;
      }),
    );
    if (seen !== 100) throw new Error(`${CHANGES}: listed ${seen} changed files, expected 100`);
    const status = await medianOf(1, 5, () => timed(() => fx.sh(fx.repo, 'status', '--porcelain=v2', '-z', '-uall')));
    return {
      name: CHANGES,
      value: r.median,
      unit: 'ms',
      target: 300,
      better: 'lower',
      detail: `${files} files, 100 changed (60 edited, 20 deleted, 10 moved without git, 10 new); median of ${reps} (max ${fmt(Math.max(...r.all))}); plain git status -uall: ${fmt(status.median)} ms`,
    };
  } finally {
    fx.reset();
  }
}

/**
 * The rounds keep their worktrees until every round is measured. This machine's ext4 has no
 * journal, and there the inode allocator steps over every inode freed in the last 60–300 s one
 * by one (`recently_deleted` in fs/ext4/ialloc.c): a 10,000-file checkout made right after
 * removing another took 4–8 s of kernel time instead of 0.9 s (perf: two thirds of it in
 * `recently_deleted`). Removing each round's worktree before the next measured that quirk, not git.
 */
async function worktreeFigures(ctx: BenchContext, files: number): Promise<Metric> {
  const fx = gitFixture(files, ctx.progress);
  const git = new Git({ env: fx.env });
  const reps = ctx.quick ? 3 : 5;
  const root = join(FIXTURE_ROOT, 'worktrees');
  const stamp = Date.now();
  try {
    const r = await medianOf(1, reps, (rep) =>
      timed(() => createWorktree(git, { repoDir: fx.repo, branch: `bench-add-${stamp}-${rep + 1}`, path: join(root, `add-${stamp}-${rep + 1}`) })),
    );
    // Prepared while the dialog is open, claimed on Start: the claim is what the person waits for.
    const claims = await medianOf(0, reps, async (rep) => {
      const prepared = await prepareWorktree(git, { repoDir: fx.repo, root });
      return timed(() => claimWorktree(git, { prepared, repoDir: fx.repo, branch: `bench-claim-${stamp}-${rep + 1}`, path: join(root, `claim-${stamp}-${rep + 1}`) }));
    });
    const files10k = await timed(() => {
      const dir = join(FIXTURE_ROOT, 'scratch', `create-files-${stamp}`);
      for (let i = 0; i < files; i++) {
        if (i % 100 === 0) mkdirSync(join(dir, String(i)), { recursive: true });
        writeFileSync(join(dir, String(i - (i % 100)), `f${i}`), 'x');
      }
      rmSync(dir, { recursive: true, force: true });
    });
    return {
      name: WORKTREE,
      value: r.median,
      unit: 'ms',
      target: 1500,
      better: 'lower',
      detail: `${files} files: facts, branch check, git worktree add (checkout); median of ${reps} (max ${fmt(Math.max(...r.all))}), each round's worktree kept until all are measured; prepared ahead then claimed: ${fmt(claims.median)} ms; this disk creates+removes ${files} files in ${fmt(files10k)} ms (Node, no git)`,
    };
  } finally {
    fx.reset();
  }
}

export const gitMetrics: BenchGroup = {
  names: [CHECKPOINT, CHANGES, WORKTREE],
  async run(ctx) {
    const small = ctx.quick ? 1_000 : 10_000;
    const big = ctx.quick ? 10_000 : 100_000;
    const out: Metric[] = [];
    // Worktrees first: the other figures remove thousands of files, which slows the next
    // checkout on this disk for minutes (see worktreeFigures).
    if (ctx.wants(WORKTREE)) out.push(await worktreeFigures(ctx, small));
    if (ctx.wants(CHECKPOINT)) out.push(await checkpointFigures(ctx, small));
    if (ctx.wants(CHANGES)) out.push(await changesFigures(ctx, big));
    return out;
  },
};

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const quick = process.argv.includes('--quick');
  const ctx: BenchContext = { quick, scaling: false, wants: () => true, progress: (m) => process.stderr.write(`  · ${m}\n`), point: () => {} };
  for (const m of await gitMetrics.run(ctx)) {
    if (isMetricError(m)) {
      console.log(`${m.name.padEnd(22)} not measured: ${m.error}`);
      continue;
    }
    const ok = m.better === 'lower' ? m.value <= m.target : m.value >= m.target;
    console.log(`${m.name.padEnd(22)} ${fmt(m.value).padStart(8)} ${m.unit}  target ≤ ${m.target}  ${ok ? 'ok' : 'MISSED'}  ${m.detail ?? ''}`);
  }
}
