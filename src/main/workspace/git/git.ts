import { existsSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { silentLogger, type Logger } from '../../util/log';
import { GitError } from './git-error';
import { execInRunner } from './git-exec';

/**
 * The oldest git this layer runs: `rev-parse --path-format=absolute` arrived in 2.31.0 (the
 * newest feature needed; `--pathspec-from-file` is 2.26, `merge --no-autostash` 2.27,
 * `diff --no-relative` 2.28). Ubuntu 22.04 ships 2.34, Debian 12 2.39, RHEL 8 2.31.
 */
export const MIN_GIT_VERSION: GitVersion = { major: 2, minor: 31, patch: 0 };

/** `git worktree list --porcelain -z` (paths with line breaks intact) arrived in 2.36.0. */
export const WORKTREE_LIST_Z: GitVersion = { major: 2, minor: 36, patch: 0 };

export interface GitVersion {
  major: number;
  minor: number;
  patch: number;
}

export interface GitOptions {
  /** The environment git inherits (default `process.env`); variables that point git at another repository are dropped. */
  env?: NodeJS.ProcessEnv;
  /** Per call, unless the call says otherwise. */
  timeoutMs?: number;
  /** Output bytes a call may print, unless the call says otherwise. */
  maxBytes?: number;
  logger?: Logger;
}

export interface GitRunOptions {
  cwd: string;
  /** Written to git's stdin, which is then closed (it is closed at once without it). */
  stdin?: string | Buffer;
  /** Extra variables for this call (`GIT_INDEX_FILE`, an identity for checkpoints). */
  env?: Record<string, string>;
  timeoutMs?: number;
  maxBytes?: number;
  /** `truncate`: past `maxBytes` git is stopped and what it printed so far is the answer. */
  overflow?: 'error' | 'truncate';
  /** Exit codes that are answers, not failures (`diff --no-index` says 1 for "differs"). */
  okExitCodes?: readonly number[];
}

export interface GitResult {
  stdout: string;
  stderr: string;
  exitCode: number;
  truncated: boolean;
}

const DEFAULT_TIMEOUT_MS = 60_000;
const DEFAULT_MAX_BYTES = 64 * 1024 * 1024;

/**
 * Variables that send git to another repository, index or object store than the folder it is
 * run in. A host started from a git hook or alias inherits them; they must not leak into a call.
 */
const REDIRECTING = ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE', 'GIT_OBJECT_DIRECTORY', 'GIT_ALTERNATE_OBJECT_DIRECTORIES', 'GIT_COMMON_DIR', 'GIT_NAMESPACE', 'GIT_PREFIX', 'GIT_LITERAL_PATHSPECS', 'GIT_GLOB_PATHSPECS', 'GIT_NOGLOB_PATHSPECS', 'GIT_ICASE_PATHSPECS'];

/**
 * The one way this app runs git: `execFile` (never a shell) in a helper process, no terminal prompt, C locale (git's
 * messages are parsed only for a few fixed phrases and shown verbatim), no optional locks (a
 * status or diff never takes `index.lock` from under an agent's own git), a timeout and an output
 * cap per call, stdin always closed. The version is checked once, on the first call.
 */
export class Git {
  private readonly env: NodeJS.ProcessEnv;
  private readonly timeoutMs: number;
  private readonly maxBytes: number;
  private readonly log: Logger;
  private checked: Promise<GitVersion> | undefined;

  constructor(options: GitOptions = {}) {
    const env: NodeJS.ProcessEnv = { ...(options.env ?? process.env) };
    for (const name of REDIRECTING) delete env[name];
    this.env = {
      ...env,
      GIT_TERMINAL_PROMPT: '0',
      LC_ALL: 'C',
      GIT_OPTIONAL_LOCKS: '0',
      // No call may wait for an editor nobody sees; every message is given on the command line.
      GIT_EDITOR: 'true',
      GIT_SEQUENCE_EDITOR: 'true',
      GIT_MERGE_AUTOEDIT: 'no',
    };
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
    this.log = options.logger ?? silentLogger;
  }

  /** The git on the PATH, checked once: missing or older than MIN_GIT_VERSION is a GitError. */
  version(cwd: string = process.cwd()): Promise<GitVersion> {
    if (!this.checked) {
      const checking = this.exec(['version'], { cwd }).then((r) => {
        const version = parseGitVersion(r.stdout);
        if (!version) throw new GitError('failed', `Could not read git's version from "${r.stdout.trim()}".`, { args: ['version'] });
        if (compareVersions(version, MIN_GIT_VERSION) < 0) {
          throw new GitError('too_old', `Switchboard needs git ${formatVersion(MIN_GIT_VERSION)} or newer; this git is ${formatVersion(version)}. Install a newer git and try again.`);
        }
        return version;
      });
      this.checked = checking;
      // A failed check is not kept: installing git while the app runs makes the next call work.
      checking.catch(() => {
        if (this.checked === checking) this.checked = undefined;
      });
    }
    return this.checked;
  }

  /** Runs `git <args>` in `cwd`. Exit codes other than 0 (and `okExitCodes`) are a GitError carrying git's stderr. */
  async run(args: readonly string[], options: GitRunOptions): Promise<GitResult> {
    await this.version(options.cwd);
    return this.exec(args, options);
  }

  private async exec(args: readonly string[], o: GitRunOptions): Promise<GitResult> {
    const argv = ['-c', 'core.quotepath=off', ...args];
    const maxBytes = o.maxBytes ?? this.maxBytes;
    const timeoutMs = o.timeoutMs ?? this.timeoutMs;
    const started = performance.now();
    let reply;
    try {
      // Started by the helper process: a process started by the host blocks it (git-exec.ts).
      reply = await execInRunner({ file: 'git', args: argv, cwd: o.cwd, env: o.env ? { ...this.env, ...o.env } : this.env, timeoutMs, maxBytes, ...(o.stdin !== undefined ? { stdin: o.stdin } : {}) });
    } catch (err) {
      throw new GitError('failed', `git ${args[0]} could not be run: ${err instanceof Error ? err.message : String(err)}`, { args });
    }
    const { error: e, stdinError } = reply;
    const stdout = reply.stdout.toString('utf8');
    const stderr = reply.stderr.toString('utf8').trim();
    // git may exit before reading all of stdin (a refused call): that EPIPE is its answer, not ours to throw.
    if (stdinError) this.log.debug('git stdin closed early', { args: argv, error: stdinError });
    this.log.debug('git', { args: argv, cwd: o.cwd, ms: Math.round(performance.now() - started), exit: e ? (e.code ?? e.signal) : 0 });
    if (!e) return { stdout, stderr, exitCode: 0, truncated: false };
    if (e.code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER') {
      if (o.overflow === 'truncate') return { stdout, stderr, exitCode: 0, truncated: true };
      throw new GitError('output_too_large', `git ${args[0]} printed more than ${maxBytes} bytes; Switchboard stopped it.`, { args });
    }
    if (e.code === 'ENOENT' && typeof e.syscall === 'string' && e.syscall.startsWith('spawn')) {
      // Node says ENOENT both for a missing program and for a missing working folder.
      if (!existsSync(o.cwd)) throw new GitError('not_found', `The folder ${o.cwd} does not exist.`, { args });
      throw new GitError('git_missing', 'git is not installed, or not on the PATH. Install git and try again.', { args });
    }
    if (e.killed || (e.signal && typeof e.code !== 'number')) {
      throw new GitError('timeout', `git ${args[0]} did not finish within ${Math.round(timeoutMs / 1000)} s and was stopped.`, { args, stderr });
    }
    const exitCode = typeof e.code === 'number' ? e.code : -1;
    if (o.okExitCodes?.includes(exitCode)) return { stdout, stderr, exitCode, truncated: false };
    throw failure(args, exitCode, stderr, stdout);
  }
}

/** A failed git call as a GitError, recognising the few failures that need their own code. */
function failure(args: readonly string[], exitCode: number, stderr: string, stdout: string): GitError {
  const words = stderr || stdout.trim();
  const fields = { args, stderr: words, exitCode };
  if (/not a git repository/i.test(words)) return new GitError('not_a_repository', `Not a git repository: ${words}`, fields);
  if (/detected dubious ownership/i.test(words)) return new GitError('unsafe_repository', `git refuses this repository because another user owns it: ${words}`, fields);
  return new GitError('failed', words ? `git ${args[0]} failed: ${words}` : `git ${args[0]} failed (exit ${exitCode}).`, fields);
}

export function parseGitVersion(text: string): GitVersion | undefined {
  const m = /git version (\d+)\.(\d+)(?:\.(\d+))?/.exec(text);
  if (!m) return undefined;
  return { major: Number(m[1]), minor: Number(m[2]), patch: Number(m[3] ?? 0) };
}

export function compareVersions(a: GitVersion, b: GitVersion): number {
  return a.major - b.major || a.minor - b.minor || a.patch - b.patch;
}

export const formatVersion = (v: GitVersion): string => `${v.major}.${v.minor}.${v.patch}`;
