import type { WireError } from '../../../../../shared/contract';
import type { GitFailure, GitOp } from './initial-state';

/** A refused git operation as the window shows it: the host's sentence, the files, and git's own words. */
export function gitFailure(op: GitOp, error: WireError): GitFailure {
  return {
    op,
    message: error.message,
    problem: error.details?.git?.problem,
    files: error.details?.git?.files ?? [],
    words: error.details?.stderrTail ?? [],
  };
}

/** The first line of a prompt, as a commit message's subject is kept short. */
export function commitMessageFrom(prompt: string | undefined): string {
  if (!prompt) return '';
  const first = prompt.trim().split('\n')[0] ?? '';
  return first.length > 72 ? `${first.slice(0, 71)}…` : first;
}

export function shortCommit(commit: string): string {
  return commit.slice(0, 7);
}
