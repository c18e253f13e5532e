import type { CommandResponse, EventName, EventPayload, HostInfoT } from '../../shared/contract';
import type { AgentCatalogue } from '../catalogue/agent-catalogue';
import type { AgentDetector } from '../catalogue/agent-detection';
import type { AgentProbes } from '../catalogue/agent-probes';
import type { McpSettings } from '../catalogue/mcp/mcp-settings';
import type { AcpRegistry } from '../catalogue/registry/acp-registry';
import type { LiveSettings } from '../datadir/live-settings';
import type { StorageCare } from '../datadir/storage-care';
import type { PermissionGate } from '../permissions/permission-gate';
import type { QuestionGate } from '../permissions/question-gate';
import type { SessionService } from '../sessions/session-service';
import type { FolderPicker } from '../workspace/folders';
import type { WorkspaceService } from '../workspace/workspace-service';
import type { AgentLogFollowers } from './agent-log-followers';

/** What the command handlers reach of the host: each handler is one call to one of these. */
export interface HostParts {
  /** `host:info` for the window `clientId`. */
  info(clientId: string): HostInfoT;
  service: SessionService;
  workspace: WorkspaceService;
  gate: PermissionGate;
  questions: QuestionGate;
  /** Opens a page in the system browser (the desktop app); absent headless (the window opens a tab). */
  openExternal: ((url: string) => void) | undefined;
  /** The save dialog, then the file written (the desktop app): the path, or undefined when cancelled. Absent headless (the window downloads). */
  saveFile: ((suggestedName: string, text: string) => Promise<string | undefined>) | undefined;
  settings: LiveSettings;
  catalogue: AgentCatalogue;
  probes: AgentProbes;
  /** Settings → MCP servers. */
  mcp: McpSettings;
  /** The ACP registry's index and the agents added from it. */
  registry: AcpRegistry;
  detector: AgentDetector;
  agentLogFollowers: AgentLogFollowers;
  /** The system's folder chooser; absent in a headless host (`folders:pick` is `unsupported`). */
  folderPicker: FolderPicker | undefined;
  /** Folders of recent new sessions, most recent first. */
  recentFolders(): string[];
  /** Opens a desktop window showing the session; `unsupported` in a headless host (a browser opens a tab). */
  openWindow(sessionId: string): void;
  /** `search:query`: hits grouped by session, with the indexing progress while older transcripts are indexed. */
  search(query: string, limit: number): CommandResponse<'search:query'>;
  /** Settings → Storage: report, backups, clean-up, compaction. */
  storage: StorageCare;
  /** `host:restart`: quits and starts again; `unsupported` where the host cannot (headless). */
  restart(): void;
  /** `crashes:read`: a crash log's text, by the name `host:problem` gave. */
  crashReport(name: string): CommandResponse<'crashes:read'>;
  /** An event to one window (a test's progress goes to the window that asked). */
  sendTo<E extends EventName>(clientId: string, event: E, payload: EventPayload<E>): void;
}
