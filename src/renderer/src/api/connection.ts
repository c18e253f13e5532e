/**
 * The contract's `Api` only says "a reconnect happened". The UI also wants to know that the
 * link is down (to show a banner), so each transport comes with this small monitor.
 * It is renderer-internal: the host never sees it.
 */
export type ConnectionStatus = 'connecting' | 'open' | 'reconnecting';

export interface ConnectionMonitor {
  readonly status: ConnectionStatus;
  onStatus(listener: (status: ConnectionStatus) => void): () => void;
}

/** Electron IPC cannot drop: the window and its host live and die together. */
export const alwaysOpen: ConnectionMonitor = {
  status: 'open',
  onStatus: () => () => {},
};
