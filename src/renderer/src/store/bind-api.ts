import type { Api } from '../../../shared/contract';
import type { ConnectionMonitor } from '../api/connection';
import type { ContractMonitor } from '../api/contract-check';
import type { AppStoreApi } from './app-store';

/**
 * Feeds host events into the store, and what the contract check refused (`contract`, absent
 * where the api is not checked: tests of the store alone). Returns the function that
 * unsubscribes everything.
 */
export function bindApi(store: AppStoreApi, api: Api, connection: ConnectionMonitor, contract?: ContractMonitor): () => void {
  const s = store.getState;
  const offs = [
    api.on('session:event', (e) => s().receiveEvent(e)),
    api.on('session:updated', (v) => s().upsertSession(v)),
    api.on('permission:requested', (p) => s().permissionRequested(p)),
    api.on('permission:resolved', (r) => s().permissionResolved(r)),
    api.on('question:asked', (q) => s().questionAsked(q)),
    api.on('question:resolved', (r) => s().questionResolved(r)),
    api.on('session:deleted', (d) => s().removeSession(d.sessionId)),
    api.on('session:resync', (r) => {
      if (r.sessionId === s().currentSessionId) void s().catchUp();
    }),
    api.on('agents:changed', (list) => s().agentsChanged(list)),
    api.on('agents:progress', (p) => s().agentTestProgress(p)),
    api.on('agent:log', (p) => s().receiveAgentLog(p)),
    api.on('terminal:output', (u) => s().receiveTerminalOutput(u)),
    api.on('host:storage', (status) => s().storageChanged(status)),
    api.on('session:controls', (p) => s().receiveControls(p)),
    api.on('search:progress', (p) => s().searchProgress(p)),
    api.on('storage:backups', (list) => s().backupsChanged(list)),
    api.on('host:problem', (problem) => s().hostProblemReported(problem)),
    api.on('settings:changed', (settings) => s().settingsChanged(settings)),
    api.on('workspace:status', (st) => s().receiveWorkspaceStatus(st)),
    api.on('workspace:changed', (c) => s().workspaceChanged(c.sessionId)),
    api.on('setup:output', (p) => s().receiveSetupOutput(p)),
    api.on('mcp:changed', (list) => s().mcpChanged(list)),
    api.on('mcp:progress', (p) => s().mcpTestProgress(p)),
    api.on('registry:progress', (p) => s().registryProgress(p)),
    api.on('registry:changed', () => s().registryChanged()),
    api.onReconnect(() => void s().resubscribe()),
    // A new connection follows nothing: an open Agent log reloads and follows again.
    api.onReconnect(() => {
      const log = s().agentLog;
      if (log) void s().openAgentLog(log.sessionId);
    }),
    connection.onStatus((status) => s().setConnection(status)),
    contract?.onViolation((error) => s().contractViolated(error)) ?? (() => {}),
  ];
  s().setConnection(connection.status);
  return () => {
    for (const off of offs) off();
  };
}
