import type * as acp from '@agentclientprotocol/sdk';
import type { TerminalOutputT } from '../../shared/contract';
import type { Broker, SessionSink } from '../brokers/broker';
import { Turn } from './turn';
import { defined, isStateUpdate, mapUpdate, type MappedEvent } from './update-mapper';
import type { McpSessionServerT } from '../../shared/mcp';

export interface LiveSessionHooks {
  /** Stores an event the agent sent (synchronously: order is everything here). */
  record(sessionId: string, event: MappedEvent): void;
  permission(sessionId: string, request: acp.RequestPermissionRequest, signal: AbortSignal): Promise<acp.RequestPermissionResponse>;
  /** A question from the agent (`elicitation/create`); without it questions are answered `cancel`. */
  question?(sessionId: string, request: acp.CreateElicitationRequest, signal: AbortSignal): Promise<acp.CreateElicitationResponse>;
  /** The agent's `elicitation/complete`; true when it closed a question of this session. */
  questionComplete?(sessionId: string, elicitationId: string): boolean;
  /** Live output of a terminal the agent runs: pushed to watching windows, not stored. */
  terminalOutput?(update: TerminalOutputT): void;
  /**
   * Takes an update that changes the session's modes, models, options or usage (they are
   * session state, kept during a replay too); false for any other update.
   */
  controls?(sessionId: string, update: acp.SessionUpdate): boolean;
}

/**
 * A session whose agent side is (being) started: the registry holds it before any ACP request
 * for it is sent, so nothing the agent says about it is lost. Once `detach`ed (closing,
 * stale, crashed) it drops everything that still arrives.
 */
export class LiveSession implements SessionSink {
  broker: Broker | undefined;
  acpSessionId: string | undefined;
  /** While the agent replays history on `session/load`, transcript updates are not stored again. */
  replaying = false;
  /**
   * While an agent session opened from the agent's list is loaded, its replay is the transcript:
   * the person's own messages in it are stored too (normally we store the prompts we send).
   */
  keepingReplay = false;
  /** Text prepended to the next prompt when the agent lost the session and started a new one. */
  seed: string | undefined;
  /** Absolute folders the session may use besides `cwd` (the person added them), for file confinement. */
  additionalDirs: readonly string[] = [];
  /** When the agent last sent an update or request for this session (host time); see `noteActivity`. */
  lastAgentActivityAt: number | undefined;
  /** The MCP servers this start gave the agent, and those skipped (the view's `mcpServers`). */
  mcpServers: readonly McpSessionServerT[] = [];
  private detached = false;
  /** Aborted on detach: requests made for this session that are still waiting are cancelled. */
  private readonly stopped = new AbortController();
  private running: Turn | undefined;
  /** While set, the agent's writes, new terminals and permission requests wait for it (the turn's checkpoint). */
  private writeHold: Promise<void> | undefined;
  private actedDuringHold = false;
  private readonly toolCalls = new Map<string, acp.ToolCallUpdate>();

  constructor(
    readonly id: string,
    readonly cwd: string,
    private readonly hooks: LiveSessionHooks,
  ) {}

  /**
   * The folders the agent may read, write and run commands in (judged by real path): the
   * session's folder and the ones the person added to it.
   */
  get roots(): readonly string[] {
    return [this.cwd, ...this.additionalDirs];
  }

  get isDetached(): boolean {
    return this.detached;
  }

  /** Aborts when the session is detached (closing, stale, crashed): nothing waits for its agent any more. */
  get signal(): AbortSignal {
    return this.stopped.signal;
  }

  /** The turn in flight, if any. */
  get turn(): Turn | undefined {
    return this.running;
  }

  get isRunning(): boolean {
    return this.running !== undefined;
  }

  /** A prompt reaches the agent: it is this session's turn in flight, begun at `startedAt`. */
  startTurn(clientMessageId: string, startedAt: number): Turn {
    this.running = new Turn(clientMessageId, startedAt);
    return this.running;
  }

  /**
   * The agent said something for this session. A plain assignment per update: windows read it
   * from the session view when they ask for one, nothing is pushed per chunk.
   */
  noteActivity(at: number): void {
    this.lastAgentActivityAt = at;
  }

  /**
   * Holds the agent's file writes, new terminals and permission requests until `until` settles:
   * the turn's checkpoint records the files before the agent changes any (ADR 0023).
   */
  holdWrites(until: Promise<void>): void {
    this.actedDuringHold = false;
    const hold: Promise<void> = until.then(
      () => {
        if (this.writeHold === hold) this.writeHold = undefined;
      },
      () => {
        if (this.writeHold === hold) this.writeHold = undefined;
      },
    );
    this.writeHold = hold;
  }

  /** Resolves when the agent may change files (see `holdWrites`). */
  beforeWrite(): Promise<void> {
    return this.writeHold ?? Promise.resolve();
  }

  /** The agent announced a tool call while its writes were held: a tool of its own may have run meanwhile. */
  get actedWhileHeld(): boolean {
    return this.actedDuringHold;
  }

  /** `turn` is over (or a close took it over); a later turn is left alone. */
  endTurn(turn: Turn): void {
    if (this.running === turn) this.running = undefined;
  }

  /** Routes the agent's updates for `acpSessionId` here (held updates are delivered now). */
  bind(broker: Broker, acpSessionId: string): void {
    if (this.detached) return;
    if (this.broker && this.acpSessionId && (this.broker !== broker || this.acpSessionId !== acpSessionId)) {
      this.broker.unbind(this.acpSessionId, this);
    }
    this.broker = broker;
    this.acpSessionId = acpSessionId;
    broker.bind(acpSessionId, this);
  }

  unbind(): void {
    if (this.broker && this.acpSessionId) this.broker.unbind(this.acpSessionId, this);
  }

  /** No event reaches this session any more. */
  detach(): void {
    this.detached = true;
    if (this.broker && this.acpSessionId) this.broker.closeSession(this.acpSessionId, this);
    this.stopped.abort();
  }

  onUpdate(notification: acp.SessionNotification): void {
    if (this.detached) return;
    const update = notification.update;
    if (update.sessionUpdate === 'tool_call' || update.sessionUpdate === 'tool_call_update') {
      this.rememberToolCall(update);
      if (this.writeHold && mayChangeFiles(this.toolCalls.get(update.toolCallId))) this.actedDuringHold = true;
    }
    if (this.hooks.controls?.(this.id, update)) return;
    if (this.replaying && !isStateUpdate(update)) return;
    if (this.keepingReplay && update.sessionUpdate === 'user_message_chunk') {
      if (update.content.type === 'text') this.hooks.record(this.id, { kind: 'user_message', payload: { text: update.content.text } });
      return;
    }
    const event = mapUpdate(update);
    if (event) this.hooks.record(this.id, event);
  }

  /** The host did something on the agent's behalf (a file written, a path refused, a terminal ended). */
  record(event: MappedEvent): void {
    if (this.detached) return;
    this.hooks.record(this.id, event);
  }

  terminalOutput(update: Omit<TerminalOutputT, 'sessionId'>): void {
    if (this.detached) return;
    this.hooks.terminalOutput?.({ sessionId: this.id, ...update });
  }

  async onPermission(request: acp.RequestPermissionRequest, signal: AbortSignal): Promise<acp.RequestPermissionResponse> {
    if (this.detached) return { outcome: { outcome: 'cancelled' } };
    // An agent asks before it edits: the person is asked once the files before the turn are safe.
    if (this.writeHold) {
      await this.writeHold;
      if (this.detached) return { outcome: { outcome: 'cancelled' } };
    }
    // Agents often send only the tool call id here; the dialog (and "always" rules, keyed by
    // kind) need the title, kind and locations the earlier tool_call carried.
    const known = this.toolCalls.get(request.toolCall.toolCallId);
    const toolCall = known ? { ...known, ...defined(request.toolCall) } : request.toolCall;
    return this.hooks.permission(this.id, { ...request, toolCall }, signal);
  }

  onQuestion(request: acp.CreateElicitationRequest, signal: AbortSignal): Promise<acp.CreateElicitationResponse> {
    if (this.detached || !this.hooks.question) return Promise.resolve({ action: 'cancel' });
    return this.hooks.question(this.id, request, signal);
  }

  onQuestionComplete(elicitationId: string): boolean {
    if (this.detached) return false;
    return this.hooks.questionComplete?.(this.id, elicitationId) ?? false;
  }

  private rememberToolCall(update: acp.ToolCallUpdate): void {
    const { sessionUpdate: _kind, ...fields } = update as acp.ToolCallUpdate & { sessionUpdate?: string };
    const merged = { ...this.toolCalls.get(update.toolCallId), ...defined(fields) } as acp.ToolCallUpdate;
    this.toolCalls.delete(update.toolCallId);
    this.toolCalls.set(update.toolCallId, merged);
    // Only recent calls can still ask for permission: keep the memory bounded.
    if (this.toolCalls.size > MAX_REMEMBERED_TOOL_CALLS) this.toolCalls.delete(this.toolCalls.keys().next().value as string);
  }
}

const MAX_REMEMBERED_TOOL_CALLS = 64;

/** Tool kinds that only look: a call of another kind (or none said) may change files. */
const LOOKING_KINDS: ReadonlySet<string> = new Set(['read', 'search', 'think', 'fetch']);

/**
 * Whether a tool call the agent announced may change files by itself (outside `fs/*` and
 * `terminal/*`, which Switchboard holds): any not of a looking kind that has not failed. Erring
 * on the side of saying so: the flag only warns that a checkpoint may hold the turn's first change.
 */
function mayChangeFiles(call: acp.ToolCallUpdate | undefined): boolean {
  if (!call) return false;
  if (call.kind && LOOKING_KINDS.has(call.kind)) return false;
  return call.status !== 'failed';
}
