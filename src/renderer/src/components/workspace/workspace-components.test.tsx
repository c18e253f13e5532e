import { describe, expect, it } from 'vitest';
import type { ChangesListT, SessionViewT, WorkspaceViewT } from '../../../../shared/contract';
import type { ChangesPanel as Panel } from '../../store/slices/workspace/initial-state';
import { SID, view } from '../../test-support/fake-api';
import { renderWith, storeWith } from '../../test-support/static-render';
import { ChangesPanel } from './changes-panel';
import { CompareView } from './compare-view';
import { WorkspaceBar } from './workspace-bar';

const ws: WorkspaceViewT = { kind: 'worktree', repository: '/repo', folder: '/repo', path: '/wt/a', branch: 'alpha', baseBranch: 'main', baseCommit: 'b'.repeat(40) };
const session = (over: Partial<SessionViewT> = {}) => view({ workspace: ws, ...over });
const list: ChangesListT = {
  sessionId: SID,
  base: 'b'.repeat(40),
  files: [
    { path: 'src/a.ts', status: 'modified', untracked: false, binary: false, added: 3, removed: 1 },
    { path: 'logo.png', status: 'added', untracked: false, binary: true },
    { path: 'new.ts', from: 'old.ts', status: 'renamed', untracked: false, binary: false, added: 0, removed: 0 },
  ],
  truncated: false,
  total: 3,
  at: 1,
};
const panel = (over: Partial<Panel> = {}): Panel => ({
  sessionId: SID,
  list,
  loading: false,
  listError: undefined,
  selected: undefined,
  diff: undefined,
  busy: undefined,
  failure: undefined,
  done: undefined,
  commitMessage: 'Fix the login form',
  squash: false,
  ...over,
});
const state = (s: SessionViewT, extra: object = {}) => ({ sessionsById: new Map([[s.id, s]]), currentSessionId: s.id, ...extra });

describe('the header git line', () => {
  it('shows branch, base, ahead/behind and uncommitted files, and the Changes button', () => {
    const s = session();
    const html = renderWith(
      storeWith(state(s, { workspaceStatus: new Map([[SID, { sessionId: SID, branch: 'alpha', baseBranch: 'main', ahead: 2, behind: 1, dirty: true, uncommitted: 4, at: 1 }]]) })),
      <WorkspaceBar session={s} />,
    );
    expect(html).toContain('<code class="workspace-branch">alpha</code>');
    expect(html).toContain('<code class="workspace-base">main</code>');
    expect(html).toContain('2 ahead, 1 behind');
    expect(html).toContain('4 uncommitted');
    expect(html).toMatch(/<button type="button" class="button-secondary" aria-expanded="false">Changes<\/button>/);
    expect(html).not.toContain('>Compare<');
  });

  it('offers Compare for a group, and to make a vanished worktree again instead of Changes', () => {
    const s = session({ groupId: 'g', workspace: { ...ws, missing: true } });
    const html = renderWith(storeWith(state(s)), <WorkspaceBar session={s} />);
    expect(html).toContain('>Compare</button>');
    expect(html).toContain('>Make the worktree again</button>');
    expect(html).not.toContain('>Changes</button>');
  });

  it('shows nothing for a folder outside a repository', () => {
    const s = view();
    expect(renderWith(storeWith(state(s)), <WorkspaceBar session={s} />)).toBe('');
  });
});

describe('the Changes region', () => {
  it('is a region named Changes listing each file with its status and lines, binary marked, a Revert each', () => {
    const html = renderWith(storeWith(state(session(), { changes: panel() })), <ChangesPanel />);
    expect(html).toContain('aria-label="Changes"');
    expect(html).toContain('3 files changed against main (bbbbbbb)');
    expect(html).toContain('modified, +3 −1');
    expect(html).toContain('added, binary');
    expect(html).toContain('renamed from old.ts, +0 −0');
    expect(html).toContain('aria-label="Revert src/a.ts"');
    expect(html).toContain('>Discard all changes</button>');
    expect(html).toMatch(/<label class="field-label" for="[^"]+-message">Commit message<\/label><textarea id="[^"]+-message" rows="2">Fix the login form<\/textarea>/);
    expect(html).toContain('>Merge into main</button>');
    expect(html).toContain('>Rebase on base</button>');
  });

  it('names the conflicting files and quotes git', () => {
    const failure = { op: 'merge' as const, message: 'Merging conflicts.', problem: 'conflict' as const, files: ['notes.txt'], words: ['CONFLICT (add/add): Merge conflict in notes.txt'] };
    const html = renderWith(storeWith(state(session(), { changes: panel({ failure }) })), <ChangesPanel />);
    expect(html).toContain('role="alert"');
    expect(html).toContain('Merge conflict: nothing was changed');
    expect(html).toContain('<ul aria-label="Conflicting files"><li><code>notes.txt</code></li></ul>');
    expect(html).toContain('CONFLICT (add/add): Merge conflict in notes.txt');
  });

  it('offers no Commit, Merge or Rebase in a shared folder, and says while it works', () => {
    const s = session({ workspace: { kind: 'shared', repository: '/repo', folder: '/repo' } });
    const html = renderWith(storeWith(state(s, { changes: panel({ busy: 'discard' }) })), <ChangesPanel />);
    expect(html).not.toContain('Commit message');
    expect(html).not.toContain('Merge into');
    expect(html).toContain('Discarding…');
    expect(html).toContain('aria-busy="true"');
  });

  it("shows nothing for another session's Changes", () => {
    const html = renderWith(storeWith(state(session(), { changes: panel({ sessionId: '99999999-9999-4999-8999-999999999999' }) })), <ChangesPanel />);
    expect(html).toBe('');
  });
});

describe('Compare', () => {
  it('lists each sibling side by side with files, lines, turn time, cost and its own Merge', () => {
    const s = session({ groupId: 'g' });
    const entry = { sessionId: SID, agentId: 'demo', title: 'Task', branch: 'task-demo', files: list.files.slice(0, 1), truncated: false, filesChanged: 1, added: 3, removed: 1, ahead: 1, turnMs: 2500, turns: 1, running: false, cost: [{ amount: 0.25, currency: 'USD' }] };
    const compare = { groupId: 'g', loading: false, result: { groupId: 'g', sessions: [entry] }, error: undefined, merging: undefined, failure: undefined, done: undefined, squash: false };
    const html = renderWith(storeWith(state(s, { compare })), <CompareView />);
    expect(html).toContain('aria-label="Compare"');
    expect(html).toContain('<dt>Files changed</dt><dd>1</dd>');
    expect(html).toContain('<dt>Lines</dt><dd>+3 −1</dd>');
    expect(html).toContain('2.5 s');
    expect(html).toContain('$0.25');
    expect(html).toContain('>Merge demo (task-demo)</button>');
  });
});
