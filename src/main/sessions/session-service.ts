import { createHash, randomUUID } from 'node:crypto';
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
import type { DeleteOptions } from '../workspace/workspace-service';
import { AppError } from '../../shared/errors';
import { MAX_SESSIONS_LISTED } from '../../shared/contract';
import type { ListCursor, SessionRow } from '../store/sessions.repo';
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
import { acpSdk } from '../util/acp-sdk';

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
    const workspaceChanged: Event<string> = (listener) => o.store.workspaces.onDidChange((change) => listener(change.sessionId));
    this.onDidChangeSession = anyOf(rowChanged, workspaceChanged, this.prompts.onDidChangeRunning, this.registry.onDidChange, o.gate.onDidChangePending, o.questions.onDidChangePending);
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

  /**
   * The newest created first: all of them (up to `MAX_SESSIONS_LISTED`), or the newest `limit`;
   * with `after`, the next ones after that listed session (a window reads a long list in pages).
   */
  list(limit = MAX_SESSIONS_LISTED, after?: ListCursor): SessionViewT[] {
    const workspaceOf = this.ctx.o.workspace.viewsOfAll();
    const rows = after ? this.ctx.o.store.sessions.listAfter(after, limit) : this.ctx.o.store.sessions.list(limit);
    return rows.map((row) => this.opener.view(row, workspaceOf(row.id)));
  }

  /**
   * A session a person asked for: its folders checked (missing, a file, unreadable: refused
   * before anything is stored), the agent and folder the settings name when the request does
   * not. Its workspace comes from `WorkspaceService.open`: a worktree of its own (`worktree`),
   * the repository folder shared, or the folder as it is. `alsoRunOn` starts more sessions on
   * the same task, one per agent, each in its own worktree, as a group. Announced, so the next
   * New session starts from these choices (the folder the person chose, not the worktree).
   */
  async newSession(request: CommandParams<'sessions:create'>): Promise<SessionViewT> {
    const { o } = this.ctx;
    this.ctx.assertOpen();
    const defaults = o.defaults();
    const folder = requireFolder(request.cwd ?? defaults.cwd);
    const additionalDirs = requireAdditionalDirs(request.additionalDirs ?? [], folder);
    const agentId = request.agentId ?? defaults.agentId;
    const also = request.alsoRunOn ?? [];
    if (also.length > 0 && request.acpSessionId !== undefined) throw new AppError('invalid_request', 'An existing session of an agent cannot also run on other agents.');
    for (const a of [agentId, ...also]) if (!o.agent(a)) throw new AppError('not_found', `No agent named ${a}`);
    const id = request.id ?? randomUUID();
    const members = [{ id, agentId }, ...also.map((a) => ({ id: randomUUID(), agentId: a }))];
    this.requireNew(id);
    const asked = { folder, ...(request.worktree ? { worktree: request.worktree } : {}), sessions: members };
    // Outside any git checkout the session is made in this very step, as it always was.
    const opened = o.workspace.openPlain(asked) ?? (await o.workspace.open(asked));
    const views: SessionViewT[] = [];
    try {
      // Checked again: quit may have begun, or the id been taken, while the worktrees were made.
      this.ctx.assertOpen();
      this.requireNew(id);
      for (const [i, m] of members.entries()) {
        const ws = opened.sessions[i]!;
        views.push(
          this.create(m.id, m.agentId, ws.cwd, {
            additionalDirs,
            ...(request.acpSessionId === undefined ? {} : { acpSessionId: request.acpSessionId }),
            ...(request.title === undefined ? {} : { title: request.title }),
            onInserted: ws.record,
          }),
        );
      }
    } catch (err) {
      await opened.abandon().catch((undoErr: unknown) => o.logger.error('taking back the worktrees of a session that was not created failed', { session: id, error: String(undoErr) }));
      throw err;
    }
    this.didCreate.fire({ sessionId: id, agentId, cwd: folder });
    return views[0]!;
  }

  /** The person closes the session (its agent released); its view as it is after. */
  async closeByPerson(sessionId: string): Promise<SessionViewT> {
    await this.closer.close(sessionId, 'closed_by_user');
    return this.view(this.ctx.row(sessionId));
  }

  /**
   * Hidden from the list (shown under Archived); its agent is released. A worktree's folder is
   * removed once the agent stopped (uncommitted files checkpointed, the branch kept) unless
   * `keepWorktree`. Restorable.
   */
  async archive(sessionId: string, keepWorktree = false): Promise<SessionViewT> {
    this.ctx.row(sessionId);
    await this.closer.close(sessionId, 'closed_by_user');
    await this.ctx.o.workspace.archive(sessionId, keepWorktree);
    const now = this.ctx.o.clock.now();
    this.ctx.o.store.sessions.setArchived(sessionId, now, now);
    return this.view(this.ctx.row(sessionId));
  }

  /** Back from the archive; a worktree removed at archive is made again first (refused, still archived, if it cannot be). */
  async restore(sessionId: string): Promise<SessionViewT> {
    this.ctx.row(sessionId);
    await this.ctx.o.workspace.unarchive(sessionId);
    this.ctx.o.store.sessions.setArchived(sessionId, null, this.ctx.o.clock.now());
    return this.view(this.ctx.row(sessionId));
  }

  /** Makes a worktree whose folder vanished again from its branch; the session's view after. */
  async recreateWorkspace(sessionId: string): Promise<SessionViewT> {
    this.ctx.row(sessionId);
    await this.ctx.o.workspace.recreate(sessionId);
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
   * session is closed, its worktree removed (uncommitted files checkpointed first; the branch
   * too when asked, refused before anything happens when it holds unconfirmed work), and its
   * transcript, prompts, permission records and workspace rows go in one transaction.
   */
  async delete(sessionId: string, options: DeleteOptions = {}): Promise<void> {
    const { o } = this.ctx;
    this.ctx.row(sessionId);
    await o.workspace.checkDelete(sessionId, options);
    const live = this.registry.get(sessionId);
    const broker = live?.broker;
    if (broker?.isAlive && live?.acpSessionId && broker.capabilities.sessionCapabilities?.delete) {
      await broker.request(acpSdk().methods.agent.session.delete, { sessionId: live.acpSessionId }, o.closeTimeoutMs).catch((err: unknown) => {
        o.logger.warn('session/delete failed; deleting our copy anyway', { session: sessionId, error: String(err) });
      });
    }
    await this.closer.close(sessionId, 'closed_by_user');
    await o.workspace.delete(sessionId, options);
    o.log.flush();
    o.log.forget(sessionId);
    for (const clientId of [...o.watchers.clientsOf(sessionId)]) o.watchers.remove(clientId, sessionId);
    o.store.sessions.remove(sessionId);
    o.workspace.forget(sessionId);
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

  /** The id is free: no stored session and no live one has it. */
  private requireNew(id: string): void {
    if (this.registry.has(id) || this.ctx.o.store.sessions.get(id)) throw new AppError('already_exists', `A session with id ${id} already exists`);
  }

  create(id: string, agentId: string, cwd: string, extra: NewSessionExtra = {}): SessionViewT {
    return this.opener.create(id, agentId, cwd, extra);
  }

  /**
   * Accepts a prompt for the session. The first prompt sent to any session of a group goes to
   * each of the others too (under a prompt id derived from this one, so a retried send is run once).
   */
  send(sessionId: string, clientMessageId: string, text: string, retry = false, content: readonly PromptBlock[] = []): { duplicate: boolean } {
    const sent = this.prompts.send(sessionId, clientMessageId, text, retry, content);
    if (!sent.duplicate) {
      for (const sibling of this.ctx.o.workspace.claimGroupFirstPrompt(sessionId)) this.sendToSibling(sibling, derivedPromptId(clientMessageId, sibling), text, content);
    }
    return sent;
  }

  private sendToSibling(sessionId: string, clientMessageId: string, text: string, content: readonly PromptBlock[]): void {
    try {
      this.prompts.send(sessionId, clientMessageId, text, false, content);
    } catch (err) {
      // An attachment may not suit the sibling's agent or folder (a mention in another worktree): the text still goes.
      this.ctx.o.logger.warn('the group\'s first prompt could not go to a sibling as sent; sending its text', { session: sessionId, error: String(err) });
      try {
        if (text.trim() !== '') this.prompts.send(sessionId, clientMessageId, text, false, []);
      } catch (again) {
        this.ctx.o.logger.warn('the group\'s first prompt could not go to a sibling', { session: sessionId, error: String(again) });
      }
    }
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

/** A sibling's id for the group's first prompt: the same for a retried send, a UUID like any other. */
export function derivedPromptId(clientMessageId: string, sessionId: string): string {
  const h = createHash('sha256').update(`${clientMessageId}:${sessionId}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${((parseInt(h.slice(16, 17), 16) & 0x3) | 0x8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
