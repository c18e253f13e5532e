import type * as acp from '@agentclientprotocol/sdk';
import type { AvailableCommand, McpSessionServerT, SessionControls, SessionEventT, SessionViewT, SwitchResultT } from '../../shared/contract';
import { AppError } from '../../shared/errors';
import { additionalDirsOf, authRequestOf, displayTitle, stateReasonOf, type SessionRow } from '../store/sessions.repo';
import { isAuthStatus, rootHint } from './auth-request';
import { isRoot, recordAuthRequired, startFailureReason } from './sign-in';
import { LiveSession } from './live-session';
import { errorPayload } from './prompt-turn';
import type { SessionCloser } from './session-closer';
import { assertWritable, type SessionContext, type SessionMcpServers } from './session-context';
import { canFork, describeAgentError, startAgentSession } from './session-starter';
import { ROUTABLE, transition } from './state-machine';
import type { MappedEvent } from './update-mapper';
import { defined } from '../util/defined';
import type { SessionWorkspaceView } from '../workspace/workspace-service';

export interface SessionOpenerDeps {
  /** A turn is in flight or a prompt waits for one (the view's `running`). */
  isRunning(sessionId: string): boolean;
  /** When the running turn (or the prompt waiting for its agent to start) began. */
  turnStartedAt(sessionId: string): number | undefined;
}

/** What a new session may carry besides its agent and folder (already checked by the caller). */
export interface NewSessionExtra {
  additionalDirs?: readonly string[];
  /** An agent's existing session (from its `session/list`) this one opens. */
  acpSessionId?: string;
  title?: string;
  /** Runs right after the row is stored, in the same step (the workspace's row goes in with it). */
  onInserted?: () => void;
  /** A fork: the session it copies. */
  forkedFrom?: string;
}

/** The view's progress fields, present only when known. */
function progressOf(turnStartedAt: number | undefined, lastAgentActivityAt: number | undefined) {
  return {
    ...(turnStartedAt === undefined ? {} : { turnStartedAt }),
    ...(lastAgentActivityAt === undefined ? {} : { lastAgentActivityAt }),
  };
}

function optionalControls(controls: SessionControls | undefined): { controls?: SessionControls } {
  return controls ? { controls } : {};
}

/**
 * Creating sessions and routing to them: which live session a prompt goes to (started or
 * resumed when need be), which windows watch it (ACTIVE / DETACHED), and its view.
 */
export class SessionOpener {
  /** The MCP servers notice last recorded per session in this run. */
  private readonly mcpNotices = new Map<string, string>();

  constructor(
    private readonly ctx: SessionContext,
    private readonly closer: SessionCloser,
    private readonly deps: SessionOpenerDeps,
  ) {}

  /** `workspace`: the session's workspace view when the caller read many at once. */
  view(row: SessionRow, workspace: SessionWorkspaceView = this.ctx.o.workspace.view(row.id)): SessionViewT {
    const { o } = this.ctx;
    // Activity still queued for the store counts: a view pushed in the same tick as a prompt or
    // a permission request already moves the session up.
    const lastActivityAt = Math.max(row.last_activity_at, o.log.pendingActivityAt(row.id) ?? 0);
    const unread = o.watchers.count(row.id) === 0 && lastActivityAt > (row.viewed_at ?? row.created_at);
    const promptCapabilities = this.ctx.promptCapabilities(row.id);
    return {
      id: row.id,
      agentId: row.agent_id,
      cwd: row.cwd,
      title: displayTitle(row),
      state: row.state,
      ...stateReasonOf(row),
      running: this.deps.isRunning(row.id),
      ...progressOf(this.deps.turnStartedAt(row.id), this.ctx.registry.get(row.id)?.lastAgentActivityAt),
      pendingPermissions: this.ctx.o.gate.countFor(row.id),
      pendingQuestions: this.ctx.o.questions.countFor(row.id),
      lastSeq: row.last_seq,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
      lastActivityAt,
      ...authRequestOf(row),
      ...(row.archived_at !== null ? { archivedAt: row.archived_at } : {}),
      ...(promptCapabilities != null ? { promptCapabilities } : {}),
      ...this.mcpServersOf(row.id),
      additionalDirs: additionalDirsOf(row),
      ...(unread ? { unread } : {}),
      ...(row.custom_title ? { renamed: true } : {}),
      ...workspace,
      // Only an agent session can be forked: an imported copy has none; nor (yet) a session in
      // its own worktree (session-fork.ts says why).
      ...(row.can_fork === 1 && row.acp_session_id !== null && row.read_only === 0 && workspace.workspace?.kind !== 'worktree' ? { canFork: true } : {}),
      ...(row.forked_from !== null ? { forkedFrom: row.forked_from } : {}),
      ...(row.read_only === 1 ? { readOnly: true } : {}),
    };
  }

  create(id: string, agentId: string, cwd: string, extra: NewSessionExtra = {}): SessionViewT {
    const { o, registry } = this.ctx;
    this.ctx.assertOpen();
    if (registry.has(id) || o.store.sessions.get(id)) {
      throw new AppError('already_exists', `A session with id ${id} already exists`);
    }
    const agent = o.agent(agentId);
    if (!agent) throw new AppError('not_found', `No agent named ${agentId}`);
    if (extra.acpSessionId !== undefined) {
      const bound = o.store.sessions.byAcpSessionId(agentId, extra.acpSessionId);
      if (bound) throw new AppError('already_exists', `That session of ${agent.name} is already open here (${displayTitle(bound)})`);
    }
    const { onInserted, ...fields } = extra;
    o.store.sessions.insert({ id, agent_id: agentId, cwd, state: 'CREATED', ...fields }, o.clock.now());
    onInserted?.();
    // Start the agent session now, so its commands and title arrive before the first prompt;
    // unless it was closed before this ran (a close must not be undone by the warm-up).
    registry
      .enqueue(id, async () => {
        if (o.store.sessions.get(id)?.state === 'CREATED') await this.ensureLive(id);
      })
      // A failed warm-up start is recorded by start() (an error row, the ENDED reason).
      .catch(() => {});
    return this.view(this.ctx.row(id));
  }

  /** A window starts watching: DETACHED becomes ACTIVE. */
  watch(clientId: string, sessionId: string): void {
    this.ctx.row(sessionId);
    this.ctx.o.store.sessions.markViewed(sessionId, this.ctx.o.clock.now());
    if (!this.ctx.o.watchers.add(clientId, sessionId)) return;
    this.ctx.watchersChanged(sessionId);
    this.setAttachment(sessionId);
  }

  /**
   * A window switches to `sessionId`. It is subscribed before the answer is read, so nothing
   * committed after the answer's `lastSeq` can be missed; then it stops watching the session
   * it came from.
   */
  switchTo(clientId: string, sessionId: string, fromSessionId?: string): SwitchResultT {
    const { o } = this.ctx;
    this.watch(clientId, sessionId);
    const result = {
      session: this.view(this.ctx.row(sessionId)),
      // A prompt waiting for its session to start or resume counts: its answer is coming.
      running: this.deps.isRunning(sessionId),
      lastSeq: o.log.committedSeq(sessionId),
      pendingPermissions: o.gate.pendingFor(sessionId),
      pendingQuestions: o.questions.pendingFor(sessionId),
      ...defined({ availableCommands: latestCommands(o.log.events.latestCommands(sessionId)) }),
      ...optionalControls(this.ctx.controls.get(sessionId)),
    };
    if (fromSessionId && fromSessionId !== sessionId) this.unwatch(clientId, fromSessionId);
    return result;
  }

  /** A window stops watching; the last one out makes the session DETACHED. Twice is a no-op. */
  unwatch(clientId: string, sessionId: string): void {
    if (!this.ctx.o.watchers.remove(clientId, sessionId)) return;
    // Everything up to now was on screen (a deleted session has no row: the update is a no-op).
    this.ctx.o.store.sessions.markViewed(sessionId, this.ctx.o.clock.now());
    this.ctx.watchersChanged(sessionId);
    this.setAttachment(sessionId);
  }

  /** Stored as routable and not closing: a person can still be asked about its requests. */
  isOpen(sessionId: string): boolean {
    const state = this.ctx.o.store.sessions.get(sessionId)?.state;
    return state !== undefined && ROUTABLE.includes(state) && !this.closer.isClosing(sessionId);
  }

  /**
   * The live session to send to. Only a registry entry whose stored state is routable and
   * whose agent is alive is used; anything else is stopped (awaited) and the session resumed.
   */
  async ensureLive(sessionId: string, retry = false): Promise<LiveSession> {
    this.ctx.assertOpen();
    const row = this.ctx.row(sessionId);
    assertWritable(row);
    const live = this.ctx.registry.get(sessionId);
    if (live && ROUTABLE.includes(row.state) && live.broker?.isAlive && live.acpSessionId) return live;
    if (live) await this.closer.close(sessionId, 'stale', { keepWaiting: true });
    // Stored as live with nothing in memory behind it: it can only be resumed from ENDED.
    else if (row.state !== 'CREATED' && row.state !== 'ENDED') this.closer.endStored(sessionId, 'stale');
    return this.start(this.ctx.row(sessionId), retry);
  }

  private async start(row: SessionRow, retry: boolean): Promise<LiveSession> {
    const { o, registry } = this.ctx;
    const agent = o.agent(row.agent_id);
    const live = new LiveSession(row.id, row.cwd, {
      record: (id, e) => {
        // One read of the clock for both: the session's activity and the event's time.
        const at = o.clock.now();
        live.noteActivity(at);
        this.record(id, e, at);
      },
      permission: (id, req, signal) => {
        live.noteActivity(o.clock.now());
        return o.gate.request(id, req, signal);
      },
      question: (id, req, signal) => {
        live.noteActivity(o.clock.now());
        return o.questions.ask(id, req, signal);
      },
      questionComplete: (id, elicitationId) => o.questions.complete(id, elicitationId),
      terminalOutput: (update) => this.ctx.terminalOutput.fire(update),
      controls: (id, update) => this.ctx.controls.onUpdate(id, update),
    });
    live.additionalDirs = additionalDirsOf(row);
    let added = false;
    try {
      // Inside the try: a missing agent or a refused transition must be shown like any other
      // failure to start, never swallowed (the prompt waiting on it needs its answer).
      if (!agent) throw new AppError('not_found', `No agent named ${row.agent_id}; add it in Settings → Agents (or agents.json)`);
      o.workspace.assertUsable(row.id);
      transition(o.store.sessions, row.id, 'STARTING', row.state === 'CREATED' ? 'new' : 'resume', o.clock.now());
      registry.add(live);
      added = true;
      const started = await startAgentSession(live, row, agent, {
        pool: o.pool,
        events: o.log.events,
        log: o.logger,
        clock: o.clock,
        requestTimeoutMs: o.requestTimeoutMs,
        retry,
        // Never started here, yet bound to an agent session: one opened from the agent's list.
        opening: row.state === 'CREATED' && row.acp_session_id !== null,
        ...(o.mcpServers ? { mcpServers: (caps) => this.mcpServersFor(row.agent_id, caps) } : {}),
        ...defined({ fork: row.state === 'CREATED' ? this.ctx.forks.get(row.id) : undefined }),
      });
      this.ctx.forks.delete(row.id);
      if (live.isDetached) throw new AppError('invalid_state', 'The session was closed while it started');
      o.store.sessions.setAcpSessionId(row.id, started.acpSessionId, o.clock.now());
      // Known once its agent ran: the view offers Fork and Edit and resend only then.
      o.store.sessions.setCanFork(row.id, canFork(started.broker.capabilities), o.clock.now());
      this.ctx.controls.started(row.id, started.answer);
      live.mcpServers = started.mcp;
      this.noteMcpServers(row.id, agent.name, started.mcp);
      // A sign-in asked for while starting is done once a session started.
      if (authRequestOf(this.ctx.row(row.id)).auth?.during === 'start') {
        o.store.sessions.setAuthRequest(row.id, null, o.clock.now());
      }
      if (started.mode === 'recreated') {
        o.log.append(row.id, 'notice', { kind: 'session_recreated', text: `${agent.name} could not restore this session; started a new one with the conversation so far.` });
      }
      transition(o.store.sessions, row.id, o.watchers.count(row.id) > 0 ? 'ACTIVE' : 'DETACHED', started.mode, o.clock.now());
      // Before the first prompt goes out (it waits for this start): the person's last choices.
      if (started.mode === 'new') await this.ctx.controls.applyDefaults(live, row.agent_id);
      return live;
    } catch (err) {
      // A close (or the crash handler) that took the session out of the registry meanwhile
      // has ended it and said why; recording here too would put an event after the close.
      const takenOver = added && !registry.remove(live);
      live.detach();
      // Read before the release: the methods it listed in `initialize` are part of a sign-in.
      const broker = o.pool.brokerOf(row.id);
      if (added) {
        await o.pool.release(row.id).catch((releaseErr: unknown) => {
          o.logger.warn('releasing the agent of a session that failed to start failed', { session: row.id, error: String(releaseErr) });
        });
      }
      const error = err instanceof AppError ? err : agent ? describeAgentError(agent, 'start', err) : new AppError('internal', String(err));
      if (!takenOver && !this.closer.isClosing(row.id)) {
        o.log.append(row.id, 'error', errorPayload(error));
        // An agent refusing to run as root is set up like a sign-in: the panel offers IS_SANDBOX.
        const signIn = agent && (error.code === 'auth_required' || rootHint(error.message, { root: isRoot(o), stderrTail: error.details?.stderrTail ?? broker?.stderrTail }));
        if (signIn) recordAuthRequired(this.ctx, row.id, agent, error, 'start', broker);
        this.closer.endStored(row.id, signIn ? 'auth_required' : startFailureReason(error));
      }
      throw error;
    }
  }

  /** The view's MCP servers: those the running agent was given or skipped, while it runs. */
  private mcpServersOf(sessionId: string): { mcpServers?: McpSessionServerT[] } {
    const live = this.ctx.registry.get(sessionId);
    return live?.broker?.isAlive && live.mcpServers.length > 0 ? { mcpServers: [...live.mcpServers] } : {};
  }

  /** Never fails a start: with the servers unreadable (a broken secret box) the agent gets none, and the log says why. */
  private mcpServersFor(agentId: string, caps: acp.AgentCapabilities): SessionMcpServers {
    try {
      return this.ctx.o.mcpServers?.(agentId, caps) ?? { mcpServers: [], summary: [] };
    } catch (err) {
      this.ctx.o.logger.error('the MCP servers for a session could not be read; it starts without them', { agent: agentId, error: String(err) });
      return { mcpServers: [], summary: [] };
    }
  }

  /**
   * Records what a start gave the agent, when any server is turned on for it and the list
   * differs from the one last recorded for the session in this run (a session that sleeps and
   * wakes with the same servers says so once).
   */
  private noteMcpServers(sessionId: string, agentName: string, summary: readonly McpSessionServerT[]): void {
    const text = describeMcpServers(agentName, summary);
    if (text === (this.mcpNotices.get(sessionId) ?? '')) return;
    this.mcpNotices.set(sessionId, text);
    if (text) this.ctx.o.log.append(sessionId, 'notice', { kind: 'mcp_servers', text });
  }

  private record(sessionId: string, e: MappedEvent, at: number): void {
    const { o } = this.ctx;
    o.log.append(sessionId, e.kind, e.payload, at);
    // The files may have changed: the header's status and an open Changes follow (debounced).
    if (e.kind === 'file_written' || ((e.kind === 'tool_call' || e.kind === 'tool_call_update') && (e.payload.status === 'completed' || e.payload.status === 'failed'))) {
      o.workspace.touched(sessionId);
    }
    if (e.kind === 'session_info' && typeof e.payload.title === 'string' && e.payload.title.trim()) {
      o.store.sessions.setTitle(sessionId, e.payload.title, o.clock.now());
    }
    if (e.kind === 'agent_message' && isAuthStatus(e.payload.text)) this.onAuthStatus(sessionId, e.payload.text);
  }

  /**
   * An agent that started the session but says, outside any turn, that it is not logged in
   * (its first prompt will fail): the sign-in it offers is shown now, not after that failure.
   */
  private onAuthStatus(sessionId: string, text: string): void {
    const { o, registry } = this.ctx;
    const live = registry.get(sessionId);
    const broker = live?.broker ?? o.pool.brokerOf(sessionId);
    if (live?.turn || !broker || o.store.sessions.get(sessionId)?.auth_request) return;
    recordAuthRequired(this.ctx, sessionId, broker.agent, new AppError('auth_required', text.trim()), 'prompt', broker);
  }

  private setAttachment(sessionId: string): void {
    const { o } = this.ctx;
    const row = o.store.sessions.get(sessionId);
    if (!row) return;
    const watched = o.watchers.count(sessionId) > 0;
    const now = o.clock.now();
    if (watched && row.state === 'DETACHED') transition(o.store.sessions, sessionId, 'ACTIVE', 'watched', now);
    else if (!watched && row.state === 'ACTIVE') transition(o.store.sessions, sessionId, 'DETACHED', 'unwatched', now);
  }
}

/** The commands of the newest stored `available_commands` (an unreadable row counts as none). */
function latestCommands(e: SessionEventT | undefined): AvailableCommand[] | undefined {
  return e?.kind === 'available_commands' ? e.payload.commands : undefined;
}

/** "MCP servers given to X: a (stdio), b (http). Skipped: c (sse): why." — empty when none is turned on. */
export function describeMcpServers(agentName: string, summary: readonly McpSessionServerT[]): string {
  if (summary.length === 0) return '';
  const given = summary.filter((s) => !s.skipped);
  const skipped = summary.filter((s) => s.skipped);
  const parts = [given.length ? `MCP servers given to ${agentName}: ${given.map((s) => `${s.name} (${s.type})`).join(', ')}.` : `No MCP server was given to ${agentName}.`];
  for (const s of skipped) parts.push(`Skipped ${s.name} (${s.type}): ${s.skipped ?? ''}`);
  return parts.join(' ');
}
