import type { PromptBlock, TurnEndReason } from '../../shared/contract';
import { isAppError, type AppError } from '../../shared/errors';
import type { Broker } from '../brokers/broker';
import type { LiveSession } from './live-session';
import { acceptBlocks, type AcceptedBlock } from './prompt-content';
import { playTurn } from './prompt-turn';
import { assertWritable, type SessionContext } from './session-context';
import { assertStartable } from './sign-in';
import { Emitter, type Event } from '../util/event';

/** A prompt accepted but not yet handed to the agent (queued, or waiting for its session to start). */
interface WaitingPrompt {
  clientMessageId: string;
  cancelled: boolean;
  /** When it left the queue to start its turn (its agent may still be starting). */
  startedAt?: number;
}

/** A prompt whose session could not start until the person signs in: it runs after the sign-in. */
interface ParkedPrompt {
  clientMessageId: string;
  text: string;
  blocks: readonly AcceptedBlock[];
}

export interface PromptQueueDeps {
  /** The live session to send to, started or resumed if need be (a failure is recorded). */
  ensureLive(sessionId: string, retry: boolean): Promise<LiveSession>;
  /** The agent refused a prompt until the person signs in (recorded on the session). */
  authRequired(sessionId: string, error: AppError, broker: Broker): void;
}

/**
 * Each session's prompts: accepted (stored at once), waiting on the session's work queue,
 * then played one turn at a time; Stop ends the waiting ones and the running turn.
 */
export class PromptQueue {
  private readonly didChangeRunning = new Emitter<string>();
  /** A session's running flag or turn start changed: a prompt queued, a turn began or ended. */
  readonly onDidChangeRunning: Event<string> = this.didChangeRunning.event;

  /** Only sessions with prompts waiting have an entry: nothing per session at rest. */
  private readonly waiting = new Map<string, Set<WaitingPrompt>>();
  private readonly parked = new Map<string, ParkedPrompt[]>();

  constructor(
    private readonly ctx: SessionContext,
    private readonly deps: PromptQueueDeps,
  ) {}

  /**
   * Accepts a prompt: stored at once, delivered when the session is live and earlier turns
   * are done. A retried send with the same client message id is accepted once.
   */
  send(sessionId: string, clientMessageId: string, text: string, retry = false, content: readonly PromptBlock[] = []): { duplicate: boolean } {
    const { o } = this.ctx;
    this.ctx.assertOpen();
    const row = this.ctx.row(sessionId);
    assertWritable(row);
    const agentName = o.agent(row.agent_id)?.name ?? row.agent_id;
    // Refused before anything is stored: no second agent process, no repeated error row.
    if (!retry) assertStartable(row, agentName);
    // The prompt's own rows in one transaction: one commit per prompt, not one per row (with
    // many sessions taking turns at once each commit is a cost of every turn).
    const accepted = o.store.db.transaction(() => {
      // A retried send of an accepted prompt is answered as such, whatever changed since.
      if (o.store.sessions.hasPrompt(sessionId, clientMessageId)) return undefined;
      // A mention outside the folder, or an image for an agent known to refuse images: nothing stored.
      const { blocks, records } = acceptBlocks(row.cwd, content, this.ctx.promptCapabilities(sessionId), agentName);
      if (!o.store.sessions.recordPrompt(sessionId, clientMessageId, o.clock.now())) return undefined;
      const title = text.trim() !== '' ? text : records.map((r) => r.name ?? r.type).join(', ');
      o.store.sessions.setFirstPrompt(sessionId, title, o.clock.now());
      return { blocks, records };
    })();
    if (!accepted) return { duplicate: true };
    const { blocks, records } = accepted;
    o.log.append(sessionId, 'user_message', { text, clientMessageId, ...(records.length > 0 ? { attachments: records } : {}) });
    this.enqueue(sessionId, clientMessageId, text, retry, blocks);
    return { duplicate: false };
  }

  /**
   * The session may start again (signed in, or Retry): the prompts that waited for it run, in
   * order; with none, the session starts so it is ready for the next one.
   */
  continueSession(sessionId: string): void {
    this.ctx.assertOpen();
    const parked = this.parked.get(sessionId) ?? [];
    this.parked.delete(sessionId);
    for (const p of parked) this.enqueue(sessionId, p.clientMessageId, p.text, true, p.blocks);
    if (parked.length === 0) {
      this.ctx.registry.enqueue(sessionId, () => this.deps.ensureLive(sessionId, true).then(() => {})).catch(() => {
        // start() recorded why.
      });
    }
  }

  private enqueue(sessionId: string, clientMessageId: string, text: string, retry: boolean, blocks: readonly AcceptedBlock[]): void {
    const prompt: WaitingPrompt = { clientMessageId, cancelled: false };
    const waiting = this.waiting.get(sessionId) ?? new Set<WaitingPrompt>();
    waiting.add(prompt);
    this.waiting.set(sessionId, waiting);
    this.didChangeRunning.fire(sessionId);
    this.ctx.registry.enqueue(sessionId, () => this.runTurn(sessionId, prompt, text, retry, blocks)).catch((err) => {
      this.ctx.o.logger.error('turn failed unexpectedly', { session: sessionId, error: String(err) });
    });
  }

  /**
   * Stops the running turn and every prompt still waiting (queued, or waiting for the session
   * to start or resume). Works in every state; never leaves a turn marked running.
   */
  cancel(sessionId: string): void {
    const { o } = this.ctx;
    this.ctx.row(sessionId);
    // A prompt that has not reached the agent yet ends here, so Stop pressed while a session
    // starts does not let the prompt run once it is up.
    this.endWaiting(sessionId, 'cancelled_before_start');
    this.ctx.cancelRequests(sessionId, 'turn_cancelled');
    const live = this.ctx.registry.get(sessionId);
    const turn = live?.turn;
    if (live && turn) {
      turn.cancel();
      if (live.broker?.isAlive && live.acpSessionId) live.broker.cancel(live.acpSessionId);
      // An agent that ignores session/cancel must not leave the turn running forever.
      o.timers.at(this.ctx.stopTimerKey(sessionId), o.clock.now() + o.stopGraceMs, () => turn.abandon());
    }
  }

  /** Ends every accepted prompt that has not reached the agent; returns how many. */
  endWaiting(sessionId: string, reason: TurnEndReason): number {
    const waiting = this.waiting.get(sessionId);
    this.waiting.delete(sessionId);
    const parked = this.parked.get(sessionId) ?? [];
    this.parked.delete(sessionId);
    for (const prompt of waiting ?? []) prompt.cancelled = true;
    for (const { clientMessageId } of [...(waiting ?? []), ...parked]) {
      this.ctx.o.log.append(sessionId, 'turn_ended', { stopReason: 'cancelled', clientMessageId, reason });
    }
    const ended = (waiting?.size ?? 0) + parked.length;
    if (ended > 0) this.didChangeRunning.fire(sessionId);
    return ended;
  }

  /** Prompts waiting for a sign-in (not running: nothing happens until the person acts). */
  parkedCount(sessionId: string): number {
    return this.parked.get(sessionId)?.length ?? 0;
  }

  /** Sessions with prompts accepted and not yet handed to the agent. */
  waitingSessions(): string[] {
    return [...this.waiting.keys()];
  }

  /** A turn is in flight, or a prompt was accepted and waits for its turn: an answer is coming. */
  isRunning(sessionId: string): boolean {
    return (this.ctx.registry.get(sessionId)?.isRunning ?? false) || (this.waiting.get(sessionId)?.size ?? 0) > 0;
  }

  /**
   * When the running turn began, or the prompt at the head of the queue (its agent still
   * starting) left the queue; undefined when nothing runs.
   */
  turnStartedAt(sessionId: string): number | undefined {
    const turn = this.ctx.registry.get(sessionId)?.turn;
    if (turn) return turn.startedAt;
    for (const prompt of this.waiting.get(sessionId) ?? []) if (prompt.startedAt !== undefined) return prompt.startedAt;
    return undefined;
  }

  /** Anything in flight the reaper must not cut: a turn, queued work or a pending permission. */
  isBusy(sessionId: string): boolean {
    const { registry, o } = this.ctx;
    return (registry.get(sessionId)?.isRunning ?? false) || registry.queued(sessionId) > 0 || o.gate.countFor(sessionId) > 0;
  }

  private async runTurn(sessionId: string, prompt: WaitingPrompt, text: string, retry: boolean, blocks: readonly AcceptedBlock[]): Promise<void> {
    const { o } = this.ctx;
    const { clientMessageId } = prompt;
    const startedAt = o.clock.now();
    prompt.startedAt = startedAt;
    let live: LiveSession | undefined;
    let failure: unknown;
    // The files before this turn are checkpointed from now, beside the agent's start: the earlier
    // it begins, the less the prompt waits. The agent's writes wait for it (ADR 0023).
    const hold = prompt.cancelled || this.ctx.isStopping ? undefined : o.workspace.turnStarting(sessionId, clientMessageId, () => live?.actedWhileHeld ?? false);
    try {
      // A prompt stopped before its turn needs no agent session (and its end is recorded).
      if (!prompt.cancelled && !this.ctx.isStopping) live = await this.deps.ensureLive(sessionId, retry);
      // A new worktree's setup command ends before the first prompt goes out.
      if (live && hold) await hold.ready;
    } catch (err) {
      // start() recorded why.
      failure = err;
    }
    this.unqueue(sessionId, prompt);
    if (prompt.cancelled || this.ctx.isStopping) return;
    if (!live && isAppError(failure) && failure.code === 'auth_required') {
      // Not ended: it runs once the person signs in (or is ended by a close).
      const parked = this.parked.get(sessionId) ?? [];
      parked.push({ clientMessageId, text, blocks });
      this.parked.set(sessionId, parked);
      return;
    }
    if (!live) {
      o.log.append(sessionId, 'turn_ended', { stopReason: 'error', clientMessageId });
      return;
    }
    const turn = live.startTurn(clientMessageId, startedAt);
    o.log.append(sessionId, 'turn_started', { clientMessageId });
    if (hold) live.holdWrites(hold.checkpointed);
    this.didChangeRunning.fire(sessionId);
    try {
      await playTurn(live, turn, { text, blocks }, {
        log: o.log,
        stopGraceMs: o.stopGraceMs,
        ...(o.recentSleep ? { recentSleep: o.recentSleep } : {}),
        onAuthRequired: (error, broker) => this.deps.authRequired(sessionId, error, broker),
        usage: this.ctx.controls,
      });
    } finally {
      o.timers.cancel(this.ctx.stopTimerKey(sessionId));
      live.endTurn(turn);
      o.workspace.turnEnded(sessionId);
      // Before the touch: even when the disk is full and it fails, windows learn the turn ended
      // (their view reads the touch as the log's pending activity until it is written).
      this.didChangeRunning.fire(sessionId);
      o.log.touch(sessionId, o.clock.now());
    }
  }

  private unqueue(sessionId: string, prompt: WaitingPrompt): void {
    const waiting = this.waiting.get(sessionId);
    if (!waiting?.delete(prompt)) return;
    if (waiting.size === 0) this.waiting.delete(sessionId);
    this.didChangeRunning.fire(sessionId);
  }
}
