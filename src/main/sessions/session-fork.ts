import { randomUUID } from 'node:crypto';
import type { SessionEventT, SessionViewT } from '../../shared/contract';
import { AppError } from '../../shared/errors';
import type { EventLog } from '../store/event-log';
import { additionalDirsOf, displayTitle } from '../store/sessions.repo';
import type { SessionContext } from './session-context';
import type { NewSessionExtra } from './session-opener';

export interface ForkDeps {
  create(id: string, agentId: string, cwd: string, extra: NewSessionExtra): SessionViewT;
  view(sessionId: string): SessionViewT;
}

/**
 * Copies stored events into another session, each with its own time: what a fork starts from
 * and what an import brings in. An event this version could not read is not copied as such
 * (its text cannot be trusted to mean anything): a notice says one was left out.
 */
export function copyEvents(log: EventLog, sessionId: string, events: Iterable<SessionEventT>): number {
  let n = 0;
  for (const e of events) {
    if (e.kind === 'unreadable') log.append(sessionId, 'notice', { text: `An event of the original (${e.payload.storedKind}) could not be read and was not copied.` });
    else log.copy(sessionId, e);
    n++;
  }
  return n;
}

/**
 * `Fork` and `Edit and resend`: a new session with the same agent and folders and the
 * transcript so far, or up to (not including) one of the person's messages. The agent forks its
 * own session (`session/fork`) when the new one starts: the whole session, or up to the prompt
 * (the demo agent's `_meta.upToPrompt`: how many prompts the agent had received before it).
 * Refused where the agent cannot fork, for an imported session (it has no agent session) and
 * for a session in its own worktree (the fork would have no worktree of its own).
 */
export function forkSession(ctx: SessionContext, deps: ForkDeps, sourceId: string, request: { id?: string; beforeSeq?: number }): SessionViewT {
  const { o } = ctx;
  ctx.assertOpen();
  const source = ctx.row(sourceId);
  const agentName = o.agent(source.agent_id)?.name ?? source.agent_id;
  if (source.read_only === 1) throw new AppError('unsupported', 'An imported session has no agent session to fork');
  if (source.can_fork !== 1 || source.acp_session_id === null) throw new AppError('unsupported', `${agentName} cannot fork sessions`);
  // A fork would share the worktree folder with no record of its own: no checkpoints, no Changes,
  // and archiving or deleting the parent would remove the folder from under it.
  if (o.workspace.view(sourceId).workspace?.kind === 'worktree') {
    throw new AppError('unsupported', 'A session in its own worktree cannot be forked yet: commit its changes and start a new session on its branch');
  }
  o.log.flush();
  const cut = request.beforeSeq;
  if (cut !== undefined) {
    const [message] = o.log.events.pageAfter(sourceId, cut - 1, 1).events;
    if (message?.seq !== cut || message.kind !== 'user_message') throw new AppError('invalid_request', 'A fork point must be one of your messages in this session');
  }
  const copied = [...o.log.events.all(sourceId, cut)];
  // The prompts the agent had received before the fork point: its own history is cut there.
  const upToPrompt = cut === undefined ? undefined : copied.filter((e) => e.kind === 'turn_started').length;
  const id = request.id ?? randomUUID();
  ctx.forks.set(id, { acpSessionId: source.acp_session_id, ...(upToPrompt === undefined ? {} : { upToPrompt }) });
  const title = displayTitle(source);
  try {
    // The copy lands before the new session's start can record anything (that start is queued).
    deps.create(id, source.agent_id, source.cwd, { additionalDirs: additionalDirsOf(source), title, forkedFrom: sourceId });
  } catch (err) {
    ctx.forks.delete(id);
    throw err;
  }
  copyEvents(o.log, id, copied);
  o.log.append(id, 'notice', {
    kind: 'forked',
    sessionId: sourceId,
    text: `Forked from “${title}”${cut === undefined ? '' : ' before a message'}: the conversation above is a copy; what follows is this fork's.`,
  });
  o.log.flush();
  return deps.view(id);
}
