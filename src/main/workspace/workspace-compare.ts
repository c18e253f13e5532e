import type { CompareEntryT, CompareResultT, Cost } from '../../shared/contract';
import { AppError } from '../../shared/errors';
import { displayTitle } from '../store/sessions.repo';
import type { WorkspaceRow } from '../store/workspaces.repo';
import { listChanges, worktreeStatus } from './git';
import type { WorkspaceCore } from './workspace-core';

/** Files listed per sibling: enough to compare, bounded like Changes. */
const FILES_PER_SESSION = 500;
/** Turn events read per sibling (a group's sessions are young; this bounds an old one). */
const TURN_EVENTS = 20_000;

/**
 * `Compare`: every session of a group side by side — its changed files and lines against its
 * base, commits ahead, the time its turns took and what they cost — each read through its own
 * checkout's queue. A sibling whose files cannot be read says why instead of failing the rest.
 */
export async function compareGroup(core: WorkspaceCore, groupId: string): Promise<CompareResultT> {
  const rows = core.o.store.workspaces.ofGroup(groupId);
  if (rows.length === 0) throw new AppError('not_found', `No group ${groupId}.`);
  const sessions = await Promise.all(rows.map((row) => entryOf(core, row)));
  return { groupId, sessions };
}

async function entryOf(core: WorkspaceCore, row: WorkspaceRow): Promise<CompareEntryT> {
  const { o } = core;
  const session = o.store.sessions.get(row.session_id);
  const turns = turnFigures(core, row.session_id);
  const entry: CompareEntryT = {
    sessionId: row.session_id,
    agentId: session?.agent_id ?? '',
    title: session ? displayTitle(session) : '',
    ...(row.branch ? { branch: row.branch } : {}),
    truncated: false,
    filesChanged: 0,
    added: 0,
    removed: 0,
    ahead: 0,
    running: o.sessions.isRunning(row.session_id),
    ...turns,
  };
  if (row.kind !== 'worktree' || !row.worktree_path || !row.base_commit) return { ...entry, problem: 'It has no worktree of its own.' };
  if (row.removed_at !== null || row.missing_at !== null) return { ...entry, problem: row.removed_at !== null ? 'It is archived: its worktree folder was removed.' : 'Its worktree folder is gone.' };
  const dir = row.worktree_path;
  const base = row.base_commit;
  try {
    const [changes, status] = await core.queue.run(dir, () =>
      Promise.all([listChanges(core.git, { dir, base, maxFiles: FILES_PER_SESSION }), worktreeStatus(core.git, dir, { branch: row.base_branch ?? '', commit: base })]),
    );
    const files = changes.files.map((f) => ({
      path: f.path,
      ...(f.from !== undefined ? { from: f.from } : {}),
      status: f.status,
      untracked: f.untracked,
      binary: f.binary,
      ...(f.added !== undefined ? { added: f.added } : {}),
      ...(f.removed !== undefined ? { removed: f.removed } : {}),
    }));
    return {
      ...entry,
      files,
      truncated: changes.truncated,
      filesChanged: changes.total,
      added: files.reduce((n, f) => n + (f.added ?? 0), 0),
      removed: files.reduce((n, f) => n + (f.removed ?? 0), 0),
      ahead: status.ahead,
    };
  } catch (err) {
    return { ...entry, problem: err instanceof Error ? err.message : String(err) };
  }
}

/** The time its ended turns took (from each `turn_started` to its `turn_ended`) and their cost, per currency. */
function turnFigures(core: WorkspaceCore, sessionId: string): { turnMs: number; turns: number; cost: Cost[] } {
  const events = core.o.log.events.recentOfKinds(sessionId, ['turn_started', 'turn_ended'], TURN_EVENTS);
  const started = new Map<string, number>();
  let turnMs = 0;
  let turns = 0;
  const cost = new Map<string, number>();
  for (const e of events) {
    if (e.kind === 'turn_started' && e.payload.clientMessageId) started.set(e.payload.clientMessageId, e.at);
    if (e.kind !== 'turn_ended') continue;
    const from = e.payload.clientMessageId ? started.get(e.payload.clientMessageId) : undefined;
    if (from === undefined) continue;
    turns++;
    turnMs += Math.max(0, e.at - from);
    const c = e.payload.usage?.cost;
    if (c) cost.set(c.currency, (cost.get(c.currency) ?? 0) + c.amount);
  }
  return { turnMs, turns, cost: [...cost].map(([currency, amount]) => ({ amount, currency })) };
}
