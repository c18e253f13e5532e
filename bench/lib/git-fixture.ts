/**
 * Big git repositories for the git benchmarks, made once and kept under the OS temp folder keyed
 * by size (a 100,000-file repository takes a while to write and commit). A repository is used
 * only when its "ready" marker exists; each benchmark puts it back to its commit afterwards.
 * git runs with no global or system config, so the person's settings do not move the figures.
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const VERSION = 1;
export const FIXTURE_ROOT = join(tmpdir(), 'switchboard-bench-git');

export interface GitFixture {
  repo: string;
  files: number;
  /** Path of file `i` (relative), spread over folders of 100 files, 5,000 per second-level folder. */
  path(i: number): string;
  env: NodeJS.ProcessEnv;
  sh(cwd: string, ...args: string[]): string;
  /** Back to the commit: no changed, new or deleted files, no checkpoint refs, no extra worktrees or branches, no merges. */
  reset(): void;
}

/** 80 files edited (spread over the tree) and 20 new ones, different each round. */
export function change100(fx: GitFixture, dir: string, round: number): void {
  for (let k = 0; k < 80; k++) appendFileSync(join(dir, fx.path((k * 997) % fx.files)), `// round ${round}\n`);
  mkdirSync(join(dir, 'new'), { recursive: true });
  for (let k = 0; k < 20; k++) writeFileSync(join(dir, 'new', `r${round}-${k}.ts`), `export const round = ${round};\n`.repeat(10));
}

export function benchGitEnv(): NodeJS.ProcessEnv {
  mkdirSync(FIXTURE_ROOT, { recursive: true });
  const globalConfig = join(FIXTURE_ROOT, 'gitconfig');
  if (!existsSync(globalConfig)) writeFileSync(globalConfig, '');
  return { ...process.env, GIT_CONFIG_GLOBAL: globalConfig, GIT_CONFIG_NOSYSTEM: '1', GIT_AUTHOR_NAME: 'Bench', GIT_AUTHOR_EMAIL: 'bench@example.com', GIT_COMMITTER_NAME: 'Bench', GIT_COMMITTER_EMAIL: 'bench@example.com' };
}

const filePath = (i: number): string => `d${Math.floor(i / 5000)}/s${Math.floor(i / 100) % 50}/f${i}.txt`;

export function gitFixture(files: number, progress: (m: string) => void): GitFixture {
  const env = benchGitEnv();
  const sh = (cwd: string, ...args: string[]): string => execFileSync('git', args, { cwd, env, encoding: 'utf8', maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'pipe'] });
  const repo = join(FIXTURE_ROOT, `files-${files}-v${VERSION}`);
  const ready = `${repo}.ready`;
  if (!existsSync(ready)) {
    progress(`making a ${files}-file repository in ${repo} (kept for later runs)`);
    rmSync(repo, { recursive: true, force: true });
    mkdirSync(repo, { recursive: true });
    sh(repo, 'init', '-q', '-b', 'main');
    for (let i = 0; i < files; i++) {
      if (i % 100 === 0) mkdirSync(join(repo, filePath(i), '..'), { recursive: true });
      // 8 to 27 lines of source-like text: diffs and hashing do real work.
      writeFileSync(join(repo, filePath(i)), `// file ${i}\n${'const value = compute(input, options); // line\n'.repeat(8 + (i % 20))}`);
    }
    writeFileSync(join(repo, '.gitignore'), 'node_modules/\n*.log\n');
    sh(repo, 'add', '-A');
    sh(repo, 'commit', '-q', '-m', 'bench fixture');
    writeFileSync(ready, '');
  }
  // The fixture's one commit: a benchmark that merged into `main` moved it on.
  const fixtureCommit = sh(repo, 'rev-list', '--max-parents=0', 'main').trim().split('\n').at(-1)!;
  const reset = (): void => {
    for (const line of sh(repo, 'worktree', 'list', '--porcelain').split('\n')) {
      const path = line.startsWith('worktree ') ? line.slice('worktree '.length) : undefined;
      if (path && path !== repo) sh(repo, 'worktree', 'remove', '--force', '--force', path);
    }
    sh(repo, 'worktree', 'prune');
    sh(repo, 'checkout', '-q', 'main');
    sh(repo, 'reset', '-q', '--hard', fixtureCommit);
    sh(repo, 'clean', '-fdq');
    for (const ref of sh(repo, 'for-each-ref', '--format=%(refname)').split('\n')) {
      if (ref.startsWith('refs/switchboard/') || (ref.startsWith('refs/heads/') && ref !== 'refs/heads/main')) sh(repo, 'update-ref', '-d', ref);
    }
  };
  reset();
  return { repo, files, path: filePath, env, sh, reset };
}
