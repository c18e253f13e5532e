import type { AgentLogEntryT, EventPayload } from '../../../../../shared/contract';
import type { GetState, SetState } from '../../app-store';
import type { StoreDeps } from '../../deps';
import { MAX_LOG_ENTRIES, type AgentLogView } from './initial-state';

export interface AgentLogActions {
  /** Opens the session's Agent log: its backlog, then new lines as the host pushes them. */
  openAgentLog(sessionId: string): Promise<void>;
  /** Closes it (the host stops pushing lines to this window). */
  closeAgentLog(sessionId: string): void;
  receiveAgentLog(payload: EventPayload<'agent:log'>): void;
  /** The host setting that records every ACP message in the agents' logs. */
  setProtocolLog(on: boolean): Promise<void>;
}

/** `entries` with `more` appended, keeping the newest `MAX_LOG_ENTRIES`. */
function appended(entries: readonly AgentLogEntryT[], more: readonly AgentLogEntryT[]): { entries: readonly AgentLogEntryT[]; evicted: number } {
  const all = [...entries, ...more];
  const evicted = Math.max(0, all.length - MAX_LOG_ENTRIES);
  return { entries: evicted ? all.slice(evicted) : all, evicted };
}

export function createAgentLogActions(set: SetState, get: GetState, deps: StoreDeps): AgentLogActions {
  const { api } = deps;
  const patch = (sessionId: string, change: (log: AgentLogView) => Partial<AgentLogView>): void => {
    const log = get().agentLog;
    if (log?.sessionId === sessionId) set({ agentLog: { ...log, ...change(log) } });
  };

  return {
    async openAgentLog(sessionId) {
      set({
        agentLog: { sessionId, loaded: false, agentName: '', logFile: undefined, live: false, entries: [], truncated: false, dropped: 0, error: undefined },
      });
      const res = await api['agents:log']({ sessionId });
      if (!res.ok) {
        patch(sessionId, () => ({ loaded: true, error: res.error }));
        return;
      }
      const { agentName, logFile, live, truncated } = res.value;
      // Lines pushed while the backlog was on its way came after it.
      patch(sessionId, (log) => {
        const { entries, evicted } = appended(res.value.entries, log.entries);
        return { loaded: true, agentName, logFile, live, truncated: truncated || evicted > 0, entries };
      });
    },

    closeAgentLog(sessionId) {
      if (get().agentLog?.sessionId !== sessionId) return;
      set({ agentLog: undefined });
      void api['agents:unfollow']({ sessionId });
    },

    receiveAgentLog({ sessionId, entries: more, dropped }) {
      patch(sessionId, (log) => {
        const { entries, evicted } = appended(log.entries, more);
        return { entries, dropped: log.dropped + dropped, truncated: log.truncated || evicted > 0 };
      });
    },

    async setProtocolLog(on) {
      const error = await get().saveSettings({ logProtocol: on });
      if (error) get().pushNotice(`Could not change the protocol log: ${error.message}`);
    },
  };
}
