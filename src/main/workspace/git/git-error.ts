import { AppError, type ErrorCode, type GitProblem } from '../../../shared/errors';

/**
 * Every way a git operation fails, as one union: the UI branches on `code`, and shows
 * `message` (which ends with git's own words when git said something).
 */
export type GitErrorCode =
  /** No `git` on the PATH. */
  | 'git_missing'
  /** A `git` older than MIN_GIT_VERSION. */
  | 'too_old'
  | 'not_a_repository'
  /** git refuses a repository owned by someone else (`safe.directory`). */
  | 'unsafe_repository'
  | 'bare_repository'
  | 'timeout'
  /** git printed more than the call allows (a runaway listing, a huge diff). */
  | 'output_too_large'
  /** git ran and failed; `stderr` says why. */
  | 'failed'
  /** A merge or rebase stopped on conflicts; `files` names them. Everything was put back. */
  | 'conflict'
  /** Uncommitted changes where the operation needs none. */
  | 'dirty'
  /** The checkout is not on the branch the operation needs. */
  | 'wrong_branch'
  | 'detached_head'
  /** The repository has no commit yet. */
  | 'unborn_head'
  /** A merge, rebase, cherry-pick, revert or bisect is under way there. */
  | 'operation_in_progress'
  | 'submodules'
  | 'invalid_branch'
  | 'branch_taken'
  | 'nothing_to_commit'
  | 'nothing_to_merge'
  | 'not_found'
  | 'already_exists'
  /** A path git cannot take or give back intact (a repository folder whose name holds a newline). */
  | 'unsupported_path'
  /** An argument this layer refuses before running git (an empty message, a bad checkpoint id). */
  | 'invalid_argument';

export interface GitErrorFields {
  /** git's stderr, verbatim (trimmed), when git ran. */
  stderr?: string;
  /** The arguments of the git call that failed. */
  args?: readonly string[];
  exitCode?: number;
  /** Conflicted files (`conflict`) or the files in the way. */
  files?: string[];
}

export class GitError extends Error {
  override readonly name = 'GitError';
  readonly stderr: string | undefined;
  readonly args: readonly string[] | undefined;
  readonly exitCode: number | undefined;
  readonly files: string[] | undefined;

  constructor(
    readonly code: GitErrorCode,
    message: string,
    fields: GitErrorFields = {},
  ) {
    super(message);
    this.stderr = fields.stderr;
    this.args = fields.args;
    this.exitCode = fields.exitCode;
    this.files = fields.files;
  }

  /** The same failure as the contract's error: git's words kept as `stderrTail`, the kind and files as `git`. */
  toAppError(): AppError {
    const stderrTail = this.stderr ? this.stderr.split('\n').slice(-20) : undefined;
    const git = { problem: this.code, ...(this.files ? { files: this.files.slice(0, 200) } : {}) };
    return new AppError(APP_CODES[this.code], this.message, { ...(stderrTail ? { stderrTail } : {}), git });
  }
}

const APP_CODES: Record<GitErrorCode, ErrorCode> = {
  git_missing: 'unsupported',
  too_old: 'unsupported',
  not_a_repository: 'invalid_request',
  unsafe_repository: 'invalid_state',
  bare_repository: 'unsupported',
  timeout: 'internal',
  output_too_large: 'internal',
  failed: 'internal',
  conflict: 'invalid_state',
  dirty: 'invalid_state',
  wrong_branch: 'invalid_state',
  detached_head: 'invalid_state',
  unborn_head: 'invalid_state',
  operation_in_progress: 'invalid_state',
  submodules: 'unsupported',
  invalid_branch: 'invalid_request',
  branch_taken: 'already_exists',
  nothing_to_commit: 'invalid_state',
  nothing_to_merge: 'invalid_state',
  not_found: 'not_found',
  already_exists: 'already_exists',
  unsupported_path: 'unsupported',
  invalid_argument: 'invalid_request',
};

/** The layer's codes are the contract's `GitProblem`s (which also has the service's own `unmerged`). */
const _sameWords: GitErrorCode extends GitProblem ? true : never = true;
void _sameWords;

export function isGitError(err: unknown, code?: GitErrorCode): err is GitError {
  return err instanceof GitError && (code === undefined || err.code === code);
}
