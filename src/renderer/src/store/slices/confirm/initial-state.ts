/** A choice offered beside the question (keep the worktree, also delete the branch). */
export interface ConfirmOption {
  id: string;
  label: string;
  checked: boolean;
}

/**
 * One question the window asks before doing something that loses work (revert, discard,
 * restore, archive, delete). The action runs only on the confirm button; `options` are passed
 * to it as the person left them.
 */
export interface ConfirmRequest {
  /** The dialog's accessible name. */
  title: string;
  text: string;
  /** The confirm button's name. */
  confirmLabel: string;
  /** Destructive: the confirm button says so by its style. */
  danger: boolean;
  options: readonly ConfirmOption[];
  onConfirm: (options: Readonly<Record<string, boolean>>) => void;
}

export interface ConfirmState {
  /** The question waiting for an answer, if any: one at a time, a newer one replaces it. */
  confirm: ConfirmRequest | undefined;
}

export const confirmInitialState: ConfirmState = { confirm: undefined };
