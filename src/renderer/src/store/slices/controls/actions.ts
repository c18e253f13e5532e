import type { EventPayload, HeaderControl } from '../../../../../shared/contract';
import type { GetState, SetState } from '../../app-store';
import type { StoreDeps } from '../../deps';

export interface ControlsActions {
  /** Pushed (`session:controls`) or answered controls; an older rev than the one held is ignored. */
  receiveControls(payload: EventPayload<'session:controls'>): void;
  /**
   * Asks the host to set `value` on the session's agent. The control shows the value while
   * the request runs; a refusal is said (`controlError`) and the control goes back to what the
   * host holds.
   */
  configureSession(sessionId: string, control: HeaderControl, value: string | boolean): Promise<void>;
  dismissControlError(): void;
}

export function createControlsActions(set: SetState, get: GetState, deps: StoreDeps): ControlsActions {
  const { api } = deps;
  const withoutPending = (sessionId: string, key: string) => get().pendingControls.filter((p) => p.sessionId !== sessionId || p.key !== key);

  return {
    receiveControls({ sessionId, controls }) {
      const known = get().controlsById.get(sessionId);
      if (known && known.rev > controls.rev) return;
      const byId = new Map(get().controlsById);
      byId.set(sessionId, controls);
      set({ controlsById: byId });
    },

    async configureSession(sessionId, control, value) {
      if (get().pendingControls.some((p) => p.sessionId === sessionId && p.key === control.key)) return;
      set({ pendingControls: [...withoutPending(sessionId, control.key), { sessionId, key: control.key, value }], controlError: undefined });
      const res = await api['sessions:configure']({ sessionId, target: control.target, value });
      set({ pendingControls: withoutPending(sessionId, control.key) });
      if (res.ok) get().receiveControls({ sessionId, controls: res.value });
      else set({ controlError: { sessionId, label: control.label, message: res.error.message } });
    },

    dismissControlError() {
      set({ controlError: undefined });
    },
  };
}
