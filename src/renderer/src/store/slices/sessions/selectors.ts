import type { AgentInfoT, SessionStateT, SessionViewT, StateReason } from '../../../../../shared/contract';
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

/** Why a session is in its state, as the person reads it. Keyed by the enum: a new reason without a text does not compile. */
const REASON_TEXT: Record<StateReason, string> = {
  new: 'Started a new agent session',
  resume: 'Waking up: resuming the agent session',
  resumed: 'The agent picked up the session where it left off',
  loaded: 'The agent reloaded the session from its history',
  recreated: 'The agent could not restore the session, so a new one continues the conversation',
  forked: 'The agent started it as a fork of another session',
  watched: 'Shown in a window',
  unwatched: 'Running in the background: no window shows it',
  closed_by_user: 'Closed by you',
  idle_timeout: 'Put to sleep after being idle',
  host_shutdown: 'Put to sleep when Switchboard shut down',
  agent_exited: 'The agent process exited',
  recovered: 'Put to sleep when Switchboard restarted after an unexpected stop',
  stale: 'Its agent session was lost, so Switchboard restarted it',
  crash_loop: 'The agent kept crashing, so Switchboard stopped restarting it',
  start_failed: 'The agent started but could not open a session: see the error, then press Retry',
  auth_required: 'The agent needs you to sign in before it starts: choose a sign-in method',
  agent_unavailable: "The agent's command could not be started: fix it in Settings, then press Retry",
  imported: 'Imported from an exported file: a read-only copy with no agent session',
};

/** ENDED for these reasons: the agent never started, so the session is not asleep and a message does not wake it. */
const FAILED_START_BADGE: Partial<Record<StateReason, string>> = {
  auth_required: 'Needs sign-in',
  start_failed: 'Could not start',
  agent_unavailable: 'Could not start',
};

function reasonText(reason: StateReason): string {
  return REASON_TEXT[reason];
}

/** The agent of this session never started (or asks for sign-in): it needs an action, not a message. */
function failedStart(view: Pick<SessionViewT, 'state' | 'stateReason'>): boolean {
  return view.state === 'ENDED' && view.stateReason !== undefined && FAILED_START_BADGE[view.stateReason] !== undefined;
}

function badgeLabel(view: Pick<SessionViewT, 'state' | 'stateReason'>): string {
  const failed = view.state === 'ENDED' && view.stateReason !== undefined ? FAILED_START_BADGE[view.stateReason] : undefined;
  return failed ?? BADGE[view.state];
}

/** Tooltip for the state badge: why the session is in its state, and for an asleep one that it can be woken. */
function badgeTitle(view: Pick<SessionViewT, 'state' | 'stateReason'>): string | undefined {
  const why = view.stateReason === undefined ? undefined : REASON_TEXT[view.stateReason];
  if (view.state !== 'ENDED' || failedStart(view)) return why;
  return `${why ?? 'Ended'}. Sending a message resumes it.`;
}

type EntryTone = 'running' | 'attention' | 'asleep' | 'error' | 'ended' | 'idle' | 'starting';

/** Ended because something went wrong (not asleep, not closed on purpose). */
const ERROR_REASONS: ReadonlySet<StateReason> = new Set<StateReason>(['agent_exited', 'crash_loop', 'start_failed', 'agent_unavailable']);

/**
 * The state a sidebar entry says in words, with its colour: running, waiting for permission,
 * asleep, error, ended; a live session with nothing to do is idle.
 */
function entryState(view: SessionViewT, currentSessionId: string | undefined): { label: string; tone: EntryTone } {
  if (needsPermission(view, currentSessionId) || (view.pendingPermissions > 0 && view.running)) return { label: 'Waiting for permission', tone: 'attention' };
  if (view.pendingQuestions > 0 && (view.id !== currentSessionId || view.running)) return { label: 'Waiting for your answer', tone: 'attention' };
  if (view.running) return { label: 'Running', tone: 'running' };
  if (view.state === 'ENDED') {
    if (view.stateReason === 'auth_required') return { label: 'Needs sign-in', tone: 'attention' };
    if (view.stateReason !== undefined && ERROR_REASONS.has(view.stateReason)) {
      return { label: FAILED_START_BADGE[view.stateReason] ?? 'Error', tone: 'error' };
    }
    if (view.stateReason === 'closed_by_user') return { label: 'Ended', tone: 'ended' };
    return { label: 'Asleep', tone: 'asleep' };
  }
  if (view.state === 'CREATED' || view.state === 'STARTING') return { label: 'Starting', tone: 'starting' };
  if (view.state === 'CLOSING') return { label: 'Ending', tone: 'ended' };
  return { label: 'Idle', tone: 'idle' };
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
  entryState,
  badgeLabel,
  failedStart,
  badgeTitle,
  reasonText,
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
