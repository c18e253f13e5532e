import type { SessionViewT } from '../../../shared/contract';

/**
 * The sidebar as data: which sessions show, in which order and under which heading. Pure, so
 * the order, the grouping, the filter and the "do not move under the pointer" rule are tested
 * without a DOM, and cheap enough to recompute over thousands of sessions on every keystroke.
 */

/** Most recent activity first; ties by creation (newest first), then id, so the order is total. */
export function activityOrder(views: Iterable<SessionViewT>): string[] {
  return [...views].sort(byActivity).map((v) => v.id);
}

const byActivity = (a: SessionViewT, b: SessionViewT): number =>
  b.lastActivityAt - a.lastActivityAt || b.createdAt - a.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * `order` (the activity order of `byId` before `view` changed) with `view` where `activityOrder`
 * would put it: one entry moved, not every session sorted again. A view pushed mid-turn moves a
 * session to the top; over 10,000 sessions the full sort took milliseconds of every push.
 * `byId` already holds `view`. Returns `order` itself when the entry stays where it is.
 */
export function placeInOrder(order: readonly string[], byId: ReadonlyMap<string, SessionViewT>, view: SessionViewT): readonly string[] {
  const from = order.indexOf(view.id);
  const rest = from < 0 ? order : [...order.slice(0, from), ...order.slice(from + 1)];
  let lo = 0;
  let hi = rest.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const other = byId.get(rest[mid]!);
    if (other && byActivity(other, view) < 0) lo = mid + 1;
    else hi = mid;
  }
  if (lo === from) return order;
  return [...rest.slice(0, lo), view.id, ...rest.slice(lo)];
}

/**
 * The order to show while the list must not move (the pointer or the focus is in it): the
 * entries already shown keep their places, gone ones leave, new ones go on top (in `next`'s
 * order). Returns `shown` itself when nothing was added or removed, so React sees no change.
 */
export function holdOrder(shown: readonly string[], next: readonly string[]): readonly string[] {
  const present = new Set(next);
  const had = new Set(shown);
  const added = next.filter((id) => !had.has(id));
  const kept = shown.filter((id) => present.has(id));
  if (added.length === 0 && kept.length === shown.length) return shown;
  return [...added, ...kept];
}

/**
 * What the held order becomes when the pointer or the focus enters or leaves the list: kept (or
 * taken from what is shown) while `holding`, dropped otherwise. Never taken before the whole
 * session list is in (`loaded`): at start the newest sessions are shown first and the rest
 * follows, and a hold taken from the first ones would put all the rest on top as if new.
 */
export function nextHeld(held: readonly string[] | undefined, holding: boolean, loaded: boolean, shown: readonly string[]): readonly string[] | undefined {
  return holding && loaded ? (held ?? shown) : undefined;
}

/** Lower-cased text a filter looks in (title, folder, agent), cached per view object: views are replaced, never mutated. */
const haystacks = new WeakMap<SessionViewT, string>();

export function matchesFilter(view: SessionViewT, needle: string, agentName: (agentId: string) => string): boolean {
  if (needle === '') return true;
  let text = haystacks.get(view);
  if (text === undefined) {
    text = `${view.title}\n${view.cwd}\n${agentName(view.agentId)}`.toLowerCase();
    haystacks.set(view, text);
  }
  return needle
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((word) => text.includes(word));
}

export const ARCHIVED_GROUP = 'archived';

export type SidebarRow =
  | { type: 'group'; key: string; label: string; title: string; count: number; expanded: boolean }
  | { type: 'session'; key: string; id: string; group: string };

export interface RowsInput {
  order: readonly string[];
  byId: ReadonlyMap<string, SessionViewT>;
  filter: string;
  /** Group keys the person collapsed (the Archived group is collapsed unless listed in `expandedArchive`). */
  collapsed: ReadonlySet<string>;
  archiveExpanded: boolean;
  agentName(agentId: string): string;
}

interface SidebarRows {
  rows: SidebarRow[];
  /** Sessions an entry shows for, top to bottom (Ctrl+1..9, next/previous, arrow keys). */
  visible: string[];
}

/** The last part of a folder path, for a group heading (the whole path is its tooltip). */
export function folderLabel(cwd: string): string {
  const trimmed = cwd.replace(/[\\/]+$/, '');
  const last = trimmed.split(/[\\/]/).pop();
  return last || cwd || '/';
}

/**
 * Groups by working folder, each group where its most recent session is, sessions in `order`
 * within it; archived sessions under one Archived group at the end. While filtering every
 * group shows its matches (a collapsed group would hide what the person is looking for).
 */
/**
 * Whether a session's change leaves the rows as they were: same folder, same archived state
 * and, while a filter is typed, still (not) matching it. A running flag, a title with no filter,
 * a pending count: the rows stay (its entry draws the new view itself).
 */
export function sameRow(before: SessionViewT | undefined, after: SessionViewT | undefined, filter: string, agentName: (agentId: string) => string): boolean {
  if (!before || !after) return false;
  const needle = filter.trim();
  return (
    before.archivedAt === after.archivedAt &&
    (before.workspace?.folder ?? before.cwd) === (after.workspace?.folder ?? after.cwd) &&
    matchesFilter(before, needle, agentName) === matchesFilter(after, needle, agentName)
  );
}

export function sidebarRows(input: RowsInput): SidebarRows {
  const { order, byId, filter, collapsed, archiveExpanded, agentName } = input;
  const needle = filter.trim();
  const groups = new Map<string, string[]>();
  const archived: string[] = [];
  for (const id of order) {
    const view = byId.get(id);
    if (!view || !matchesFilter(view, needle, agentName)) continue;
    if (view.archivedAt !== undefined) {
      archived.push(id);
      continue;
    }
    // A worktree session groups under the folder the person chose, not its worktree's path.
    const folder = view.workspace?.folder ?? view.cwd;
    const list = groups.get(folder);
    if (list) list.push(id);
    else groups.set(folder, [id]);
  }
  const rows: SidebarRow[] = [];
  const visible: string[] = [];
  const filtering = needle !== '';
  const push = (key: string, label: string, title: string, ids: string[], expanded: boolean) => {
    rows.push({ type: 'group', key: `group:${key}`, label, title, count: ids.length, expanded });
    if (!expanded) return;
    for (const id of ids) {
      rows.push({ type: 'session', key: id, id, group: key });
      visible.push(id);
    }
  };
  for (const [cwd, ids] of groups) push(`cwd:${cwd}`, folderLabel(cwd), cwd, ids, filtering || !collapsed.has(`cwd:${cwd}`));
  if (archived.length > 0) push(ARCHIVED_GROUP, 'Archived', 'Archived sessions', archived, filtering || archiveExpanded);
  return { rows, visible };
}
