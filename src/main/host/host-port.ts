import type { CommandName, EventName, EventPayload, Result } from '../../shared/contract';
import type { Disposable } from '../util/lifecycle';

/**
 * A connected window (Electron BrowserWindow or browser tab over WebSocket), as the host
 * sees it. Transports create one per window and dispose it when the window goes away.
 */
export interface ClientSink {
  /** Short label for logs and for "who answered" in the transcript, e.g. `window 2`, `tab 3`. */
  readonly label: string;
  send<E extends EventName>(event: E, payload: EventPayload<E>): void;
}

export interface ClientHandle extends Disposable {
  readonly id: string;
  /** The window is gone: it stops watching every session. Idempotent. */
  dispose(): void;
}

/** What a transport needs from the host: nothing else crosses this line. */
export interface HostPort {
  connect(sink: ClientSink): ClientHandle;
  /** Validates `payload` against the contract, runs the command for `clientId`, never throws. */
  dispatch(clientId: string, command: CommandName | string, payload: unknown): Promise<Result<unknown>>;
}
