import * as acp from '@agentclientprotocol/sdk';
import { randomUUID } from 'node:crypto';
import type {
  CommandParams,
  CommandResponse,
  ControlTarget,
  ExportFormatT,
  PermissionRuleT,
  PromptBlock,
  SessionControls,
  SessionViewT,
  StateReason,
  SwitchResultT,
  TerminalOutputT,
  TerminalSnapshotT,
} from '../../shared/contract';
import { anyOf, Emitter, type Event } from '../util/event';
import { requireAdditionalDirs, requireFolder } from '../workspace/folders';
import { AppError } from '../../shared/errors';
import type { SessionRow } from '../store/sessions.repo';
import type { LiveSession } from './live-session';
import { PromptQueue } from './prompt-queue';
import { recoverSessions } from './recovery';
import { SessionCloser, type CloseOptions } from './session-closer';
import { assertWritable, SessionContext, type SessionServiceOptions } from './session-context';
import type { SessionRegistry } from './session-registry';
import { SessionOpener, type NewSessionExtra } from './session-opener';
import { exportSession, importSession, type ExportedFile } from './session-archive';
import { forkSession } from './session-fork';
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
  /**
   * Something a session's view shows changed: its row (every write announces itself), its
   * running turn or queued prompts, whether it is live, or its pending permission count.
   * Fired once per change, synchronously; listeners coalesce if they need to.
   */
  readonly onDidChangeSession: Event<string>;
  /** New output of a terminal a session's agent runs. */
  readonly onDidTerminalOutput: Event<TerminalOutputT>;
  /** A session's modes, models, options or usage changed. */
  readonly onDidChangeControls: Event<{ sessionId: string; controls: SessionControls }>;
  private readonly didCreate = new Emitter<{ sessionId: string; agentId: string; cwd: string }>();
  /** A person made a new session: their choices become the next one's defaults. */
  readonly onDidCreate: Event<{ sessionId: string; agentId: string; cwd: string }> = this.didCreate.event;
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
    const rowChanged: Event<string> = (listener) =>
      // The controls have their own event, for the windows watching the session only.
      o.store.sessions.onDidChange((change) => change.what !== 'controls' && listener(change.sessionId));
    this.onDidChangeSession = anyOf(rowChanged, this.prompts.onDidChangeRunning, this.registry.onDidChange, o.gate.onDidChangePending, o.questions.onDidChangePending);
    this.onDidTerminalOutput = this.ctx.terminalOutput.event;
    this.onDidChangeControls = this.ctx.controls.onDidChange;
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

  /** Every session's view, newest first. */
  list(): SessionViewT[] {
    return this.ctx.o.store.sessions.list().map((row) => this.view(row));
  }

  /**
   * A session a person asked for: its folders checked (missing, a file, unreadable: refused
   * before anything is stored), the agent and folder the settings name when the request does
   * not. Announced, so the next New session starts from these choices.
   */
  newSession(request: CommandParams<'sessions:create'>): SessionViewT {
    const defaults = this.ctx.o.defaults();
    const cwd = requireFolder(request.cwd ?? defaults.cwd);
    const additionalDirs = requireAdditionalDirs(request.additionalDirs ?? [], cwd);
    const agentId = request.agentId ?? defaults.agentId;
    const id = request.id ?? randomUUID();
    const view = this.create(id, agentId, cwd, {
      additionalDirs,
      ...(request.acpSessionId === undefined ? {} : { acpSessionId: request.acpSessionId }),
      ...(request.title === undefined ? {} : { title: request.title }),
    });
    this.didCreate.fire({ sessionId: id, agentId, cwd });
    return view;
  }

  /** The person closes the session (its agent released); its view as it is after. */
  async closeByPerson(sessionId: string): Promise<SessionViewT> {
    await this.closer.close(sessionId, 'closed_by_user');
    return this.view(this.ctx.row(sessionId));
  }

  /** Hidden from the list (shown under Archived); its agent is released. Restorable. */
  async archive(sessionId: string): Promise<SessionViewT> {
    this.ctx.row(sessionId);
    await this.closer.close(sessionId, 'closed_by_user');
    const now = this.ctx.o.clock.now();
    this.ctx.o.store.sessions.setArchived(sessionId, now, now);
    return this.view(this.ctx.row(sessionId));
  }

  restore(sessionId: string): SessionViewT {
    this.ctx.row(sessionId);
    this.ctx.o.store.sessions.setArchived(sessionId, null, this.ctx.o.clock.now());
    return this.view(this.ctx.row(sessionId));
  }

  /** A page of the stored transcript before `beforeSeq` (newest page first). */
  transcriptBefore(sessionId: string, beforeSeq: number | undefined, limit: number): CommandResponse<'transcript:page'> {
    this.ctx.row(sessionId);
    return this.ctx.o.log.events.pageBefore(sessionId, beforeSeq ?? Number.MAX_SAFE_INTEGER, limit);
  }

  /** The stored events after `afterSeq`: what a window that reconnects missed. */
  transcriptAfter(sessionId: string, afterSeq: number, limit: number): CommandResponse<'transcript:since'> {
    this.ctx.row(sessionId);
    return this.ctx.o.log.events.pageAfter(sessionId, afterSeq, limit);
  }

  /** The "always" answers remembered for the session. */
  permissionRules(sessionId: string): PermissionRuleT[] {
    this.ctx.row(sessionId);
    return this.ctx.o.store.permissions.rules(sessionId);
  }

  revokePermissionRule(sessionId: string, ruleId: string): void {
    if (!this.ctx.o.store.permissions.deleteRule(sessionId, ruleId)) throw new AppError('not_found', 'No such rule for this session');
  }

  /** The unsent text of the session's message box. */
  draft(sessionId: string): string {
    this.ctx.row(sessionId);
    return this.ctx.o.store.drafts.get(sessionId);
  }

  saveDraft(sessionId: string, text: string): void {
    this.ctx.row(sessionId);
    this.ctx.o.store.drafts.save(sessionId, text, this.ctx.o.clock.now());
  }

  /** Files of the session's folder matching `query` (`@` mentions). */
  searchFiles(sessionId: string, query: string, limit: number): Promise<{ paths: string[]; truncated: boolean }> {
    return this.ctx.o.files.search(this.ctx.row(sessionId).cwd, query, limit);
  }

  /** Runs a terminal sign-in method the session's agent offered, in the person's terminal. */
  signInInTerminal(sessionId: string, methodId: string): void {
    this.signIn.inTerminal(sessionId, methodId);
  }

  /**
   * The person names the session; the agent's later titles are still stored but no longer
   * shown. An empty name gives the title back to the agent.
   */
  rename(sessionId: string, title: string): SessionViewT {
    this.ctx.row(sessionId);
    const name = title.trim().replace(/\s+/g, ' ');
    this.ctx.o.store.sessions.setCustomTitle(sessionId, name === '' ? null : name, this.ctx.o.clock.now());
    return this.view(this.ctx.row(sessionId));
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

  /**
   * A new session with this one's agent, folders and transcript (up to `beforeSeq`, one of the
   * person's messages, when given), forked on the agent's side as it starts.
   */
  fork(sessionId: string, request: { id?: string; beforeSeq?: number }): SessionViewT {
    return forkSession(this.ctx, { create: (id, agentId, cwd, extra) => this.create(id, agentId, cwd, extra), view: (id) => this.view(this.ctx.row(id)) }, sessionId, request);
  }

  /** The transcript as Markdown or JSON, with a file name. */
  exportSession(sessionId: string, format: ExportFormatT): ExportedFile {
    return exportSession(this.ctx, sessionId, format);
  }

  /** A JSON export read back as a new archived, read-only session. */
  importSession(text: string, fileName?: string): SessionViewT {
    return importSession(this.ctx, text, fileName, (id) => this.view(this.ctx.row(id)));
  }

  /** Retry: starts a session whose agent failed to start, running the prompts that waited for it. */
  retry(sessionId: string): SessionViewT {
    assertWritable(this.ctx.row(sessionId));
    this.prompts.continueSession(sessionId);
    return this.view(this.ctx.row(sessionId));
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
