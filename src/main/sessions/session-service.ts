import type { SessionViewT, StateReason, SwitchResultT } from '../../shared/contract';
import type { SessionRow } from '../store/sessions.repo';
import type { LiveSession } from './live-session';
import { PromptQueue } from './prompt-queue';
import { recoverSessions } from './recovery';
import { SessionCloser, type CloseOptions } from './session-closer';
import { SessionContext, type SessionServiceOptions } from './session-context';
import type { SessionRegistry } from './session-registry';
import { SessionRouting } from './session-routing';

export type { CloseOptions } from './session-closer';
export type { SessionServiceOptions } from './session-context';

/**
 * Everything a session does, behind one face: creation and routing (`SessionRouting`), the
 * per-session prompt queue and its turn (`PromptQueue`), closing and crash handling
 * (`SessionCloser`). The stored state is the single source of truth for routing.
 */
export class SessionService {
  readonly registry: SessionRegistry;
  private readonly ctx: SessionContext;
  private readonly prompts: PromptQueue;
  private readonly closer: SessionCloser;
  private readonly routing: SessionRouting;

  constructor(o: SessionServiceOptions) {
    this.ctx = new SessionContext(o);
    this.registry = this.ctx.registry;
    this.closer = new SessionCloser(this.ctx, {
      endWaiting: (id, reason) => this.prompts.endWaiting(id, reason),
      waitingSessions: () => this.prompts.waitingSessions(),
    });
    this.routing = new SessionRouting(this.ctx, this.closer, {
      isRunning: (id) => this.prompts.isRunning(id),
      turnStartedAt: (id) => this.prompts.turnStartedAt(id),
    });
    this.prompts = new PromptQueue(this.ctx, { ensureLive: (id, retry): Promise<LiveSession> => this.routing.ensureLive(id, retry) });
  }

  /** At start-up: sessions whose agent session died with the previous host become ENDED. */
  recover(): number {
    return recoverSessions(this.ctx.o.store, this.ctx.o.log, this.ctx.o.clock.now());
  }

  view(row: SessionRow): SessionViewT {
    return this.routing.view(row);
  }

  row(id: string): SessionRow {
    return this.ctx.row(id);
  }

  create(id: string, agentId: string, cwd: string): SessionViewT {
    return this.routing.create(id, agentId, cwd);
  }

  send(sessionId: string, clientMessageId: string, text: string, retry = false): { duplicate: boolean } {
    return this.prompts.send(sessionId, clientMessageId, text, retry);
  }

  cancel(sessionId: string): void {
    this.prompts.cancel(sessionId);
  }

  isRunning(sessionId: string): boolean {
    return this.prompts.isRunning(sessionId);
  }

  isBusy(sessionId: string): boolean {
    return this.prompts.isBusy(sessionId);
  }

  isClosing(sessionId: string): boolean {
    return this.closer.isClosing(sessionId);
  }

  isOpen(sessionId: string): boolean {
    return this.routing.isOpen(sessionId);
  }

  watch(clientId: string, sessionId: string): void {
    this.routing.watch(clientId, sessionId);
  }

  unwatch(clientId: string, sessionId: string): void {
    this.routing.unwatch(clientId, sessionId);
  }

  /** Subscribes the window to `sessionId`, answers with its state, then unwatches `fromSessionId`. */
  switchTo(clientId: string, sessionId: string, fromSessionId?: string): SwitchResultT {
    return this.routing.switchTo(clientId, sessionId, fromSessionId);
  }

  close(sessionId: string, reason: StateReason, options: CloseOptions = {}): Promise<boolean> {
    return this.closer.close(sessionId, reason, options);
  }

  forceEnd(sessionId: string, reason: StateReason): Promise<void> {
    return this.closer.forceEnd(sessionId, reason);
  }

  closeAll(reason: StateReason): Promise<void> {
    return this.closer.closeAll(reason);
  }

  /** Records every session still stored as live as ENDED `reason` (quit cut short by its budget). */
  endAllStored(reason: StateReason): void {
    this.closer.endAllStored(reason);
  }
}
