import type {
  ChangedFileT,
  ChangesListT,
  CompareResultT,
  FileDiffT,
  GitProblem,
  RepositorySettingsT,
  WireError,
  WorkspaceStatusT,
} from '../../../../../shared/contract';

/** A git operation the person started from Changes, Compare or the transcript. */
export type GitOp = 'commit' | 'merge' | 'rebase' | 'revert' | 'discard' | 'restore' | 'recreate';

/** A git operation that failed, as the window shows it: the host's sentence, the files it names, git's own words. */
export interface GitFailure {
  op: GitOp;
  message: string;
  problem: GitProblem | undefined;
  /** A conflict's files, or the uncommitted files in the way. */
  files: readonly string[];
  /** git's stderr, as it said it. */
  words: readonly string[];
}

export type DiffState = { state: 'loading' } | { state: 'done'; diff: FileDiffT } | { state: 'error'; error: WireError };

/** The `Changes` region of one session, while open. */
export interface ChangesPanel {
  sessionId: string;
  /** The last list read; kept while a newer one loads, so the region does not flicker. */
  list: ChangesListT | undefined;
  loading: boolean;
  listError: WireError | undefined;
  /** The file whose diff shows. */
  selected: ChangedFileT | undefined;
  diff: DiffState | undefined;
  busy: GitOp | undefined;
  failure: GitFailure | undefined;
  /** What the last operation did, in words ("Committed 1a2b3c4"). */
  done: string | undefined;
  commitMessage: string;
  squash: boolean;
}

export interface CompareView {
  groupId: string;
  loading: boolean;
  result: CompareResultT | undefined;
  error: WireError | undefined;
  /** The sibling whose merge is in flight. */
  merging: string | undefined;
  failure: GitFailure | undefined;
  done: string | undefined;
  squash: boolean;
}

/** A setup command's live output (`setup:read` then `setup:output` pieces by position). */
export interface SetupLive {
  command: string;
  text: string;
  end: number;
  truncated: boolean;
  running: boolean;
}

export interface WorkspaceState {
  /** The header's git facts per session, as last read or pushed. */
  workspaceStatus: ReadonlyMap<string, WorkspaceStatusT>;
  changes: ChangesPanel | undefined;
  compare: CompareView | undefined;
  /** Settings → Repositories. */
  repositories: { loading: boolean; list: readonly RepositorySettingsT[]; error: WireError | undefined };
  setupOutput: ReadonlyMap<string, SetupLive>;
}

export const workspaceInitialState: WorkspaceState = {
  workspaceStatus: new Map(),
  changes: undefined,
  compare: undefined,
  repositories: { loading: false, list: [], error: undefined },
  setupOutput: new Map(),
};
