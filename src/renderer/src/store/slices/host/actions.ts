import type { CommandRequest, HostProblemT, Result, SettingsT, StorageStatusT, WireError } from '../../../../../shared/contract';
import type { ConnectionStatus } from '../../../api/connection';
import type { GetState, SetState } from '../../app-store';
import type { StoreDeps } from '../../deps';

export interface HostActions {
  loadHostInfo(): Promise<void>;
  setConnection(status: ConnectionStatus): void;
  storageChanged(status: StorageStatusT): void;
  /** Returns the host's validation error, if any, for the form to show. */
  saveSettings(patch: CommandRequest<'settings:update'>): Promise<WireError | undefined>;
  loadRules(sessionId: string): Promise<WireError | undefined>;
  revokeRule(sessionId: string, ruleId: string): Promise<WireError | undefined>;
  /** Settings saved by any window (pushed). */
  settingsChanged(settings: SettingsT): void;
  /** The host hit an uncaught error and went on (pushed). */
  hostProblemReported(problem: HostProblemT): void;
  dismissHostProblems(): void;
  /** A crash log's text, for Copy details. */
  crashReport(report: string): Promise<Result<string>>;
  /**
   * The contract check refused an answer or an event (a host bug, or host and window of
   * different versions): said once while the same notice shows; the console has every one.
   */
  contractViolated(error: WireError): void;
}

export function createHostActions(set: SetState, get: GetState, deps: StoreDeps): HostActions {
  const { api } = deps;
  return {
    async loadHostInfo() {
      const res = await api['host:info']({});
      if (!res.ok) return;
      set({ hostInfo: res.value, settings: res.value.settings });
      get().newSessionDefaultsArrived();
      get().searchProgress(res.value.searchIndexing);
      // A reconnect after the host restarted brings a new list: shown unless already dismissed.
      const known = new Set(get().hostProblems.map((p) => p.report));
      for (const problem of res.value.problems ?? []) if (!known.has(problem.report)) get().hostProblemReported(problem);
    },

    setConnection(connection) {
      if (get().connection !== connection) set({ connection });
    },

    storageChanged(storage) {
      set({ storage });
    },

    async saveSettings(patch) {
      const res = await api['settings:update'](patch);
      if (!res.ok) return res.error;
      const info = get().hostInfo;
      set({ settings: res.value, hostInfo: info ? { ...info, settings: res.value } : info });
      return undefined;
    },

    settingsChanged(settings) {
      const info = get().hostInfo;
      set({ settings, hostInfo: info ? { ...info, settings } : info });
    },

    hostProblemReported(problem) {
      if (get().hostProblems.some((p) => p.report === problem.report && p.kind === problem.kind)) return;
      set({ hostProblems: [...get().hostProblems, problem] });
    },

    dismissHostProblems() {
      set({ hostProblemsSeen: get().hostProblems.length });
    },

    async crashReport(report) {
      const res = await api['crashes:read']({ report });
      return res.ok ? { ok: true, value: res.value.text } : res;
    },

    contractViolated(error) {
      const text = `Switchboard could not read what the host sent. ${error.message}`;
      if (!get().notices.some((n) => n.text === text)) get().pushNotice(text);
    },

    async loadRules(sessionId) {
      const res = await api['permissions:rules']({ sessionId });
      if (!res.ok) return res.error;
      set({ rules: res.value, rulesSessionId: sessionId });
      return undefined;
    },

    async revokeRule(sessionId, ruleId) {
      const res = await api['permissions:revoke']({ sessionId, ruleId });
      if (!res.ok) return res.error;
      if (get().rulesSessionId === sessionId) set({ rules: get().rules.filter((r) => r.id !== ruleId) });
      return undefined;
    },
  };
}
