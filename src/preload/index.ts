/**
 * The preload builds `window.api` and nothing else (Bitwarden style): one function per
 * contract command, a typed event subscription, and no raw `ipcRenderer` in the page.
 *
 * It runs sandboxed, so it is bundled to CommonJS and may import only `electron` and the
 * zod-free channel table; everything from the contract is imported as types only.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { commandChannel, commandNameList, eventChannel, eventNameList } from '../shared/channels';
import type { Api, CommandName, CommandRequest, CommandResponse, EventName, EventPayload, Result } from '../shared/contract';

type CommandFunctions = {
  [C in CommandName]: (req: CommandRequest<C>) => Promise<Result<CommandResponse<C>>>;
};

function commandFunctions(): CommandFunctions {
  const fns: Record<string, (req: unknown) => Promise<unknown>> = {};
  for (const name of commandNameList) {
    const channel = commandChannel(name);
    fns[name] = (req) => ipcRenderer.invoke(channel, req);
  }
  return fns as CommandFunctions;
}

const knownEvents: ReadonlySet<string> = new Set(eventNameList);

// Not exported as a value: the bundle then needs no `exports` object in the sandbox.
const api = {
  ...commandFunctions(),

  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void {
    if (!knownEvents.has(event)) throw new Error(`unknown event: ${String(event)}`);
    const channel = eventChannel(event);
    // The page gets the payload only, never the IpcRendererEvent (it carries `sender`).
    const forward = (_event: IpcRendererEvent, payload: unknown): void => listener(payload as EventPayload<E>);
    ipcRenderer.on(channel, forward);
    return () => {
      ipcRenderer.removeListener(channel, forward);
    };
  },

  /** IPC never reconnects: a window reload reloads the page and its subscriptions with it. */
  onReconnect(_listener: () => void): () => void {
    return () => {};
  },
};

export type PreloadApi = typeof api;

// Type-level checks: the preload *is* the renderer contract, command for command.
type Assert<T extends true> = T;
type SameKeys<A, B> = [Exclude<A, B> | Exclude<B, A>] extends [never] ? true : false;
export type PreloadApiChecks = [
  Assert<PreloadApi extends Api ? true : false>,
  Assert<SameKeys<(typeof commandNameList)[number], CommandName>>,
  Assert<SameKeys<(typeof eventNameList)[number], EventName>>,
];

contextBridge.exposeInMainWorld('api', api);
