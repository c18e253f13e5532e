import type { StateReason, TurnEndReason } from '../../shared/contract';
import { AppError } from '../../shared/errors';
import type { Broker, BrokerExit } from '../brokers/broker';
import type { SessionRow } from '../store/sessions.repo';
import type { LiveSession } from './live-session';
import { duringSleep, type SessionContext } from './session-context';
import { LIVE_STATES, transition } from './state-machine';
import { acpSdk } from '../util/acp-sdk';

export interface CloseOptions {
  /** Checked synchronously right before the close begins; false aborts it (the reaper's re-check). */
  precondition?: () => boolean;
  /** A stale session closed on the way to resuming it: the prompts waiting for it still run. */
  keepWaiting?: boolean;
}

export interface SessionCloserDeps {
  /** Ends the prompts accepted and not yet handed to the agent; returns how many. */
  endWaiting(sessionId: string, reason: TurnEndReason): number;
  /** Sessions with prompts waiting (quit closes them too). */
  waitingSessions(): string[];
}

/**
 * How sessions end: a close (user, reaper, stale, quit), a forced end, an agent crash. Each
 * takes the session out of the registry first, so nothing reaches it after.
 */
export class SessionCloser {
  private readonly closing = new Map<string, Promise<boolean>>();

  constructor(
    private readonly ctx: SessionContext,
    private readonly deps: SessionCloserDeps,
  ) {
    ctx.o.pool.onDidCrash(({ broker, sessionIds, exit }) => this.onAgentCrash(broker, sessionIds, exit));
  }

  isClosing(sessionId: string): boolean {
    return this.closing.has(sessionId);
  }

  /**
   * Ends a session's agent side. It leaves the registry first (nothing reaches it after),
   * its turn is cancelled (partial output kept), pending permissions answered `cancelled`,
   * the agent told `session/close` where supported, and its broker released. Concurrent or
   * repeated closes share one run. Resolves false if the precondition aborted it.
   */
  close(sessionId: string, reason: StateReason, options: CloseOptions = {}): Promise<boolean> {
    const { o } = this.ctx;
    const inFlight = this.closing.get(sessionId);
    if (inFlight) return inFlight;
    if (options.precondition && !options.precondition()) return Promise.resolve(false);
    const row = o.store.sessions.get(sessionId);
    if (!row) return Promise.reject(new AppError('not_found', `No session ${sessionId}`));
    const alreadyEnded = row.state === 'ENDED' && !this.ctx.registry.get(sessionId);
    // Written before anything else changes: if the store refuses it (a full disk), the close
    // fails with the session as it was, still live and routable, instead of half taken out.
    if (!alreadyEnded && row.state !== 'CLOSING' && row.state !== 'ENDED') transition(o.store.sessions, sessionId, 'CLOSING', reason, o.clock.now());
    const live = this.takeOut(sessionId);
    // A closed session stays closed: prompts still waiting end now instead of resuming it.
    if (!options.keepWaiting) this.deps.endWaiting(sessionId, reason);
    if (alreadyEnded) return Promise.resolve(true);
    const run = this.finishClose(sessionId, live, reason).finally(() => this.closing.delete(sessionId));
    this.closing.set(sessionId, run);
    return run;
  }

  /** Ends a session without asking its agent (a close that keeps failing). */
  async forceEnd(sessionId: string, reason: StateReason): Promise<void> {
    this.takeOut(sessionId);
    this.ctx.cancelRequests(sessionId, reason);
    await this.ctx.o.pool.release(sessionId).catch((err: unknown) => {
      // The session ends all the same; its agent is left to the pool's teardown and the watchdog.
      this.ctx.o.logger.warn('releasing the agent of a forced end failed', { session: sessionId, error: String(err) });
    });
    this.endStored(sessionId, reason);
  }

  /** Host quit: every live session is closed with `reason`; nothing new starts after. */
  async closeAll(reason: StateReason): Promise<void> {
    this.ctx.stop();
    const ids = new Set([...this.ctx.registry.all().map((s) => s.id), ...this.closing.keys(), ...this.deps.waitingSessions()]);
    await Promise.all(
      [...ids].map((id) =>
        this.close(id, reason).catch((err: unknown) => {
          // Quit goes on: the session is recorded ENDED below, whatever its close did.
          this.ctx.o.logger.warn('closing a session at quit failed', { session: id, error: String(err) });
          return false;
        }),
      ),
    );
    for (const row of this.ctx.o.store.sessions.inStates(LIVE_STATES)) this.endStored(row.id, reason);
  }

  /** Records a session as ENDED (through CLOSING where the state table asks for it). */
  endStored(sessionId: string, reason: StateReason): void {
    const { o } = this.ctx;
    const row = o.store.sessions.get(sessionId);
    if (!row || row.state === 'ENDED') return;
    this.markEnded(row, reason);
    o.log.forget(sessionId);
  }

  /**
   * Quit over its budget cuts closes short: the stored states still say why the sessions
   * ended (else the next start would call them `recovered`). One refused write skips only
   * its own session.
   */
  endAllStored(reason: StateReason): void {
    const { o } = this.ctx;
    for (const row of o.store.sessions.inStates(LIVE_STATES)) {
      try {
        this.markEnded(row, reason);
      } catch (err) {
        o.logger.warn('could not end a session at quit', { session: row.id, error: String(err) });
      }
    }
  }

  private markEnded(row: SessionRow, reason: StateReason): void {
    const { o } = this.ctx;
    const now = o.clock.now();
    if (row.state !== 'CLOSING' && row.state !== 'CREATED') transition(o.store.sessions, row.id, 'CLOSING', reason, now);
    transition(o.store.sessions, row.id, 'ENDED', reason, now);
  }

  private async finishClose(sessionId: string, live: LiveSession | undefined, reason: StateReason): Promise<boolean> {
    const { o } = this.ctx;
    try {
      const turn = live?.turn;
      if (live && turn) {
        // The close records the turn's end and stops waiting for the agent's answer: on a
        // shared agent process it may never come, and the session's queue must not stay
        // blocked behind it.
        turn.closeByHost();
        o.timers.cancel(this.ctx.stopTimerKey(sessionId));
        if (live.broker?.isAlive && live.acpSessionId) live.broker.cancel(live.acpSessionId);
        o.log.append(sessionId, 'turn_ended', { stopReason: 'cancelled', clientMessageId: turn.clientMessageId, reason });
        live.endTurn(turn);
      }
      this.ctx.cancelRequests(sessionId, reason);
      const broker = live?.broker;
      if (broker?.isAlive && live?.acpSessionId && broker.capabilities.sessionCapabilities?.close) {
        // Past the wait the close stays on the wire: the session's next start on this process
        // waits for its answer (`Broker.closeAnswered`).
        await broker
          .request(acpSdk().methods.agent.session.close, { sessionId: live.acpSessionId }, o.closeTimeoutMs)
          .catch((err: unknown) => o.logger.warn('session/close failed', { session: sessionId, error: String(err) }));
      }
    } finally {
      await o.pool.release(sessionId).catch((err: unknown) => o.logger.warn('releasing the agent failed', { session: sessionId, error: String(err) }));
      this.endStored(sessionId, reason);
      o.log.forget(sessionId);
    }
    return true;
  }

  private onAgentCrash(broker: Broker, sessionIds: string[], exit: BrokerExit): void {
    const { o } = this.ctx;
    for (const sessionId of sessionIds) {
      const live = this.ctx.registry.get(sessionId);
      if (!live || live.broker !== broker) continue;
      this.takeOut(sessionId);
      try {
        this.ctx.cancelRequests(sessionId, 'agent_exited');
        if (!live.turn) {
          const sleep = o.recentSleep?.();
          o.log.append(sessionId, 'notice', {
            kind: 'agent_exited',
            text: `${broker.agent.name} exited${duringSleep(sleep)}; the next prompt restarts it.`,
            stderrTail: exit.stderrTail,
          });
        }
        this.endStored(sessionId, 'agent_exited');
      } catch (err) {
        // The store refused (a full disk): the session is out of the registry all the same,
        // so its next prompt starts it again; the other sessions of this agent still get here.
        o.logger.error('recording an agent exit failed', { session: sessionId, error: String(err) });
      }
    }
  }

  /** Takes the live session out of the registry and detaches it: nothing reaches it after. */
  private takeOut(sessionId: string): LiveSession | undefined {
    const live = this.ctx.registry.get(sessionId);
    if (live) {
      this.ctx.registry.remove(live);
      live.detach();
    }
    return live;
  }
}
