import { z } from 'zod';

/** Every error that crosses the contract has one of these codes; the UI branches on code. */
export const ErrorCode = z.enum([
  'invalid_request',
  'unknown_command',
  'unauthorized',
  'not_found',
  'already_exists',
  'invalid_state',
  'agent_exited',
  'agent_error',
  'agent_unavailable',
  /** The agent refused until the person signs in. */
  'auth_required',
  'permission_timeout',
  'permission_answered',
  /** A question from the agent was already answered (in another window, or by its deadline). */
  'question_answered',
  'crash_loop',
  'shutting_down',
  'disconnected',
  'internal',
  /** This host cannot do that here: no folder picker or desktop window in a headless host; an agent that does not list sessions. */
  'unsupported',
  /** The database could not be written (disk full, folder unwritable), or is damaged or newer. */
  'storage_failed',
  /** A download could not be made: offline, no answer in time, an HTTP error. Trying again may work. */
  'download_failed',
  /** A download arrived but is refused: too large, a wrong checksum, an archive that would write outside its folder. */
  'download_refused',
  /**
   * An answer or pushed event did not match the contract where it arrived (a host bug, or a
   * host and window of different versions); the message names the command or event and the field.
   */
  'contract_violation',
]);
export type ErrorCode = z.output<typeof ErrorCode>;

/** How a git operation failed, as the workspace's git layer names it (the window branches on it). */
export const GitProblem = z.enum([
  'git_missing',
  'too_old',
  'not_a_repository',
  'unsafe_repository',
  'bare_repository',
  'timeout',
  'output_too_large',
  'failed',
  'conflict',
  'dirty',
  'wrong_branch',
  'detached_head',
  'unborn_head',
  'operation_in_progress',
  'submodules',
  'invalid_branch',
  'branch_taken',
  'nothing_to_commit',
  'nothing_to_merge',
  'not_found',
  'already_exists',
  'unsupported_path',
  'invalid_argument',
  /** Not git's: deleting a branch with work not in its base needs `confirmUnmerged`. */
  'unmerged',
]);
export type GitProblem = z.output<typeof GitProblem>;

/**
 * What an error says beyond its message, for the person or the UI: which request fields were
 * refused, the dying agent's last stderr lines, the JSON-RPC error an agent answered, the
 * refused state change.
 */
export const WireErrorDetails = z.object({
  issues: z.array(z.object({ path: z.array(z.union([z.string(), z.number()])), message: z.string() })).optional(),
  stderrTail: z.array(z.string()).optional(),
  rpcCode: z.number().optional(),
  /** The agent's JSON-RPC error `data`, as it sent it. */
  rpcData: z.json().optional(),
  from: z.string().optional(),
  to: z.string().optional(),
  /** The process that holds a data folder another host asked for. */
  pid: z.number().optional(),
  /**
   * A git operation failed: its kind, the files it names (a conflict's, the uncommitted ones in
   * the way), and for a refused branch delete what would be lost. git's own words are `stderrTail`.
   */
  git: z
    .object({
      problem: GitProblem,
      files: z.array(z.string()).optional(),
      unmergedCommits: z.number().int().nonnegative().optional(),
      uncommittedFiles: z.number().int().nonnegative().optional(),
    })
    .optional(),
});
export type WireErrorDetails = z.output<typeof WireErrorDetails>;

export class AppError extends Error {
  override readonly name = 'AppError';
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: WireErrorDetails,
  ) {
    super(message);
  }

  toWire(): { code: ErrorCode; message: string; details?: WireErrorDetails } {
    return this.details === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, details: this.details };
  }
}

export function isAppError(err: unknown): err is AppError {
  return err instanceof AppError;
}

/** Turns anything thrown into a wire error; unknown errors become `internal`. */
export function toWireError(err: unknown): { code: ErrorCode; message: string; details?: WireErrorDetails } {
  if (isAppError(err)) return err.toWire();
  const message = err instanceof Error ? err.message : String(err);
  return { code: 'internal', message };
}
