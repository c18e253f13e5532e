/**
 * The git layer of the workspace: one `Git` runner, repository facts, branches, worktrees,
 * checkpoints, changes against a base, restore, commit, merge and rebase. Every failure is a
 * `GitError` whose `code` the UI branches on and whose message ends with git's own words.
 */
export { Git, MIN_GIT_VERSION, formatVersion, type GitOptions, type GitResult, type GitRunOptions, type GitVersion } from './git';
export { GitError, isGitError, type GitErrorCode } from './git-error';
export { probeFolder, repositoryFacts, requireState, type FolderProbe, type GitOperation, type RepositoryFacts } from './repository';
export { branchExists, checkBranchName, commitsNotIn, deleteBranch, listBranches, slugify, suggestBranchName, type BranchCheck, type SuggestOptions } from './branches';
export {
  canonicalPath,
  checkpointAndRemoveWorktree,
  createWorktree,
  defaultWorktreePath,
  forgetWorktree,
  listWorktrees,
  pruneWorktrees,
  recreateWorktree,
  removeWorktree,
  type CreateWorktreeOptions,
  type CreatedWorktree,
  type WorktreeInfo,
} from './worktrees';
export { claimWorktree, discardPreparedWorktree, prepareWorktree, sweepPreparedWorktrees, type ClaimOptions, type PreparedWorktree } from './prepared-worktrees';
export { worktreeStatus, type WorktreeBase, type WorktreeStatus } from './status';
export { fileDiff, listChanges, type ChangeStatus, type ChangedFile, type ChangesList, type ChangesOptions, type FileDiff, type FileDiffOptions } from './changes';
export { CHECKPOINT_REFS, createCheckpoint, deleteCheckpoints, listCheckpoints, type Checkpoint, type CheckpointTarget } from './checkpoints';
export { discardChanges, restoreCheckpoint, revertFiles, type FilesChanged } from './restore';
export { commitAll, mergeBranch, rebaseOnBase, type MergeOptions } from './integrate';
