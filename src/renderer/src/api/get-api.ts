import type { Api } from '../../../shared/contract';
import { alwaysOpen, type ConnectionMonitor } from './connection';
import { apiOverTransport, WsTransport } from './ws-api';

export interface HostLink {
  api: Api;
  connection: ConnectionMonitor;
  /** True inside Electron (the preload exposed `window.api`): desktop notifications are ours. */
  desktop: boolean;
}

/** The page URL carries the per-run token the headless host printed (`?token=`). */
export function wsUrl(loc: Pick<Location, 'protocol' | 'host' | 'search'>): string {
  const token = new URLSearchParams(loc.search).get('token') ?? '';
  const scheme = loc.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${loc.host}/ws?token=${encodeURIComponent(token)}`;
}

export function connectToHost(): HostLink {
  if (window.api) return { api: window.api, connection: alwaysOpen, desktop: true };
  const transport = new WsTransport({ url: wsUrl(window.location) });
  window.__switchboardDebug = { dropSocket: () => transport.dropSocket() };
  return { api: apiOverTransport(transport), connection: transport, desktop: false };
}
