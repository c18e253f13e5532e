import type { AgentInfoT, SessionStateT, SessionViewT } from '../../../../../shared/contract';
import type { AppState } from '../../app-store';

const BADGE: Record<SessionStateT, string> = {
  CREATED: 'Starting',
  STARTING: 'Starting',
  ACTIVE: 'Active',
  DETACHED: 'Detached',
  CLOSING: 'Closing',
  // An ended session keeps its transcript and wakes on the next prompt: asleep, not failed.
  ENDED: 'Asleep',
};

const REASON_TEXT: Record<string, string> = {
  idle_timeout: 'Put to sleep after being idle',
  host_shutdown: 'Put to sleep when the host shut down',
  agent_exited: 'The agent process exited',
  recovered: 'Recovered after a restart',
  closed: 'Closed',
  user: 'Closed',
};

function badgeLabel(view: Pick<SessionViewT, 'state'>): string {
  return BADGE[view.state];
}

/** Tooltip for the state badge: why an asleep session stopped, and that it can be woken. */
function badgeTitle(view: Pick<SessionViewT, 'state' | 'stateReason'>): string | undefined {
  if (view.state !== 'ENDED') return view.stateReason;
  const reason = view.stateReason;
  const why = reason ? `${REASON_TEXT[reason] ?? 'Ended'} (${reason})` : 'Ended';
  return `${why}. Sending a message resumes it.`;
}

/** The sidebar flags pending requests only where no dialog shows them. */
function needsPermission(view: SessionViewT, currentSessionId: string | undefined): boolean {
  return view.pendingPermissions > 0 && view.id !== currentSessionId;
}

function currentSession(s: AppState): SessionViewT | undefined {
  return s.currentSessionId === undefined ? undefined : s.sessionsById.get(s.currentSessionId);
}

/** Running follows the current session's view, which the switch answer overwrote. */
function isCurrentRunning(s: AppState): boolean {
  return currentSession(s)?.running ?? false;
}

const byId =
  (id: string) =>
  (s: AppState): SessionViewT | undefined =>
    s.sessionsById.get(id);

function agentName(s: AppState, agentId: string): string {
  return s.hostInfo?.agents.find((a) => a.id === agentId)?.name ?? agentId;
}

const NO_AGENTS: readonly AgentInfoT[] = [];

function agents(s: AppState): readonly AgentInfoT[] {
  return s.hostInfo?.agents ?? NO_AGENTS;
}

/** What the Agent picker shows: the user's pick, else the settings' default, else the first. */
function newSessionAgentId(s: AppState): string | undefined {
  const list = agents(s);
  const known = (id: string | undefined): id is string => id !== undefined && list.some((a) => a.id === id);
  if (known(s.chosenAgentId)) return s.chosenAgentId;
  const fallback = s.settings?.defaultAgentId ?? s.hostInfo?.settings.defaultAgentId;
  return known(fallback) ? fallback : list[0]?.id;
}

/** The agentId New session sends: only when there is a choice (one agent is the default). */
function agentIdForCreate(s: AppState): string | undefined {
  return agents(s).length > 1 ? newSessionAgentId(s) : undefined;
}

/** The current session exists only in this window so far: `sessions:create` is in flight. */
function isCreatingCurrent(s: AppState): boolean {
  return s.creatingSessionId !== undefined && s.creatingSessionId === s.currentSessionId;
}

export const sessionsSelectors = {
  badgeLabel,
  badgeTitle,
  needsPermission,
  currentSession,
  isCurrentRunning,
  byId,
  agentName,
  agents,
  newSessionAgentId,
  agentIdForCreate,
  isCreating: (s: AppState) => s.creatingSessionId !== undefined,
  isCreatingCurrent,
};
