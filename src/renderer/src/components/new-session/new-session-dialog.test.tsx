import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { HostInfoT } from '../../../../shared/contract';
import { createAppStore, type AppState, type AppStoreApi } from '../../store/app-store';
import { StoreProvider } from '../../store/context';
import type { NewSessionDialog as Dialog } from '../../store/slices/new-session/initial-state';
import { FakeApi, testDeps } from '../../test-support/fake-api';
import { NewSessionDialog } from './new-session-dialog';
import { isNewSessionShortcut, shortFolder } from './shortcut';

function storeWith(state: Partial<AppState>): AppStoreApi {
  const store = createAppStore(testDeps(new FakeApi()));
  store.setState(state);
  store.getInitialState = store.getState;
  return store;
}
const render = (state: Partial<AppState>) => renderToStaticMarkup(<StoreProvider store={storeWith(state)}><NewSessionDialog /></StoreProvider>);

const hostInfo = (canPickFolder: boolean): HostInfoT => ({
  version: '0',
  headless: !canPickFolder,
  canPickFolder,
  clientId: 'c',
  agents: [
    { id: 'demo', name: 'Demo agent', command: 'node', args: [] },
    { id: 'claude', name: 'Claude Code', command: 'claude', args: [] },
  ],
  settings: { idleTimeoutMs: 0, reapIntervalMs: 0, permissionTimeoutMs: 0, defaultCwd: '/', defaultAgentId: 'demo', maxSessionsPerBroker: 1 },
});

const dialog = (over: Partial<Dialog> = {}): Dialog => ({
  agentId: 'claude',
  folder: '/work/app',
  check: { state: 'done', result: { ok: true, path: '/work/app' } },
  additionalDirs: [],
  additionalDirError: undefined,
  listed: { state: 'idle' },
  workspace: { state: 'done', probe: { kind: 'not_repository' } },
  worktree: undefined,
  branch: '',
  branchEdited: false,
  branchCheck: { state: 'idle' },
  alsoRunOn: [],
  ...over,
});

describe('New session dialog (rendered)', () => {
  it('is a dialog named New session with an Agent combobox preselected and a Folder box, other recent folders one click away', () => {
    const html = render({ hostInfo: hostInfo(false), newSession: dialog(), recentFolders: ['/work/app', '/work/lib'] });
    expect(html).toContain('role="dialog" aria-modal="true" aria-label="New session"');
    expect(html).toMatch(/<span class="field-label">Agent<\/span><select>/);
    expect(html).toContain('<option value="claude" selected="">Claude Code</option>');
    expect(html).toMatch(/<label class="field-label" for="[^"]+-folder">Folder<\/label>/);
    expect(html).toContain('<ul class="recent-folders" aria-label="Recent folders"><li><button type="button" class="button-link" title="/work/lib">/work/lib</button></li></ul>');
    expect(html).toMatch(/<button type="submit" class="button-primary">Start<\/button>/);
  });

  it('shows why a bad folder is refused and disables Start, keeping the typed text', () => {
    const html = render({
      hostInfo: hostInfo(false),
      newSession: dialog({ folder: '/work/ap', check: { state: 'done', result: { ok: false, problem: 'missing', message: 'There is no folder /work/ap.' } } }),
    });
    expect(html).toContain('value="/work/ap"');
    expect(html).toContain('aria-invalid="true"');
    expect(html).toMatch(/class="field-error" role="alert">There is no folder \/work\/ap\.<\/span>/);
    expect(html).toMatch(/<button type="submit" class="button-primary" disabled="" title="There is no folder \/work\/ap\.">Start<\/button>/);
  });

  it('offers Browse… only where the host has a folder picker', () => {
    expect(render({ hostInfo: hostInfo(true), newSession: dialog() })).toContain('>Browse…</button>');
    expect(render({ hostInfo: hostInfo(false), newSession: dialog() })).not.toContain('Browse…');
  });

  it("offers the agent's existing sessions, and lists them with folder and title", () => {
    const listed = { acpSessionId: 'a1', cwd: '/home/me/src/app', title: 'Earlier work', additionalDirs: [], openAs: undefined };
    const html = render({ hostInfo: hostInfo(false), newSession: dialog({ listed: { state: 'done', agentId: 'claude', sessions: [listed] } }) });
    expect(html).toContain('>Open an existing session of this agent</button>');
    expect(html).toContain('Earlier work');
    expect(html).toContain('title="/home/me/src/app">…/src/app</span>');
  });

  it('renders nothing while closed', () => {
    expect(render({ hostInfo: hostInfo(false) })).toBe('');
  });
});

describe('keyboard and folder helpers', () => {
  const key = (over: Partial<KeyboardEvent>) => ({ key: 'n', ctrlKey: false, metaKey: false, shiftKey: false, altKey: false, isComposing: false, ...over });

  it('Ctrl+N elsewhere and Cmd+N on a Mac start a session; Shift (New window), Alt and IME composition do not', () => {
    expect(isNewSessionShortcut(key({ ctrlKey: true }), false)).toBe(true);
    expect(isNewSessionShortcut(key({ key: 'N', ctrlKey: true }), false)).toBe(true);
    expect(isNewSessionShortcut(key({ metaKey: true }), true)).toBe(true);
    expect(isNewSessionShortcut(key({ ctrlKey: true }), true)).toBe(false);
    expect(isNewSessionShortcut(key({ metaKey: true }), false)).toBe(false);
    expect(isNewSessionShortcut(key({ ctrlKey: true, shiftKey: true }), false)).toBe(false);
    expect(isNewSessionShortcut(key({ ctrlKey: true, altKey: true }), false)).toBe(false);
    expect(isNewSessionShortcut(key({ ctrlKey: true, isComposing: true }), false)).toBe(false);
    expect(isNewSessionShortcut(key({ key: 'm', ctrlKey: true }), false)).toBe(false);
  });

  it('shortens a folder to its last two parts', () => {
    expect(shortFolder('/home/me/src/app')).toBe('…/src/app');
    expect(shortFolder('/tmp/work')).toBe('/tmp/work');
    expect(shortFolder('C:\\Users\\me\\app')).toBe('…/me/app');
  });
});
