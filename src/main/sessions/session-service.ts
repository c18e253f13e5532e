import * as acp from '@agentclientprotocol/sdk';
import { AppError } from '../../shared/errors';
import type { SessionViewT, StateReason, TurnEndReason } from '../../shared/contract';
import type { AgentDefinition } from '../brokers/agent-definition';
import type { Broker, BrokerExit } from '../brokers/broker';
import type { BrokerPool } from '../brokers/broker-pool';
import type { PermissionGate } from '../permissions/permission-gate';
import type { EventLog } from '../store/event-log';
import { displayTitle, stateReasonOf, type SessionRow } from '../store/sessions.repo';
import type { Store } from '../store/store';
import type { Clock } from '../util/clock';
import type { Logger } from '../util/log';
import { LiveSession, type Turn } from './live-session';
import type { TimerQueue } from '../util/timer-queue';
import { recoverSessions } from './recovery';
import { SessionRegistry } from './session-registry';
import { describeAgentError, startAgentSession } from './session-starter';
import { errorPayload, playTurn } from './prompt-turn';
import { LIVE_STATES, ROUTABLE, transition } from './state-machine';
import type { MappedEvent } from './update-mapper';
import { type Watchers } from './watchers';

export interface SessionServiceOptions {
  store: Store;
  log: EventLog;
  pool: BrokerPool;
  gate: PermissionGate;
  watchers: Watchers;
  clock: Clock;
  logger: Logger;
  agent(id: string): AgentDefinition | undefined;
  /** A session's view changed: tell every window. */
  changed(sessionId: string): void;
  requestTimeoutMs: number;
  closeTimeoutMs: number;
  /** The host's one timer (the Stop deadline rides on it). */
  timers: TimerQueue;
  /** How long after Stop a turn waits for the agent before it is ended without it. */
  stopGraceMs: number;
}

/** A prompt accepted but not yet handed to the agent (queued, or waiting for its session to start). */
interface WaitingPrompt {
  clientMessageId: string;
  cancelled: boolean;
}

export interface CloseOptions {
  /** Checked synchronously right before the close begins; false aborts it (the reaper's re-check). */
  precondition?: () => boolean;
  /** A stale session closed on the way to resuming it: the prompts waiting for it still run. */
  keepWaiting?: boolean;
}

/**
 * Routes everything a session does: create, start/resume, prompts, stop, close, windows
 * watching, agent crashes. The stored state is the single source of truth for routing.
 */
export class SessionService {
  readonly registry = new SessionRegistry();
  private readonly closing = new Map<string, Promise<boolean>>();
  /** Only sessions with prompts waiting have an entry: nothing per session at rest. */
  private readonly waiting = new Map<string, Set<WaitingPrompt>>();
  private stopping = false;

  constructor(private readonly o: SessionServiceOptions) {
    o.pool.onDidCrash((broker, sessionIds, exit) => this.onAgentCrash(broker, sessionIds, exit));
  }

  /** At start-up: sessions whose agent session died with the previous host become ENDED. */
  recover(): number {
    return recoverSessions(this.o.store, this.o.log, this.o.clock.now());
  }

  view(row: SessionRow): SessionViewT {
    return {
      id: row.id,
      agentId: row.agent_id,
      cwd: row.cwd,
      title: displayTitle(row),
      state: row.state,
      ...stateReasonOf(row),
      running: this.isRunning(row.id),
      pendingPermissions: this.o.gate.countFor(row.id),
      lastSeq: row.last_seq,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
      lastActivityAt: row.last_activity_at,
    };
  }

  row(id: string): SessionRow {
    const row = this.o.store.sessions.get(id);
    if (!row) throw new AppError('not_found', `No session ${id}`);
    return row;
  }

  create(id: string, agentId: string, cwd: string): SessionViewT {
    this.assertOpen();
    if (this.registry.has(id) || this.o.store.sessions.get(id)) {
      throw new AppError('already_exists', `A session with id ${id} already exists`);
    }
    const agent = this.o.agent(agentId);
    if (!agent) throw new AppError('not_found', `No agent named ${agentId}`);
    this.o.store.sessions.insert({ id, agent_id: agentId, cwd, state: 'CREATED' }, this.o.clock.now());
    // Start the agent session now, so its commands and title arrive before the first prompt;
    // unless it was closed before this ran (a close must not be undone by the warm-up).
    this.registry
      .enqueue(id, async () => {
        if (this.o.store.sessions.get(id)?.state === 'CREATED') await this.ensureLive(id);
      })
      .catch(() => {});
    return this.view(this.row(id));
  }

  /**
   * Accepts a prompt: stored at once, delivered when the session is live and earlier turns
   * are done. A retried send with the same client message id is accepted once.
   */
  send(sessionId: string, clientMessageId: string, text: string, retry = false): { duplicate: boolean } {
    this.assertOpen();
    const row = this.row(sessionId);
    if (!this.o.store.sessions.recordPrompt(sessionId, clientMessageId, this.o.clock.now())) return { duplicate: true };
    this.o.log.append(sessionId, 'user_message', { text, clientMessageId });
    if (this.o.store.sessions.setFirstPrompt(sessionId, text, this.o.clock.now()) && !row.title) this.o.changed(sessionId);
    const prompt: WaitingPrompt = { clientMessageId, cancelled: false };
    const waiting = this.waiting.get(sessionId) ?? new Set<WaitingPrompt>();
    waiting.add(prompt);
    this.waiting.set(sessionId, waiting);
    this.registry.enqueue(sessionId, () => this.runTurn(sessionId, prompt, text, retry)).catch((err) => {
      this.o.logger.error('turn failed unexpectedly', { session: sessionId, error: String(err) });
    });
    this.o.changed(sessionId);
    return { duplicate: false };
  }

  /**
   * Stops the running turn and every prompt still waiting (queued, or waiting for the session
   * to start or resume). Works in every state; never leaves a turn marked running.
   */
  cancel(sessionId: string): void {
    this.row(sessionId);
    // A prompt that has not reached the agent yet ends here, so Stop pressed while a session
    // starts does not let the prompt run once it is up.
    const ended = this.endWaiting(sessionId, 'cancelled_before_start');
    this.o.gate.cancelSession(sessionId, 'turn_cancelled');
    const live = this.registry.get(sessionId);
    if (live?.turn) {
      live.turn.cancelled = true;
      if (live.broker?.isAlive && live.acpSessionId) live.broker.cancel(live.acpSessionId);
      // An agent that ignores session/cancel must not leave the turn running forever.
      const abandon = live.turn.abandon;
      if (abandon) this.o.timers.at(`stop:${sessionId}`, this.o.clock.now() + this.o.stopGraceMs, abandon);
    }
    if (ended) this.o.changed(sessionId);
  }

  /** Ends every accepted prompt that has not reached the agent; returns how many. */
  private endWaiting(sessionId: string, reason: TurnEndReason): number {
    const waiting = this.waiting.get(sessionId);
    this.waiting.delete(sessionId);
    for (const prompt of waiting ?? []) {
      prompt.cancelled = true;
      this.o.log.append(sessionId, 'turn_ended', { stopReason: 'cancelled', clientMessageId: prompt.clientMessageId, reason });
    }
    return waiting?.size ?? 0;
  }

  /** A turn is in flight, or a prompt was accepted and waits for its turn: an answer is coming. */
  isRunning(sessionId: string): boolean {
    return (this.registry.get(sessionId)?.isRunning ?? false) || (this.waiting.get(sessionId)?.size ?? 0) > 0;
  }

  isBusy(sessionId: string): boolean {
    return (this.registry.get(sessionId)?.isRunning ?? false) || this.registry.queued(sessionId) > 0 || this.o.gate.countFor(sessionId) > 0;
  }

  isClosing(sessionId: string): boolean {
    return this.closing.has(sessionId);
  }

  /** A window starts watching: DETACHED becomes ACTIVE. */
  watch(clientId: string, sessionId: string): void {
    this.row(sessionId);
    if (!this.o.watchers.add(clientId, sessionId)) return;
    this.o.gate.watchersChanged(sessionId);
    this.setAttachment(sessionId);
  }

  /** A window stops watching; the last one out makes the session DETACHED. Twice is a no-op. */
  unwatch(clientId: string, sessionId: string): void {
    if (!this.o.watchers.remove(clientId, sessionId)) return;
    this.o.gate.watchersChanged(sessionId);
    this.setAttachment(sessionId);
  }

  /**
   * Ends a session's agent side. It leaves the registry first (nothing reaches it after),
   * its turn is cancelled (partial output kept), pending permissions answered `cancelled`,
   * the agent told `session/close` where supported, and its broker released. Concurrent or
   * repeated closes share one run. Resolves false if the precondition aborted it.
   */
  close(sessionId: string, reason: StateReason, options: CloseOptions = {}): Promise<boolean> {
    const inFlight = this.closing.get(sessionId);
    if (inFlight) return inFlight;
    if (options.precondition && !options.precondition()) return Promise.resolve(false);
    const row = this.o.store.sessions.get(sessionId);
    if (!row) return Promise.reject(new AppError('not_found', `No session ${sessionId}`));
    const live = this.registry.get(sessionId);
    if (live) {
      this.registry.remove(live);
      live.detach();
    }
    // A closed session stays closed: prompts still waiting end now instead of resuming it.
    if (!options.keepWaiting && this.endWaiting(sessionId, reason)) this.o.changed(sessionId);
    const now = this.o.clock.now();
    if (row.state === 'ENDED' && !live) return Promise.resolve(true);
    if (row.state !== 'CLOSING' && row.state !== 'ENDED') transition(this.o.store.sessions, sessionId, 'CLOSING', reason, now);
    this.o.changed(sessionId);
    const run = this.finishClose(sessionId, live, reason).finally(() => this.closing.delete(sessionId));
    this.closing.set(sessionId, run);
    return run;
  }

  /** Ends a session without asking its agent (a close that keeps failing). */
  async forceEnd(sessionId: string, reason: StateReason): Promise<void> {
    const live = this.registry.get(sessionId);
    if (live) {
      this.registry.remove(live);
      live.detach();
    }
    this.o.gate.cancelSession(sessionId, reason);
    await this.o.pool.release(sessionId).catch(() => {});
    this.endStored(sessionId, reason);
  }

  /** Host quit: every live session is closed with `host_shutdown`. */
  async closeAll(reason: StateReason): Promise<void> {
    this.stopping = true;
    const ids = new Set([...this.registry.all().map((s) => s.id), ...this.closing.keys(), ...this.waiting.keys()]);
    await Promise.all([...ids].map((id) => this.close(id, reason).catch(() => false)));
    for (const row of this.o.store.sessions.inStates(LIVE_STATES)) this.endStored(row.id, reason);
  }

  private async finishClose(sessionId: string, live: LiveSession | undefined, reason: StateReason): Promise<boolean> {
    try {
      const turn = live?.turn;
      if (live && turn) {
        turn.cancelled = true;
        turn.closed = true;
        if (live.broker?.isAlive && live.acpSessionId) live.broker.cancel(live.acpSessionId);
        this.o.log.append(sessionId, 'turn_ended', { stopReason: 'cancelled', clientMessageId: turn.clientMessageId, reason });
        live.turn = undefined;
        // Stop waiting for the agent's answer: on a shared agent process it may never come,
        // and the session's queue must not stay blocked behind it.
        this.o.timers.cancel(`stop:${sessionId}`);
        turn.abandon?.();
      }
      this.o.gate.cancelSession(sessionId, reason);
      const broker = live?.broker;
      if (broker?.isAlive && live?.acpSessionId && broker.capabilities.sessionCapabilities?.close) {
        await broker
          .request(acp.methods.agent.session.close, { sessionId: live.acpSessionId }, this.o.closeTimeoutMs)
          .catch((err: unknown) => this.o.logger.warn('session/close failed', { session: sessionId, error: String(err) }));
      }
    } finally {
      await this.o.pool.release(sessionId).catch((err: unknown) =>
        this.o.logger.warn('releasing the agent failed', { session: sessionId, error: String(err) }),
      );
      this.endStored(sessionId, reason);
      this.o.log.forget(sessionId);
    }
    return true;
  }

  private endStored(sessionId: string, reason: StateReason): void {
    const row = this.o.store.sessions.get(sessionId);
    if (!row || row.state === 'ENDED') return;
    const now = this.o.clock.now();
    if (row.state !== 'CLOSING' && row.state !== 'CREATED') transition(this.o.store.sessions, sessionId, 'CLOSING', reason, now);
    transition(this.o.store.sessions, sessionId, 'ENDED', reason, now);
    this.o.log.forget(sessionId);
    this.o.changed(sessionId);
  }

  /**
   * The live session to send to. Only a registry entry whose stored state is routable and
   * whose agent is alive is used; anything else is stopped (awaited) and the session resumed.
   */
  private async ensureLive(sessionId: string, retry = false): Promise<LiveSession> {
    const pendingClose = this.closing.get(sessionId);
    if (pendingClose) await pendingClose;
    this.assertOpen();
    const row = this.row(sessionId);
    const live = this.registry.get(sessionId);
    if (live && ROUTABLE.includes(row.state) && live.broker?.isAlive && live.acpSessionId) return live;
    if (live) await this.close(sessionId, 'stale', { keepWaiting: true });
    // Stored as live with nothing in memory behind it: it can only be resumed from ENDED.
    else if (row.state !== 'CREATED' && row.state !== 'ENDED') this.endStored(sessionId, 'stale');
    return this.start(this.row(sessionId), retry);
  }

  private async start(row: SessionRow, retry: boolean): Promise<LiveSession> {
    const agent = this.o.agent(row.agent_id);
    const live = new LiveSession(row.id, row.cwd, {
      record: (id, e) => this.record(id, e),
      permission: (id, req, signal) => this.o.gate.request(id, req, signal),
    });
    let added = false;
    try {
      // Inside the try: a missing agent or a refused transition must be shown like any other
      // failure to start, never swallowed (the prompt waiting on it needs its answer).
      if (!agent) throw new AppError('not_found', `No agent named ${row.agent_id}; add it to agents.json`);
      transition(this.o.store.sessions, row.id, 'STARTING', row.state === 'CREATED' ? 'new' : 'resume', this.o.clock.now());
      this.registry.add(live);
      added = true;
      this.o.changed(row.id);
      const started = await startAgentSession(live, row, agent, {
        pool: this.o.pool,
        events: this.o.log.events,
        log: this.o.logger,
        clock: this.o.clock,
        requestTimeoutMs: this.o.requestTimeoutMs,
        retry,
      });
      if (live.isDetached) throw new AppError('invalid_state', 'The session was closed while it started');
      this.o.store.sessions.setAcpSessionId(row.id, started.acpSessionId, this.o.clock.now());
      if (started.mode === 'recreated') {
        this.o.log.append(row.id, 'notice', { kind: 'session_recreated', text: `${agent.name} could not restore this session; started a new one with the conversation so far.` });
      }
      transition(this.o.store.sessions, row.id, this.o.watchers.count(row.id) > 0 ? 'ACTIVE' : 'DETACHED', started.mode, this.o.clock.now());
      this.o.changed(row.id);
      return live;
    } catch (err) {
      // A close (or the crash handler) that took the session out of the registry meanwhile
      // has ended it and said why; recording here too would put an event after the close.
      const takenOver = added && !this.registry.remove(live);
      live.detach();
      if (added) await this.o.pool.release(row.id).catch(() => {});
      const error = err instanceof AppError ? err : agent ? describeAgentError(agent, 'start', err) : new AppError('internal', String(err));
      if (!takenOver && !this.closing.has(row.id)) {
        this.o.log.append(row.id, 'error', errorPayload(error));
        this.endStored(row.id, error.code === 'crash_loop' ? 'crash_loop' : 'start_failed');
      }
      throw error;
    }
  }

  private async runTurn(sessionId: string, prompt: WaitingPrompt, text: string, retry: boolean): Promise<void> {
    const { clientMessageId } = prompt;
    let live: LiveSession | undefined;
    try {
      // A prompt stopped before its turn needs no agent session (and its end is recorded).
      if (!prompt.cancelled && !this.stopping) live = await this.ensureLive(sessionId, retry);
    } catch {
      // start() recorded why.
    }
    this.unqueue(sessionId, prompt);
    if (prompt.cancelled || this.stopping) return;
    if (!live) {
      this.o.log.append(sessionId, 'turn_ended', { stopReason: 'error', clientMessageId });
      this.o.changed(sessionId);
      return;
    }
    const turn: Turn = { clientMessageId, cancelled: false };
    live.turn = turn;
    this.o.log.append(sessionId, 'turn_started', { clientMessageId });
    this.o.changed(sessionId);
    try {
      await playTurn(live, turn, text, { log: this.o.log, stopGraceMs: this.o.stopGraceMs });
    } finally {
      this.o.timers.cancel(`stop:${sessionId}`);
      if (live.turn === turn) live.turn = undefined;
      this.o.store.sessions.touch(sessionId, this.o.clock.now());
      this.o.changed(sessionId);
    }
  }

  private unqueue(sessionId: string, prompt: WaitingPrompt): void {
    const waiting = this.waiting.get(sessionId);
    if (waiting?.delete(prompt) && waiting.size === 0) this.waiting.delete(sessionId);
  }

  private record(sessionId: string, e: MappedEvent): void {
    this.o.log.append(sessionId, e.kind, e.payload);
    if (e.kind === 'session_info' && typeof e.payload.title === 'string' && e.payload.title.trim()) {
      this.o.store.sessions.setTitle(sessionId, e.payload.title, this.o.clock.now());
      this.o.changed(sessionId);
    }
  }

  private onAgentCrash(broker: Broker, sessionIds: string[], exit: BrokerExit): void {
    for (const sessionId of sessionIds) {
      const live = this.registry.get(sessionId);
      if (!live || live.broker !== broker) continue;
      this.registry.remove(live);
      live.detach();
      this.o.gate.cancelSession(sessionId, 'agent_exited');
      if (!live.turn) {
        this.o.log.append(sessionId, 'notice', { kind: 'agent_exited', text: `${broker.agent.name} exited; the next prompt restarts it.`, stderrTail: exit.stderrTail });
      }
      this.endStored(sessionId, 'agent_exited');
    }
  }

  private setAttachment(sessionId: string): void {
    const row = this.o.store.sessions.get(sessionId);
    if (!row) return;
    const watched = this.o.watchers.count(sessionId) > 0;
    const now = this.o.clock.now();
    if (watched && row.state === 'DETACHED') transition(this.o.store.sessions, sessionId, 'ACTIVE', 'watched', now);
    else if (!watched && row.state === 'ACTIVE') transition(this.o.store.sessions, sessionId, 'DETACHED', 'unwatched', now);
    else return;
    this.o.changed(sessionId);
  }

  private assertOpen(): void {
    if (this.stopping) throw new AppError('shutting_down', 'Switchboard is shutting down');
  }
}
