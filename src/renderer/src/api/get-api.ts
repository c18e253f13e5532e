import type { Api } from '../../../shared/contract';
import { alwaysOpen, type ConnectionMonitor } from './connection';
import { checkApi, type ContractMonitor } from './contract-check';
import { apiOverTransport, WsTransport } from './ws-api';

interface HostLink {
  /** The host, every answer and event checked against the contract where it arrives. */
  api: Api;
  /** What the check refused. */
  contract: ContractMonitor;
  connection: ConnectionMonitor;
  /** True inside Electron (the preload exposed `window.api`): desktop notifications are ours. */
  desktop: boolean;
}

const TOKEN_KEY = 'switchboard.token';

type TokenStorage = Pick<Storage, 'getItem' | 'setItem'>;

/**
 * The page URL carries the per-run token the headless host printed (`?token=`). It is taken
 * out of the address bar and of this history entry at once, so it is not left in the
 * browser's history, a bookmark or a shared screen; this tab keeps it in sessionStorage for a
 * reload (the host's HttpOnly cookie serves the same purpose where cookies are kept).
 */
export function takeToken(
  loc: Pick<Location, 'search' | 'pathname' | 'hash'>,
  history: Pick<History, 'replaceState' | 'state'>,
  storage: TokenStorage | undefined,
): string {
  const params = new URLSearchParams(loc.search);
  const fromUrl = params.get('token');
  if (fromUrl === null) return read(storage) ?? '';
  write(storage, fromUrl);
  params.delete('token');
  const query = params.toString();
  history.replaceState(history.state, '', `${loc.pathname}${query ? `?${query}` : ''}${loc.hash}`);
  return fromUrl;
}

// Storage can be unavailable (privacy settings): then a reload relies on the cookie.
function read(storage: TokenStorage | undefined): string | undefined {
  try {
    return storage?.getItem(TOKEN_KEY) ?? undefined;
  } catch {
    return undefined;
  }
}

function write(storage: TokenStorage | undefined, token: string): void {
  try {
    storage?.setItem(TOKEN_KEY, token);
  } catch {
    /* best effort */
  }
}

export function wsUrl(loc: Pick<Location, 'protocol' | 'host'>, token: string): string {
  const scheme = loc.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${loc.host}/ws?token=${encodeURIComponent(token)}`;
}

function sessionStore(): TokenStorage | undefined {
  try {
    return window.sessionStorage;
  } catch {
    return undefined;
  }
}

/** The preload's `window.api` in the desktop app, else a WebSocket to the headless host; checked either way. */
export function connectToHost(): HostLink {
  if (window.api) return { ...checkApi(window.api), connection: alwaysOpen, desktop: true };
  const token = takeToken(window.location, window.history, sessionStore());
  const transport = new WsTransport({ url: wsUrl(window.location, token) });
  window.__switchboardDebug = { dropSocket: () => transport.dropSocket() };
  return { ...checkApi(apiOverTransport(transport)), connection: transport, desktop: false };
}
