import type * as acp from '@agentclientprotocol/sdk';
import type { McpSessionServerT, PermissionCancelReason, PromptCapabilities, TerminalOutputT } from '../../shared/contract';
import { AppError } from '../../shared/errors';
import type { AgentDefinition } from '../brokers/agent-definition';
import type { BrokerPool } from '../brokers/broker-pool';
import type { PermissionGate } from '../permissions/permission-gate';
import type { QuestionGate } from '../permissions/question-gate';
import type { EventLog } from '../store/event-log';
import type { SessionRow } from '../store/sessions.repo';
import type { Store } from '../store/store';
import type { Clock } from '../util/clock';
import type { Logger } from '../util/log';
import { Emitter } from '../util/event';
import type { TimerQueue } from '../util/timer-queue';
import { describeDuration, type Resumed } from '../util/suspend-watch';
import { promptCapabilitiesOf } from './prompt-content';
import { SessionControlsKeeper } from './controls-keeper';
import { SessionRegistry } from './session-registry';
import type { FileSearch } from '../workspace/file-search';
import type { WorkspaceService } from '../workspace/workspace-service';
import type { Watchers } from './watchers';

/** What a session's start gives its agent as `mcpServers`, and the summary for its details. */
export interface SessionMcpServers {
  /** For the ACP request only: holds secret values (never logged, stored or sent to a window). */
  mcpServers: acp.McpServer[];
  /** Every server turned on for the agent, given or skipped with the reason; no secret in it. */
  summary: McpSessionServerT[];
}

export interface SessionServiceOptions {
  store: Store;
  log: EventLog;
  pool: BrokerPool;
  gate: PermissionGate;
  /** Questions from the agent: kept, shown and closed like permission requests. */
  questions: QuestionGate;
  watchers: Watchers;
  clock: Clock;
  logger: Logger;
  agent(id: string): AgentDefinition | undefined;
  /**
   * Stores a variable a sign-in asked for, as a secret of that agent (the catalogue's secret
   * store: safeStorage or a 0600 file, never SQLite, logs or the transcript); `agent()` then
   * includes it in the agent's environment at its next start.
   */
  storeAgentSecret(agentId: string, name: string, value: string): void;
  /** What a new session gets when the request names no agent or folder (the settings). */
  defaults(): { agentId: string; cwd: string };
  /** `@` mentions: the files of a session's folder. */
  files: FileSearch;
  /** Where sessions work (worktrees, shared repository folders), told when turns start and end. */
  workspace: WorkspaceService;
  /** Opens a sign-in command in the person's terminal; absent where none can open (a headless host). */
  openTerminal?: (command: string, cwd: string, env: Record<string, string>) => void;
  requestTimeoutMs: number;
  closeTimeoutMs: number;
  /** The host's one timer (the Stop deadline rides on it). */
  timers: TimerQueue;
  /** How long after Stop a turn waits for the agent before it is ended without it. */
  stopGraceMs: number;
  /** Whether the host runs as root (agents that refuse root get a hint); default `process.getuid?.() === 0`. */
  runsAsRoot?: boolean;
  /**
   * The computer's last sleep, if it woke from it a short while ago (`SuspendWatch.recent`): an
   * agent whose exit is noticed then died asleep (or as it woke), and the transcript says so.
   */
  recentSleep?(): Resumed | undefined;
  /**
   * The MCP servers a session of `agentId` gets in `session/new`, `load` and `resume`, by what
   * the agent's `initialize` said it takes (the catalogue's; sessions never read it). Absent:
   * none.
   */
  mcpServers?(agentId: string, capabilities: acp.AgentCapabilities): SessionMcpServers;
}

/** How long after a wake an agent's exit is put down to the sleep. */
export const WAKE_WINDOW_MS = 60_000;

/** " while this computer slept (8 h 12 min)" for a recent sleep, else "". */
export function duringSleep(sleep: Resumed | undefined): string {
  return sleep ? ` while this computer slept (${describeDuration(sleep.sleptMs)}) or as it woke` : '';
}

/** An imported session has no agent session: nothing starts one for it, nothing is sent to it. */
export function assertWritable(row: SessionRow): void {
  if (row.read_only === 1) {
    throw new AppError('invalid_state', 'This session was imported from a file: it is a read-only copy with no agent session, so it takes no messages. Start a new session to go on.');
  }
}

/**
 * What the session service's parts (prompt queue, closer, routing) share: the host's parts,
 * the registry of live sessions and whether quit has begun.
 */
export class SessionContext {
  readonly registry = new SessionRegistry();
  /** New output of a terminal a session's agent runs (its live session hands it over). */
  readonly terminalOutput = new Emitter<TerminalOutputT>();
  /** Modes, models, options and usage of every session (stored on its row). */
  readonly controls: SessionControlsKeeper;
  /**
   * Forks made and not yet started: the parent's agent session and how much of it to copy. In
   * memory only: a fork not started before a restart starts as a new session seeded with its
   * copied transcript instead.
   */
  readonly forks = new Map<string, { acpSessionId: string; upToPrompt?: number }>();
  private stopping = false;

  constructor(readonly o: SessionServiceOptions) {
    this.controls = new SessionControlsKeeper(this);
  }

  /** Quit has begun: nothing new starts. */
  get isStopping(): boolean {
    return this.stopping;
  }

  stop(): void {
    this.stopping = true;
  }

  assertOpen(): void {
    if (this.stopping) throw new AppError('shutting_down', 'Switchboard is shutting down');
  }

  row(id: string): SessionRow {
    const row = this.o.store.sessions.get(id);
    if (!row) throw new AppError('not_found', `No session ${id}`);
    return row;
  }

  /**
   * What the session's running agent takes in a prompt; undefined while no agent session is
   * bound (a broker is bound only after `initialize`). ACP: an absent field means not supported.
   */
  promptCapabilities(sessionId: string): PromptCapabilities | undefined {
    const broker = this.registry.get(sessionId)?.broker;
    if (!broker?.isAlive) return undefined;
    return promptCapabilitiesOf(broker.capabilities);
  }

  /**
   * Everything the agent still waits on a person for in this session (permission requests and
   * questions) is answered `cancelled` (Stop, close, the agent's exit).
   */
  cancelRequests(sessionId: string, reason: PermissionCancelReason): void {
    this.o.gate.cancelSession(sessionId, reason);
    this.o.questions.cancelSession(sessionId, reason);
  }

  /** Windows came or went: what waits on a person gets (or loses) its deadline. */
  watchersChanged(sessionId: string): void {
    this.o.gate.watchersChanged(sessionId);
    this.o.questions.watchersChanged(sessionId);
  }

  /** A stop deadline of a session's running turn, on the host's one timer. */
  stopTimerKey(sessionId: string): string {
    return `stop:${sessionId}`;
  }
}
