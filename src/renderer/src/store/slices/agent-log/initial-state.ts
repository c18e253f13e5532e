import type { AgentLogEntryT, WireError } from '../../../../../shared/contract';
import { DEFAULT_SILENCE_AFTER_MS } from '../../../lib/turn-progress';

/** The Agent log panel of one session: the backlog, then the lines pushed since it opened. */
export interface AgentLogView {
  sessionId: string;
  loaded: boolean;
  agentName: string;
  logFile: string | undefined;
  live: boolean;
  /** Oldest first, at most `MAX_LOG_ENTRIES` (the oldest go first). */
  entries: readonly AgentLogEntryT[];
  /** Lines not shown: before the backlog's start, pushed beyond a batch's bound, or evicted here. */
  truncated: boolean;
  dropped: number;
  error: WireError | undefined;
}

export interface AgentLogState {
  agentLog: AgentLogView | undefined;
  /** After this long without a word from the agent, a running turn says so. */
  silenceAfterMs: number;
}

export const MAX_LOG_ENTRIES = 2_000;

export function agentLogInitialState(silenceAfterMs = DEFAULT_SILENCE_AFTER_MS): AgentLogState {
  return { agentLog: undefined, silenceAfterMs };
}
