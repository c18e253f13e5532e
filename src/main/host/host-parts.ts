import type { TerminalLauncher } from '../catalogue/terminal-launcher';
import type { FolderPicker } from '../workspace/folders';
import type { DebugInfoT, EventName, EventPayload, SearchProgressT, SettingsT } from '../../shared/contract';
import type { AgentDefinition } from '../brokers/agent-definition';
import type { BrokerPool } from '../brokers/broker-pool';
import type { PermissionGate } from '../permissions/permission-gate';
import type { SessionService } from '../sessions/session-service';
import type { EventLog } from '../store/event-log';
import type { AgentLogFollowers } from './agent-log-followers';
import type { Store } from '../store/store';
import type { Clock } from '../util/clock';
import type { AgentCatalogue } from '../catalogue/agent-catalogue';
import type { AgentDetector } from '../catalogue/agent-detection';
import type { FileSearch } from '../workspace/file-search';

/** What the command handlers reach of the host. */
export interface HostParts {
  headless: boolean;
  /** Opens a sign-in command in the person's terminal; absent where no window can open (serve). */
  terminal: TerminalLauncher | undefined;
  /** The system's folder chooser; absent in a headless host (`folders:pick` is `unsupported`). */
  folderPicker: FolderPicker | undefined;
  /** Opens a desktop window showing the session; absent in a headless host (a browser opens a tab). */
  openWindow: ((sessionId: string) => void) | undefined;
  store: Store;
  eventLog: EventLog;
  service: SessionService;
  gate: PermissionGate;
  agents(): AgentDefinition[];
  settings(): SettingsT;
  updateSettings(patch: Partial<SettingsT>): SettingsT;
  catalogue: AgentCatalogue;
  detector: AgentDetector;
  pool: BrokerPool;
  clock: Clock;
  agentTestTimeoutMs: number;
  /** An event to one window (a test's progress goes to the window that asked). */
  sendTo<E extends EventName>(clientId: string, event: E, payload: EventPayload<E>): void;
  agentLogFollowers: AgentLogFollowers;
  /** The process's figures for `host:info`; only when the host was started for debugging. */
  debugInfo?: () => DebugInfoT;
  /** `files:search` for `@` mentions. */
  files: FileSearch;
  /** Where indexing older transcripts for search stands; undefined once done. */
  searchProgress(): SearchProgressT | undefined;
}
