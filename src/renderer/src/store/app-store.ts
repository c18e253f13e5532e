import { createStore, type StoreApi } from 'zustand/vanilla';
import type { StoreDeps } from './deps';
import { agentsInitialState, type AgentsState } from './slices/catalogue/initial-state';
import { createAgentsActions, type AgentsActions } from './slices/catalogue/actions';
import { composerInitialState, type ComposerState } from './slices/composer/initial-state';
import { createComposerActions, type ComposerActions } from './slices/composer/actions';
import { hostInitialState, type HostState } from './slices/host/initial-state';
import { createHostActions, type HostActions } from './slices/host/actions';
import { permissionsInitialState, type PermissionsState } from './slices/permissions/initial-state';
import { createPermissionsActions, type PermissionsActions } from './slices/permissions/actions';
import { questionsInitialState, type QuestionsState } from './slices/questions/initial-state';
import { createQuestionsActions, type QuestionsActions } from './slices/questions/actions';
import { sessionsInitialState, type SessionsState } from './slices/sessions/initial-state';
import { createSessionsActions, type SessionsActions } from './slices/sessions/actions';
import { lifecycleInitialState, type LifecycleState } from './slices/lifecycle/initial-state';
import { createLifecycleActions, type LifecycleActions } from './slices/lifecycle/actions';
import { transcriptInitialState, type TranscriptState } from './slices/transcript/initial-state';
import { createTranscriptActions, type TranscriptActions } from './slices/transcript/actions';
import { newSessionInitialState, type NewSessionState } from './slices/new-session/initial-state';
import { createNewSessionActions, type NewSessionActions } from './slices/new-session/actions';
import { agentLogInitialState, type AgentLogState } from './slices/agent-log/initial-state';
import { createAgentLogActions, type AgentLogActions } from './slices/agent-log/actions';
import { draftsInitialState, type DraftsState } from './slices/drafts/initial-state';
import { createDraftsActions, type DraftsActions } from './slices/drafts/actions';
import { terminalsInitialState, type TerminalsState } from './slices/terminals/initial-state';
import { createTerminalsActions, type TerminalsActions } from './slices/terminals/actions';
import { controlsInitialState, type ControlsState } from './slices/controls/initial-state';
import { createControlsActions, type ControlsActions } from './slices/controls/actions';
import { searchInitialState, type SearchState } from './slices/search/initial-state';
import { createSearchActions, type SearchActions } from './slices/search/actions';
import { confirmInitialState, type ConfirmState } from './slices/confirm/initial-state';
import { createConfirmActions, type ConfirmActions } from './slices/confirm/actions';
import { workspaceInitialState, type WorkspaceState } from './slices/workspace/initial-state';
import { createWorkspaceActions, type WorkspaceActions } from './slices/workspace/actions';
import { storageInitialState, type StorageState } from './slices/storage/initial-state';
import { createStorageActions, type StorageActions } from './slices/storage/actions';
import { mcpInitialState, type McpState } from './slices/mcp/initial-state';
import { createMcpActions, type McpActions } from './slices/mcp/actions';
import { registryInitialState, type RegistryState } from './slices/registry/initial-state';
import { createRegistryActions, type RegistryActions } from './slices/registry/actions';

export type AppState = SessionsState &
  TranscriptState &
  PermissionsState &
  QuestionsState &
  HostState &
  ComposerState &
  AgentsState &
  AgentLogState &
  LifecycleState &
  NewSessionState &
  DraftsState &
  TerminalsState &
  ControlsState &
  SearchState &
  ConfirmState &
  WorkspaceState &
  StorageState &
  McpState &
  RegistryState;
type AppActions = SessionsActions &
  TranscriptActions &
  PermissionsActions &
  QuestionsActions &
  HostActions &
  ComposerActions &
  AgentsActions &
  AgentLogActions &
  LifecycleActions &
  NewSessionActions &
  DraftsActions &
  TerminalsActions &
  ControlsActions &
  SearchActions &
  ConfirmActions &
  WorkspaceActions &
  StorageActions &
  McpActions &
  RegistryActions;
export type AppStore = AppState & AppActions;
export type AppStoreApi = StoreApi<AppStore>;
export type SetState = AppStoreApi['setState'];
export type GetState = AppStoreApi['getState'];

/** One store made of slices; each slice's actions get `set`, `get` and the injected deps. */
export function createAppStore(deps: StoreDeps): AppStoreApi {
  return createStore<AppStore>()((set, get) => ({
    ...sessionsInitialState,
    ...transcriptInitialState,
    ...permissionsInitialState,
    ...questionsInitialState,
    ...hostInitialState,
    ...composerInitialState,
    ...agentsInitialState,
    ...agentLogInitialState(deps.silenceAfterMs),
    ...lifecycleInitialState,
    ...newSessionInitialState,
    ...draftsInitialState,
    ...terminalsInitialState,
    ...controlsInitialState,
    ...searchInitialState,
    ...confirmInitialState,
    ...workspaceInitialState,
    ...storageInitialState,
    ...mcpInitialState,
    ...registryInitialState,
    ...createSessionsActions(set, get, deps),
    ...createTranscriptActions(set, get, deps),
    ...createPermissionsActions(set, get, deps),
    ...createQuestionsActions(set, get, deps),
    ...createHostActions(set, get, deps),
    ...createComposerActions(set, get, deps),
    ...createAgentsActions(set, get, deps),
    ...createAgentLogActions(set, get, deps),
    ...createLifecycleActions(set, get, deps),
    ...createNewSessionActions(set, get, deps),
    ...createDraftsActions(set, get, deps),
    ...createTerminalsActions(set, get, deps),
    ...createControlsActions(set, get, deps),
    ...createSearchActions(set, get, deps),
    ...createConfirmActions(set, get),
    ...createWorkspaceActions(set, get, deps),
    ...createStorageActions(set, get, deps),
    ...createMcpActions(set, get, deps),
    ...createRegistryActions(set, get, deps),
  }));
}
