import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { gitSandbox, type GitSandbox } from '../../test-support/git-repos';
import { Git, MIN_GIT_VERSION, compareVersions, parseGitVersion } from './git';
import { GitError } from './git-error';

let sb: GitSandbox;
beforeEach(() => {
  sb = gitSandbox();
});
afterEach(() => sb.cleanup());

/** A folder holding a `git` script: what a PATH with only that git would run. */
function fakeGit(script: string): string {
  const dir = join(sb.root, `fake-bin-${Math.random().toString(36).slice(2)}`);
  mkdirSync(dir);
  writeFileSync(join(dir, 'git'), `#!/bin/sh\n${script}\n`);
  chmodSync(join(dir, 'git'), 0o755);
  return dir;
}

async function failure(p: Promise<unknown>): Promise<GitError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(GitError);
  return err as GitError;
}

describe('Git runner', () => {
  it('says git is missing when no git is on the PATH', async () => {
    const git = new Git({ env: { ...sb.env, PATH: join(sb.root, 'empty-bin') } });
    const err = await failure(git.run(['status'], { cwd: sb.root }));
    expect(err.code).toBe('git_missing');
    expect(err.message).toMatch(/git is not installed/);
  });

  it('refuses a git older than the minimum, naming both versions', async () => {
    const bin = fakeGit('echo "git version 2.20.1"');
    const git = new Git({ env: { ...sb.env, PATH: bin } });
    const err = await failure(git.run(['status'], { cwd: sb.root }));
    expect(err.code).toBe('too_old');
    expect(err.message).toContain('2.20.1');
    expect(err.message).toContain(`${MIN_GIT_VERSION.major}.${MIN_GIT_VERSION.minor}`);
  });

  it('checks the version once, and again after a failed check', async () => {
    const log = join(sb.root, 'calls.log');
    const bin = fakeGit(`echo "$*" >> '${log}'; echo "git version 2.40.0"`);
    const git = new Git({ env: { ...sb.env, PATH: bin } });
    await git.run(['status'], { cwd: sb.root });
    await git.run(['status'], { cwd: sb.root });
    expect(readFileSync(log, 'utf8').match(/version/g)).toHaveLength(1);
  });

  it('reads the version of a real git and of vendor builds', async () => {
    expect(compareVersions(await new Git({ env: sb.env }).version(), MIN_GIT_VERSION)).toBeGreaterThanOrEqual(0);
    expect(parseGitVersion('git version 2.39.3 (Apple Git-146)')).toEqual({ major: 2, minor: 39, patch: 3 });
    expect(parseGitVersion('git version 2.45.1.windows.1')).toEqual({ major: 2, minor: 45, patch: 1 });
    expect(parseGitVersion('git version 2.40')).toEqual({ major: 2, minor: 40, patch: 0 });
  });

  it("keeps git's own words when a call fails", async () => {
    const repo = sb.repo('r', { 'a.txt': 'a\n' });
    const err = await failure(new Git({ env: sb.env }).run(['checkout', 'no-such-branch'], { cwd: repo }));
    expect(err.code).toBe('failed');
    expect(err.stderr).toBe("error: pathspec 'no-such-branch' did not match any file(s) known to git");
    expect(err.message).toContain(err.stderr);
    expect(err.exitCode).toBe(1);
  });

  it('says a folder is not a repository', async () => {
    const err = await failure(new Git({ env: sb.env }).run(['log'], { cwd: sb.root }));
    expect(err.code).toBe('not_a_repository');
  });

  it('says a missing working folder is missing, not that git is', async () => {
    const err = await failure(new Git({ env: sb.env }).run(['status'], { cwd: join(sb.root, 'gone') }));
    expect(err.code).toBe('not_found');
  });

  it('stops a call at its timeout', async () => {
    const bin = fakeGit('case "$*" in *version*) echo "git version 2.40.0";; *) exec sleep 30;; esac');
    const git = new Git({ env: { ...sb.env, PATH: `${bin}:/usr/bin:/bin` } });
    const err = await failure(git.run(['status'], { cwd: sb.root, timeoutMs: 300 }));
    expect(err.code).toBe('timeout');
  });

  it('caps output: an error by default, or what was printed so far when truncating', async () => {
    const git = new Git({ env: sb.env });
    const err = await failure(git.run(['version'], { cwd: sb.root, maxBytes: 5 }));
    expect(err.code).toBe('output_too_large');
    const cut = await git.run(['version'], { cwd: sb.root, maxBytes: 5, overflow: 'truncate' });
    expect(cut.truncated).toBe(true);
    expect('git version'.startsWith(cut.stdout)).toBe(true);
  });

  it('feeds stdin and closes it', async () => {
    const out = await new Git({ env: sb.env }).run(['hash-object', '--stdin'], { cwd: sb.root, stdin: 'hello\n' });
    expect(out.stdout.trim()).toBe('ce013625030ba8dba906f756967f9e9ca394464a');
    // Without stdin the pipe is closed at once: a command reading it ends instead of waiting.
    const empty = await new Git({ env: sb.env }).run(['hash-object', '--stdin'], { cwd: sb.root });
    expect(empty.stdout.trim()).toBe('e69de29bb2d1d6434b8b29ae775ad8c2e48c5391');
  });

  it('treats exit codes the caller names as answers', async () => {
    const repo = sb.repo('r', { 'a.txt': 'a\n' });
    const r = await new Git({ env: sb.env }).run(['show-ref', '--verify', '--quiet', 'refs/heads/nope'], { cwd: repo, okExitCodes: [1] });
    expect(r.exitCode).toBe(1);
  });

  it('ignores inherited variables that would point git at another repository', async () => {
    const repo = sb.repo('r', { 'a.txt': 'a\n' });
    const git = new Git({ env: { ...sb.env, GIT_DIR: join(sb.root, 'elsewhere'), GIT_INDEX_FILE: join(sb.root, 'other-index'), GIT_WORK_TREE: sb.root } });
    const r = await git.run(['rev-parse', '--show-toplevel'], { cwd: repo });
    expect(r.stdout.trim()).toBe(repo);
  });

  it('runs git with no terminal prompt, the C locale and no optional locks', async () => {
    const repo = sb.repo('r', { 'a.txt': 'a\n' });
    const bin = fakeGit(`case "$*" in *version*) echo "git version 2.40.0";; *) echo "prompt=$GIT_TERMINAL_PROMPT locale=$LC_ALL locks=$GIT_OPTIONAL_LOCKS" >&2; exit 1;; esac`);
    const err = await failure(new Git({ env: { ...sb.env, PATH: bin } }).run(['fetch'], { cwd: repo }));
    expect(err.stderr).toBe('prompt=0 locale=C locks=0');
  });
});
