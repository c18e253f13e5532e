import type { SettingsT } from '../../shared/contract';
import type { AgentDefinition } from '../brokers/agent-definition';
import type { PermissionGate } from '../permissions/permission-gate';
import type { SessionService } from '../sessions/session-service';
import type { EventLog } from '../store/event-log';
import type { AgentLogs } from './agent-logs';
import type { Store } from '../store/store';

/** What the command handlers reach of the host. */
export interface HostParts {
  headless: boolean;
  store: Store;
  eventLog: EventLog;
  service: SessionService;
  gate: PermissionGate;
  agents(): AgentDefinition[];
  settings(): SettingsT;
  updateSettings(patch: Partial<SettingsT>): SettingsT;
  agentLogs: AgentLogs;
}
