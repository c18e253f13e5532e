import type { AppState } from '../../app-store';
import { sessionsSelectors } from '../sessions/selectors';

/** The checked folder the session would start in, once the host said it is fine. */
function checkedFolder(s: AppState): string | undefined {
  const check = s.newSession?.check;
  return check?.state === 'done' && check.result.ok ? check.result.path : undefined;
}

/**
 * The agent the dialog starts: the one chosen in it, else the one it would preselect now (the
 * agent list may arrive after the dialog opened).
 */
function agentId(s: AppState): string | undefined {
  return s.newSession?.agentId ?? sessionsSelectors.newSessionAgentId(s);
}

/** The folder is in a git repository (the dialog offers a worktree). */
function isRepository(s: AppState): boolean {
  const ws = s.newSession?.workspace;
  return ws?.state === 'done' && ws.probe.kind === 'repository';
}

/** Why a worktree cannot be made from this repository now (detached HEAD, an unborn branch…). */
function worktreeProblem(s: AppState): string | undefined {
  const ws = s.newSession?.workspace;
  return ws?.state === 'done' && ws.probe.kind === 'repository' && !ws.probe.worktree.ok ? ws.probe.worktree.message : undefined;
}

/** The session gets its own worktree: a repository that allows one, and the box on (as set, else as remembered). */
function worktreeOn(s: AppState): boolean {
  const d = s.newSession;
  const ws = d?.workspace;
  if (!d || ws?.state !== 'done' || ws.probe.kind !== 'repository' || !ws.probe.worktree.ok) return false;
  return d.worktree ?? ws.probe.worktreeDefault;
}

/** The branch name the host accepted for the text now in the box. */
function checkedBranch(s: AppState): string | undefined {
  const c = s.newSession?.branchCheck;
  return c?.state === 'done' && c.result.ok ? c.result.name : undefined;
}

/** Why the Branch box's name cannot be used, under it. */
function branchProblem(s: AppState): string | undefined {
  const c = s.newSession?.branchCheck;
  return c?.state === 'done' && !c.result.ok ? c.result.message : undefined;
}

/** Why Start is disabled, for the person; undefined when it is enabled. */
function startBlocked(s: AppState): string | undefined {
  const d = s.newSession;
  if (!d) return 'The dialog is closed';
  if (agentId(s) === undefined) return 'Choose an agent';
  if (d.check.state === 'checking') return 'Checking the folder…';
  if (d.check.state === 'done' && !d.check.result.ok) return d.check.result.message;
  if (checkedFolder(s) === undefined) return 'Choose the folder the agent works in';
  if (d.workspace.state === 'probing') return 'Checking the folder…';
  if (worktreeOn(s)) {
    if (!d.branch.trim()) return 'Name the branch';
    if (d.branchCheck.state !== 'done') return 'Checking the branch name…';
    const problem = branchProblem(s);
    if (problem) return problem;
  }
  if (sessionsSelectors.isCreating(s)) return 'A session is being started';
  return undefined;
}

/** The folder's problem to show under the box: only a finished check that failed. */
function folderProblem(s: AppState): string | undefined {
  const check = s.newSession?.check;
  return check?.state === 'done' && !check.result.ok ? check.result.message : undefined;
}

/** Whether the selected agent is known to list its sessions (from its last `initialize` test), or not known. */
function agentListsSessions(s: AppState, agentId: string | undefined): boolean | undefined {
  const test = s.agents.find((a) => a.id === agentId)?.lastTest;
  if (!test?.ok) return undefined;
  const caps = test.capabilities as { sessionCapabilities?: { list?: unknown } } | null;
  return caps?.sessionCapabilities?.list != null;
}

export const newSessionSelectors = {
  dialog: (s: AppState) => s.newSession,
  agentId,
  recentFolders: (s: AppState) => s.recentFolders,
  checkedFolder,
  isRepository,
  worktreeProblem,
  worktreeOn,
  checkedBranch,
  branchProblem,
  startBlocked,
  canStart: (s: AppState) => startBlocked(s) === undefined,
  folderProblem,
  agentListsSessions,
  canPickFolder: (s: AppState) => s.hostInfo?.canPickFolder === true,
};
