import type { AgentSessionInfoT, BranchCheckT, FolderCheckT, WireError, WorkspaceProbeT } from '../../../../../shared/contract';

/** The host's answer about the typed folder: asked as the person types, only the latest kept. */
type FolderCheckState = { state: 'idle' } | { state: 'checking' } | { state: 'done'; result: FolderCheckT };

/** The agent's own sessions (`agents:sessions`), for "Open an existing session of this agent". */
export type ListedSessions =
  | { state: 'idle' }
  | { state: 'loading'; agentId: string }
  | { state: 'done'; agentId: string; sessions: readonly AgentSessionInfoT[] }
  | { state: 'error'; agentId: string; error: WireError };

/** What `workspace:probe` said of the checked folder (a repository? may it have a worktree?). */
export type WorkspaceProbeState = { state: 'idle' } | { state: 'probing' } | { state: 'done'; probe: WorkspaceProbeT };

/** The host's check of the Branch box as typed: only the latest text's answer is kept. */
export type BranchCheckState = { state: 'idle' } | { state: 'checking' } | { state: 'done'; result: BranchCheckT };

export interface NewSessionDialog {
  agentId: string | undefined;
  /** The Folder box as typed. */
  folder: string;
  check: FolderCheckState;
  /** Checked folders the session may use besides its own, in the order added. */
  additionalDirs: readonly string[];
  /** Why the last folder offered as an additional one was refused. */
  additionalDirError: string | undefined;
  listed: ListedSessions;
  workspace: WorkspaceProbeState;
  /** The `Separate worktree` box as the person set it; undefined: the repository's remembered choice. */
  worktree: boolean | undefined;
  /** The Branch box; prefilled from the host's suggestion until the person types in it. */
  branch: string;
  branchEdited: boolean;
  branchCheck: BranchCheckState;
  /** `Also run on`: more agents given the same first prompt, each in its own worktree. */
  alsoRunOn: readonly string[];
}

export interface NewSessionState {
  /** The New session dialog, while it is open. Replaced on every change, never mutated. */
  newSession: NewSessionDialog | undefined;
  /** Folders sessions started in, most recent first (the host's `folders:recent`). */
  recentFolders: readonly string[];
}

export const newSessionInitialState: NewSessionState = {
  newSession: undefined,
  recentFolders: [],
};
