import { describe, expect, it } from 'vitest';
import type { SessionViewT } from '../../../shared/contract';
import { view } from '../test-support/fake-api';
import { activityOrder, folderLabel, holdOrder, matchesFilter, nextHeld, placeInOrder, sameRow, sidebarRows, type RowsInput } from './sidebar-rows';

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const agentName = (agentId: string) => (agentId === 'demo' ? 'Demo agent' : agentId);

function sessions(list: Partial<SessionViewT>[]): Map<string, SessionViewT> {
  return new Map(list.map((over, i) => [over.id ?? id(i + 1), view({ id: id(i + 1), ...over })]));
}

function rowsOf(byId: Map<string, SessionViewT>, over: Partial<RowsInput> = {}) {
  return sidebarRows({
    order: activityOrder(byId.values()),
    byId,
    filter: '',
    collapsed: new Set(),
    archiveExpanded: false,
    agentName,
    ...over,
  });
}

/** Rows as short strings: "# label (count)" for a heading, the title for an entry. */
const outline = (r: ReturnType<typeof rowsOf>, byId: Map<string, SessionViewT>) =>
  r.rows.map((row) => (row.type === 'group' ? `# ${row.label} (${row.count})${row.expanded ? '' : ' +'}` : byId.get(row.id)?.title));

describe('activity order', () => {
  it('puts the most recent activity first, then the newest, and is total', () => {
    const byId = sessions([
      { title: 'old, busy', createdAt: 1, lastActivityAt: 50 },
      { title: 'new, quiet', createdAt: 9, lastActivityAt: 9 },
      { title: 'same time, newer', createdAt: 5, lastActivityAt: 9 },
    ]);
    expect(activityOrder(byId.values()).map((i) => byId.get(i)?.title)).toEqual(['old, busy', 'new, quiet', 'same time, newer']);
  });
});

describe('one session moved in the order', () => {
  it('lands where the full sort puts it, over many random changes: new sessions, activity up, ties', () => {
    // A small seeded generator: the same changes every run.
    let seed = 7;
    const next = (n: number) => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31), seed % n);
    const byId = sessions(Array.from({ length: 60 }, (_, i) => ({ createdAt: next(40), lastActivityAt: 40 + next(40), title: `s${i}` })));
    let order: readonly string[] = activityOrder(byId.values());
    for (let round = 0; round < 500; round++) {
      const ids = [...byId.keys()];
      const known = round % 10 === 0 ? undefined : byId.get(ids[next(ids.length)]!);
      const changed = known
        ? view({ ...known, lastActivityAt: next(3) === 0 ? known.lastActivityAt : 40 + next(60) })
        : view({ id: id(1_000 + round), createdAt: next(100), lastActivityAt: 40 + next(60) });
      byId.set(changed.id, changed);
      order = placeInOrder(order, byId, changed);
      expect(order).toEqual(activityOrder(byId.values()));
    }
  });

  it('returns the same order when the session stays where it is', () => {
    const byId = sessions([{ lastActivityAt: 30 }, { lastActivityAt: 20 }, { lastActivityAt: 10 }]);
    const order = activityOrder(byId.values());
    const middle = view({ ...byId.get(order[1]!)!, lastActivityAt: 25 });
    byId.set(middle.id, middle);
    expect(placeInOrder(order, byId, middle)).toBe(order);
  });
});

describe('holding the order under the pointer', () => {
  it('keeps shown entries where they are when activity reorders them; new ones go on top, gone ones leave', () => {
    const shown = ['a', 'b', 'c'];
    // c got a reply (moves first), d is new, b was deleted.
    expect(holdOrder(shown, ['d', 'c', 'a'])).toEqual(['d', 'a', 'c']);
  });

  it('returns the very same array when only the order changed, so nothing re-renders', () => {
    const shown = ['a', 'b', 'c'];
    expect(holdOrder(shown, ['c', 'b', 'a'])).toBe(shown);
  });

  it('holds nothing while the session list is still coming: the rest of it is not put on top as new', () => {
    // At start only the newest are in; the pointer is already over the list.
    const first = ['new-1', 'new-2'];
    const held = nextHeld(undefined, true, false, first);
    expect(held).toBeUndefined();
    // The whole list arrives: shown as it is, the newest still first.
    const whole = ['new-1', 'new-2', 'old-1', 'old-2'];
    expect(held ? holdOrder(held, whole) : whole).toEqual(whole);
    // Once loaded, entering holds what is shown, and leaving lets go.
    expect(nextHeld(undefined, true, true, whole)).toBe(whole);
    expect(nextHeld(whole, true, true, ['x'])).toBe(whole);
    expect(nextHeld(whole, false, true, whole)).toBeUndefined();
  });
});

describe('grouping by folder', () => {
  const byId = sessions([
    { title: 'api fix', cwd: '/work/api', lastActivityAt: 30 },
    { title: 'web build', cwd: '/work/web/', lastActivityAt: 40 },
    { title: 'api docs', cwd: '/work/api', lastActivityAt: 10 },
    { title: 'old idea', cwd: '/work/web/', lastActivityAt: 20, archivedAt: 21 },
  ]);

  it('groups by working folder, each group where its most recent session is, archived last and collapsed', () => {
    expect(outline(rowsOf(byId), byId)).toEqual(['# web (1)', 'web build', '# api (2)', 'api fix', 'api docs', '# Archived (1) +']);
    expect(rowsOf(byId).visible.map((i) => byId.get(i)?.title)).toEqual(['web build', 'api fix', 'api docs']);
  });

  it('hides the entries of a collapsed group, and shows the archived ones when expanded', () => {
    const r = rowsOf(byId, { collapsed: new Set(['cwd:/work/api']), archiveExpanded: true });
    expect(outline(r, byId)).toEqual(['# web (1)', 'web build', '# api (2) +', '# Archived (1)', 'old idea']);
  });

  it('names a group by its last folder, the whole path being its tooltip', () => {
    expect(folderLabel('/work/web/')).toBe('web');
    expect(folderLabel('C:\\src\\app')).toBe('app');
    expect(folderLabel('/')).toBe('/');
    expect(rowsOf(byId).rows[0]).toMatchObject({ type: 'group', title: '/work/web/' });
  });

  it('groups worktree sessions under the repository folder chosen, not their worktrees', () => {
    const ws = (path: string) => ({ kind: 'worktree' as const, repository: '/work/api', folder: '/work/api', path, branch: 'b' });
    const withWorktrees = sessions([
      { title: 'in checkout', cwd: '/work/api', lastActivityAt: 30 },
      { title: 'wt one', cwd: '/data/worktrees/one', workspace: ws('/data/worktrees/one'), lastActivityAt: 20 },
      { title: 'wt two', cwd: '/data/worktrees/two', workspace: ws('/data/worktrees/two'), lastActivityAt: 10 },
    ]);
    expect(outline(rowsOf(withWorktrees), withWorktrees)).toEqual(['# api (3)', 'in checkout', 'wt one', 'wt two']);
  });
});

describe('filter', () => {
  const byId = sessions([
    { title: 'Fix the Build', cwd: '/work/api', agentId: 'demo', lastActivityAt: 3 },
    { title: 'Write docs', cwd: '/home/me/Notes', agentId: 'gemini', lastActivityAt: 2 },
    { title: 'Old build', cwd: '/work/api', agentId: 'gemini', lastActivityAt: 1, archivedAt: 5 },
  ]);

  it('narrows by title, folder and agent, ignoring case, every word having to match', () => {
    const titles = (filter: string) => rowsOf(byId, { filter, archiveExpanded: true }).visible.map((i) => byId.get(i)?.title);
    expect(titles('build')).toEqual(['Fix the Build', 'Old build']);
    expect(titles('NOTES')).toEqual(['Write docs']);
    expect(titles('demo agent')).toEqual(['Fix the Build']);
    expect(titles('gemini build')).toEqual(['Old build']);
    expect(titles('nothing like it')).toEqual([]);
    expect(titles('  ')).toHaveLength(3);
  });

  it('shows matches inside collapsed groups while filtering', () => {
    const r = rowsOf(byId, { filter: 'build', collapsed: new Set(['cwd:/work/api']) });
    expect(outline(r, byId)).toEqual(['# api (1)', 'Fix the Build', '# Archived (1)', 'Old build']);
  });

  it('reads a new view of a session, not a cached old one', () => {
    const before = view({ title: 'alpha' });
    expect(matchesFilter(before, 'alpha', agentName)).toBe(true);
    expect(matchesFilter({ ...before, title: 'beta' }, 'alpha', agentName)).toBe(false);
  });

  it('keeps up with 10,000 sessions: after the first keystroke of a filter no session\'s text is built again', () => {
    // What keeps a keystroke at 2–4 ms with 10,000 sessions is that each view's text is built
    // once (a speed figure belongs to `npm run bench`, not to a timed test): counted here by the
    // agent-name look-ups that building a text makes.
    const many = sessions(
      Array.from({ length: 10_000 }, (_, i) => ({ title: `Task ${i}`, cwd: `/work/project-${i % 50}`, lastActivityAt: i })),
    );
    const order = activityOrder(many.values());
    let built = 0;
    const counted = (agentId: string) => {
      built++;
      return agentName(agentId);
    };
    rowsOf(many, { order, filter: 'x', agentName: counted }); // the first keystroke builds every text
    expect(built).toBe(10_000);
    built = 0;
    for (const filter of ['t', 'ta', 'tas', 'task', 'task 9', 'task 99']) rowsOf(many, { order, filter, agentName: counted });
    expect(rowsOf(many, { order, filter: 'task 9999', agentName: counted }).visible).toHaveLength(1);
    // Every title holding "99" (99, 199, 990–999, …): 280 of them.
    expect(rowsOf(many, { order, filter: 'task 99', agentName: counted }).visible).toHaveLength(280);
    expect(built).toBe(0);
  });
});

describe('a change that keeps the rows', () => {
  const agentName = (id: string) => (id === 'demo' ? 'Demo agent' : id);
  it('is one that moves no session to another folder, in or out of the archive, or across the filter', () => {
    const v = view({ title: 'Fix the parser', cwd: '/work/a' });
    expect(sameRow(v, { ...v, running: true, pendingPermissions: 2, title: 'Renamed' }, '', agentName)).toBe(true);
    expect(sameRow(v, { ...v, cwd: '/work/b' }, '', agentName)).toBe(false);
    expect(sameRow(v, { ...v, archivedAt: 5 }, '', agentName)).toBe(false);
    // With a filter typed, a new title can take it in or out of the list.
    expect(sameRow(v, { ...v, title: 'Renamed' }, 'parser', agentName)).toBe(false);
    expect(sameRow(v, { ...v, title: 'Parser again' }, 'parser', agentName)).toBe(true);
    // A session new to the list (no view before) always builds the rows again.
    expect(sameRow(undefined, v, '', agentName)).toBe(false);
  });
});
