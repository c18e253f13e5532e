/**
 * The workspace part of the contract (issue 19): a session's git worktree or shared repository
 * folder, its status, its changes against the base, checkpoints, commit / merge / rebase, the
 * repository settings and sibling sessions compared. Commands and events that carry these are
 * listed in `contract.ts`; docs/architecture.md ("Workspaces") describes how a window uses them.
 */
import { z } from 'zod';
import { Cost } from './session-controls';

const SessionId = z.uuid();
/** A checkpoint: the `checkpointId` a `checkpoint` or `files_restored` transcript event names. */
export const CheckpointId = z.string().regex(/^[A-Za-z0-9_-]{1,128}$/);

/** Where a session works: its own worktree on its own branch, or a repository folder it shares. */
export const WorkspaceKind = z.enum(['worktree', 'shared']);
export type WorkspaceKindT = z.output<typeof WorkspaceKind>;

/** The repository's setup command in a new worktree: running, or how it ended. */
export const SetupState = z.object({
  command: z.string(),
  state: z.enum(['running', 'succeeded', 'failed']),
  /** Exit code once it ended (absent when it was killed or could not start). */
  exitCode: z.number().int().optional(),
});
export type SetupStateT = z.output<typeof SetupState>;

/** A session's workspace, on its view (`SessionView.workspace`). Absent: a folder outside any repository. */
export const WorkspaceView = z.object({
  kind: WorkspaceKind,
  /** The checkout the person chose the folder in (its top level): `Merge` runs there. */
  repository: z.string(),
  /** The folder the person chose (the sidebar groups by it; `cwd` is where the agent works). */
  folder: z.string(),
  /** `worktree`: the worktree's top folder (the session's `cwd` is it, or the same sub-folder in it). */
  path: z.string().optional(),
  /** `worktree`: the session's branch. `shared`: absent (the folder's own branch may change under it). */
  branch: z.string().optional(),
  /** The branch `Merge` goes into and `Rebase on base` replays onto. */
  baseBranch: z.string().optional(),
  /** `worktree`: the commit Changes are listed against (moves on after a merge or rebase). */
  baseCommit: z.string().optional(),
  /** The worktree folder vanished (found at start-up and pruned): `workspace:recreate` makes it again from the branch. */
  missing: z.boolean().optional(),
  /** Archived: the folder was removed, the branch kept; `sessions:restore` re-creates it. */
  removed: z.boolean().optional(),
  /** The repository's setup command in this worktree, when one ran or runs. */
  setup: SetupState.optional(),
});
export type WorkspaceViewT = z.output<typeof WorkspaceView>;

/** `sessions:create` with `worktree`: the session gets its own worktree on this new branch. */
export const WorktreeRequest = z
  .object({
    /** The new branch (checked with `branches:check`); with `alsoRunOn` each session's branch gets its agent's name appended. */
    branch: z.string().min(1).max(250),
  })
  .strict();

/** Whether a new worktree can be made from a repository folder now, and why not. */
export const WorktreePossible = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true) }),
  z.object({
    ok: z.literal(false),
    problem: z.enum(['detached_head', 'unborn_head', 'operation_in_progress', 'submodules']),
    message: z.string(),
  }),
]);

/** What `workspace:probe` says of a folder typed in the New session dialog. */
export const WorkspaceProbe = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('repository'),
    /** The checkout's top folder. */
    topLevel: z.string(),
    /** The checked-out branch; absent when HEAD is detached. */
    branch: z.string().optional(),
    head: z.string().optional(),
    worktree: WorktreePossible,
    /** A free, valid branch name from the title (or a short id). */
    suggestedBranch: z.string().optional(),
    /** The `Separate worktree` box: the last choice for this repository (on when there was none). */
    worktreeDefault: z.boolean(),
    /** The repository's setup command (Settings → Repositories), run in each new worktree. */
    setupCommand: z.string().optional(),
    /** A worktree is being made ahead for this repository (asked with `prepare`): Start will claim it. */
    preparing: z.boolean(),
  }),
  /** Not in a git checkout (or a bare repository): the session works in the folder as it is, no checkpoints. */
  z.object({ kind: z.literal('not_repository') }),
  /** git is missing or too old: what to do, in words. Sessions still work as in a plain folder. */
  z.object({ kind: z.literal('no_git'), message: z.string() }),
]);
export type WorkspaceProbeT = z.output<typeof WorkspaceProbe>;

export const ProbeWorkspace = z
  .object({
    path: z.string().min(1).max(4096),
    /** The title the session will have (the branch is suggested from it). */
    title: z.string().max(500).optional(),
    /** The id the window will create the session with (its first characters name the branch when the title gives nothing). */
    sessionId: SessionId.optional(),
    /** The dialog's box is checked: start making a worktree now so Start only claims it. */
    prepare: z.boolean().optional(),
  })
  .strict();

/** `branches:check`: a name as typed for a new branch. */
export const BranchCheck = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), name: z.string() }),
  z.object({ ok: z.literal(false), problem: z.enum(['invalid', 'taken', 'conflicts']), message: z.string() }),
]);
export type BranchCheckT = z.output<typeof BranchCheck>;

/** What the header shows: pushed as `workspace:status` when it changes. */
export const WorkspaceStatus = z.object({
  sessionId: SessionId,
  /** The branch checked out in the session's folder; absent when detached. */
  branch: z.string().optional(),
  head: z.string().optional(),
  baseBranch: z.string().optional(),
  /** Commits on the branch the base branch lacks, and on the base branch the branch lacks. */
  ahead: z.number().int().nonnegative(),
  behind: z.number().int().nonnegative(),
  /** Uncommitted changes (untracked files included, ignored ones not). */
  dirty: z.boolean(),
  uncommitted: z.number().int().nonnegative(),
  /** When it was read (host time). */
  at: z.number(),
});
export type WorkspaceStatusT = z.output<typeof WorkspaceStatus>;

export const ChangeStatus = z.enum(['added', 'modified', 'deleted', 'renamed', 'untracked']);

export const ChangedFile = z.object({
  /** Relative to the checkout's top, `/`-separated; the new path of a rename. */
  path: z.string(),
  from: z.string().optional(),
  status: ChangeStatus,
  untracked: z.boolean(),
  binary: z.boolean(),
  /** Lines; absent for a binary file or an untracked nested repository. */
  added: z.number().int().nonnegative().optional(),
  removed: z.number().int().nonnegative().optional(),
});
export type ChangedFileT = z.output<typeof ChangedFile>;

/** `changes:list`: every file that differs from the base (a worktree) or from HEAD (a shared folder). */
export const ChangesList = z.object({
  sessionId: SessionId,
  /** The commit compared with. */
  base: z.string(),
  files: z.array(ChangedFile),
  /** More files changed than listed (`total` says how many). */
  truncated: z.boolean(),
  total: z.number().int().nonnegative(),
  at: z.number(),
});
export type ChangesListT = z.output<typeof ChangesList>;

export const ListChanges = z
  .object({
    sessionId: SessionId,
    /** At most this many files (default 2,000). */
    limit: z.number().int().min(1).max(10_000).optional(),
  })
  .strict();

export const DiffRequest = z
  .object({
    sessionId: SessionId,
    /** The file as `changes:list` gave it. */
    path: z.string().min(1).max(4096),
    from: z.string().min(1).max(4096).optional(),
    untracked: z.boolean().optional(),
  })
  .strict();

export const FileDiff = z.object({
  path: z.string(),
  from: z.string().optional(),
  binary: z.boolean(),
  /** A unified diff (`a/`, `b/` prefixes); empty for a binary file. */
  text: z.string(),
  /** Cut at 1 MiB. */
  truncated: z.boolean(),
});
export type FileDiffT = z.output<typeof FileDiff>;

/** What a restore, revert or discard did; `undo` restores the files as they were just before. */
export const FilesRestored = z.object({
  /** Pass to `checkpoints:restore` to undo. */
  undo: CheckpointId,
  removed: z.array(z.string()),
  written: z.array(z.string()),
  /** Submodule entries left alone. */
  skipped: z.array(z.string()),
});
export type FilesRestoredT = z.output<typeof FilesRestored>;

export const RevertFiles = z
  .object({ sessionId: SessionId, paths: z.array(z.string().min(1).max(4096)).min(1).max(10_000) })
  .strict();

export const CommitChanges = z
  .object({
    sessionId: SessionId,
    /** The window prefills it from the turn's prompt. */
    message: z.string().min(1).max(100_000),
  })
  .strict();

export const MergeBranch = z
  .object({
    sessionId: SessionId,
    /** One commit with the branch's changes instead of a merge commit. */
    squash: z.boolean().optional(),
    /** Default: "Merge <branch>" (squash: the session's title). */
    message: z.string().min(1).max(100_000).optional(),
  })
  .strict();

export const MergeResult = z.object({
  /** The new commit on the base branch. */
  commit: z.string(),
  /** The session's new base commit (Changes are now listed against it). */
  baseCommit: z.string(),
});

export const RebaseResult = z.object({
  head: z.string(),
  baseCommit: z.string(),
  /** The branch was replayed (false: it already sat on the base's tip). */
  moved: z.boolean(),
});

export const RestoreCheckpoint = z.object({ sessionId: SessionId, checkpointId: CheckpointId }).strict();

/** Live output of a setup command, to the windows watching its session; `start` as in `terminal:output`. */
export const SetupOutput = z.object({
  sessionId: SessionId,
  start: z.number().int().nonnegative(),
  text: z.string(),
});
export type SetupOutputT = z.output<typeof SetupOutput>;

/** `setup:read`: the setup command's output so far (a window that opens while it runs); live pieces continue at `end`. */
export const SetupSnapshot = z.object({
  command: z.string(),
  text: z.string(),
  end: z.number().int().nonnegative(),
  truncated: z.boolean(),
  running: z.boolean(),
});
export type SetupSnapshotT = z.output<typeof SetupSnapshot>;

/** `workspace:changed`: the session's files changed; a window showing Changes lists them again. */
export const ChangesChanged = z.object({ sessionId: SessionId, at: z.number() });

/** One sibling of a group in `workspace:compare`. */
export const CompareEntry = z.object({
  sessionId: SessionId,
  agentId: z.string(),
  title: z.string(),
  branch: z.string().optional(),
  /** Its files against its base (bounded like `changes:list`); absent when they could not be read (`problem` says why). */
  files: z.array(ChangedFile).optional(),
  truncated: z.boolean(),
  filesChanged: z.number().int().nonnegative(),
  added: z.number().int().nonnegative(),
  removed: z.number().int().nonnegative(),
  /** Commits on the branch not in the base. */
  ahead: z.number().int().nonnegative(),
  /** Time its finished turns took (ms), and how many turns ended. */
  turnMs: z.number().nonnegative(),
  turns: z.number().int().nonnegative(),
  /** A turn is running now. */
  running: z.boolean(),
  /** What its turns cost, where the agent reported it (one entry per currency). */
  cost: z.array(Cost),
  problem: z.string().optional(),
});
export type CompareEntryT = z.output<typeof CompareEntry>;

export const CompareResult = z.object({ groupId: z.string(), sessions: z.array(CompareEntry) });
export type CompareResultT = z.output<typeof CompareResult>;

/** Settings → Repositories: per repository (all its worktrees share them). */
export const RepositorySettings = z.object({
  /** The repository's main checkout. */
  repository: z.string(),
  /** `Separate worktree` in the New session dialog: the last choice. */
  worktreeDefault: z.boolean(),
  /** Run in each new worktree before its first prompt (`sh -c`), e.g. `npm ci`. */
  setupCommand: z.string().optional(),
});
export type RepositorySettingsT = z.output<typeof RepositorySettings>;

export const SaveRepositorySettings = z
  .object({
    /** Any folder in the repository. */
    path: z.string().min(1).max(4096),
    /** Empty or null removes it. */
    setupCommand: z.string().max(10_000).nullable().optional(),
    worktreeDefault: z.boolean().optional(),
  })
  .strict();
