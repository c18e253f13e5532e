import * as acp from '@agentclientprotocol/sdk';
import type { ControlTarget, PromptBlock, SessionControls, SessionViewT, StateReason, SwitchResultT, TerminalSnapshotT } from '../../shared/contract';
import { AppError } from '../../shared/errors';
import type { SessionRow } from '../store/sessions.repo';
import type { LiveSession } from './live-session';
import { PromptQueue } from './prompt-queue';
import { recoverSessions } from './recovery';
import { SessionCloser, type CloseOptions } from './session-closer';
import { SessionContext, type SessionServiceOptions } from './session-context';
import type { SessionRegistry } from './session-registry';
import { SessionOpener, type NewSessionExtra } from './session-opener';
import { recordAuthRequired, SignIn } from './sign-in';
import { ROUTABLE } from './state-machine';

export type { CloseOptions } from './session-closer';
export type { SessionServiceOptions } from './session-context';

/**
 * Everything a session does, behind one face: creation and routing (`SessionOpener`), the
 * per-session prompt queue and its turn (`PromptQueue`), closing and crash handling
 * (`SessionCloser`). The stored state is the single source of truth for routing.
 */
export class SessionService {
  readonly registry: SessionRegistry;
  private readonly ctx: SessionContext;
  private readonly prompts: PromptQueue;
  private readonly closer: SessionCloser;
  private readonly opener: SessionOpener;
  private readonly signIn: SignIn;

  constructor(o: SessionServiceOptions) {
    this.ctx = new SessionContext(o);
    this.registry = this.ctx.registry;
    this.closer = new SessionCloser(this.ctx, {
      endWaiting: (id, reason) => this.prompts.endWaiting(id, reason),
      waitingSessions: () => this.prompts.waitingSessions(),
    });
    this.opener = new SessionOpener(this.ctx, this.closer, {
      isRunning: (id) => this.prompts.isRunning(id),
      turnStartedAt: (id) => this.prompts.turnStartedAt(id),
    });
    this.prompts = new PromptQueue(this.ctx, {
      ensureLive: (id, retry): Promise<LiveSession> => this.opener.ensureLive(id, retry),
      authRequired: (id, error, broker) => {
        recordAuthRequired(this.ctx, id, broker.agent, error, 'prompt', broker);
      },
    });
    this.signIn = new SignIn(this.ctx, { closer: this.closer, continueSession: (id) => this.prompts.continueSession(id) });
  }

  /** Signs in with one of the methods the session's agent asked for; the session then continues. */
  authenticate(sessionId: string, methodId: string, value?: string): Promise<{ message: string }> {
    return this.signIn.authenticate(sessionId, methodId, value);
  }

  /** A terminal the session's agent still holds, its output so far (a window opening mid-run). */
  terminalSnapshot(sessionId: string, terminalId: string): TerminalSnapshotT {
    this.ctx.row(sessionId);
    const live = this.registry.get(sessionId);
    const snapshot = live?.broker && live.acpSessionId ? live.broker.terminals.snapshot(live.acpSessionId, terminalId) : undefined;
    if (!snapshot) throw new AppError('not_found', 'That terminal is gone; its final output is in the transcript');
    return snapshot;
  }

  /** Hidden from the list (shown under Archived); its agent is released. Restorable. */
  async archive(sessionId: string): Promise<void> {
    this.ctx.row(sessionId);
    await this.closer.close(sessionId, 'closed_by_user');
    const now = this.ctx.o.clock.now();
    this.ctx.o.store.sessions.setArchived(sessionId, now, now);
    this.ctx.o.onDidChangeSession(sessionId);
  }

  restore(sessionId: string): void {
    this.ctx.row(sessionId);
    this.ctx.o.store.sessions.setArchived(sessionId, null, this.ctx.o.clock.now());
    this.ctx.o.onDidChangeSession(sessionId);
  }

  /**
   * The person names the session; the agent's later titles are still stored but no longer
   * shown. An empty name gives the title back to the agent.
   */
  rename(sessionId: string, title: string): void {
    this.ctx.row(sessionId);
    const name = title.trim().replace(/\s+/g, ' ');
    this.ctx.o.store.sessions.setCustomTitle(sessionId, name === '' ? null : name, this.ctx.o.clock.now());
    this.ctx.o.onDidChangeSession(sessionId);
  }

  /**
   * Removes the session whatever its state: the agent is asked to `session/delete` it where it
   * lists that capability and still runs it (an agent is not started just for this), the
   * session is closed, and its transcript, prompts and permission records go in one transaction.
   */
  async delete(sessionId: string): Promise<void> {
    const { o } = this.ctx;
    this.ctx.row(sessionId);
    const live = this.registry.get(sessionId);
    const broker = live?.broker;
    if (broker?.isAlive && live?.acpSessionId && broker.capabilities.sessionCapabilities?.delete) {
      await broker.request(acp.methods.agent.session.delete, { sessionId: live.acpSessionId }, o.closeTimeoutMs).catch((err: unknown) => {
        o.logger.warn('session/delete failed; deleting our copy anyway', { session: sessionId, error: String(err) });
      });
    }
    await this.closer.close(sessionId, 'closed_by_user');
    o.log.flush();
    o.log.forget(sessionId);
    for (const clientId of [...o.watchers.clientsOf(sessionId)]) o.watchers.remove(clientId, sessionId);
    o.store.sessions.remove(sessionId);
    o.onDidChangeSession(sessionId);
  }

  /**
   * Sets a mode, model or config option on the session's agent, starting (resuming) the agent
   * session first if it sleeps; the person's choice becomes the agent's default for new sessions.
   */
  async configure(sessionId: string, target: ControlTarget, value: string | boolean): Promise<SessionControls> {
    this.ctx.assertOpen();
    const row = this.ctx.row(sessionId);
    let live = this.registry.get(sessionId);
    // Not on the work queue when live: a mode may change while a turn runs (ACP allows it).
    if (!(live && ROUTABLE.includes(row.state) && live.broker?.isAlive && live.acpSessionId)) {
      live = await this.registry.enqueue(sessionId, () => this.opener.ensureLive(sessionId));
    }
    return this.ctx.controls.set(live, target, value);
  }

  /** Retry: starts a session whose agent failed to start, running the prompts that waited for it. */
  retry(sessionId: string): void {
    this.ctx.row(sessionId);
    this.prompts.continueSession(sessionId);
  }

  /** At start-up: sessions whose agent session died with the previous host become ENDED. */
  recover(): number {
    return recoverSessions(this.ctx.o.store, this.ctx.o.log, this.ctx.o.clock.now());
  }

  view(row: SessionRow): SessionViewT {
    return this.opener.view(row);
  }

  row(id: string): SessionRow {
    return this.ctx.row(id);
  }

  create(id: string, agentId: string, cwd: string, extra: NewSessionExtra = {}): SessionViewT {
    return this.opener.create(id, agentId, cwd, extra);
  }

  send(sessionId: string, clientMessageId: string, text: string, retry = false, content: readonly PromptBlock[] = []): { duplicate: boolean } {
    return this.prompts.send(sessionId, clientMessageId, text, retry, content);
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
    return this.opener.isOpen(sessionId);
  }

  watch(clientId: string, sessionId: string): void {
    this.opener.watch(clientId, sessionId);
  }

  unwatch(clientId: string, sessionId: string): void {
    this.opener.unwatch(clientId, sessionId);
  }

  /** Subscribes the window to `sessionId`, answers with its state, then unwatches `fromSessionId`. */
  switchTo(clientId: string, sessionId: string, fromSessionId?: string): SwitchResultT {
    return this.opener.switchTo(clientId, sessionId, fromSessionId);
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
