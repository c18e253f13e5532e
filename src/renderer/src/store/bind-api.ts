import type { Api } from '../../../shared/contract';
import type { ConnectionMonitor } from '../api/connection';
import type { AppStoreApi } from './app-store';

/** Feeds host events into the store. Returns the function that unsubscribes everything. */
export function bindApi(store: AppStoreApi, api: Api, connection: ConnectionMonitor): () => void {
  const s = store.getState;
  const offs = [
    api.on('session:event', (e) => s().receiveEvent(e)),
    api.on('session:updated', (v) => s().upsertSession(v)),
    api.on('permission:requested', (p) => s().permissionRequested(p)),
    api.on('permission:resolved', (r) => s().permissionResolved(r)),
    api.on('session:deleted', (d) => s().removeSession(d.sessionId)),
    api.on('session:resync', (r) => {
      if (r.sessionId === s().currentSessionId) void s().catchUp();
    }),
    api.onReconnect(() => void s().resubscribe()),
    connection.onStatus((status) => s().setConnection(status)),
  ];
  s().setConnection(connection.status);
  return () => {
    for (const off of offs) off();
  };
}
