import type { GetState, SetState } from '../../app-store';
import type { ConfirmRequest } from './initial-state';

type Ask = Omit<ConfirmRequest, 'options' | 'danger'> & Partial<Pick<ConfirmRequest, 'options' | 'danger'>>;

export interface ConfirmActions {
  askConfirm(request: Ask): void;
  setConfirmOption(id: string, checked: boolean): void;
  /** The confirm button: runs the action with the options as left, and closes. */
  acceptConfirm(): void;
  cancelConfirm(): void;
}

export function createConfirmActions(set: SetState, get: GetState): ConfirmActions {
  return {
    askConfirm(request) {
      set({ confirm: { danger: true, options: [], ...request } });
    },
    setConfirmOption(id, checked) {
      const c = get().confirm;
      if (c) set({ confirm: { ...c, options: c.options.map((o) => (o.id === id ? { ...o, checked } : o)) } });
    },
    acceptConfirm() {
      const c = get().confirm;
      if (!c) return;
      set({ confirm: undefined });
      c.onConfirm(Object.fromEntries(c.options.map((o) => [o.id, o.checked])));
    },
    cancelConfirm() {
      set({ confirm: undefined });
    },
  };
}
