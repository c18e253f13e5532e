import type { SessionControls } from '../../../../../shared/contract';

/** A change a window asked for and the host has not answered yet. */
interface PendingControl {
  sessionId: string;
  /** The header control's key (`mode`, `model`, `option:<id>`). */
  key: string;
  value: string | boolean;
}

/** A change the agent (or the host) refused: said beside the controls until dismissed. */
interface ControlError {
  sessionId: string;
  label: string;
  message: string;
}

export interface ControlsState {
  /** Modes, models, options and usage per session, as last stored by the host (highest rev wins). */
  controlsById: ReadonlyMap<string, SessionControls>;
  /** At most one change in flight per control; the control shows it until the answer. */
  pendingControls: readonly PendingControl[];
  controlError: ControlError | undefined;
}

export const controlsInitialState: ControlsState = {
  controlsById: new Map(),
  pendingControls: [],
  controlError: undefined,
};
