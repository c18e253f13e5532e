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

/** Why Start is disabled, for the person; undefined when it is enabled. */
function startBlocked(s: AppState): string | undefined {
  const d = s.newSession;
  if (!d) return 'The dialog is closed';
  if (agentId(s) === undefined) return 'Choose an agent';
  if (d.check.state === 'checking') return 'Checking the folder…';
  if (d.check.state === 'done' && !d.check.result.ok) return d.check.result.message;
  if (checkedFolder(s) === undefined) return 'Choose the folder the agent works in';
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
  startBlocked,
  canStart: (s: AppState) => startBlocked(s) === undefined,
  folderProblem,
  agentListsSessions,
  canPickFolder: (s: AppState) => s.hostInfo?.canPickFolder === true,
};
