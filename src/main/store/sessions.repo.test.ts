import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../test-support/temp-dir';
import { LIST_SQL, SESSION_COLUMNS, stateReasonOf, type SessionRowChange, type SessionsRepo } from './sessions.repo';
import { Store } from './store';

/**
 * Windows learn of a session's change because the repository announces every write itself
 * (issue 18). These tests fail when a write stops announcing, when a new method is added
 * without saying whether it writes, and when a write to the sessions table appears anywhere
 * but here.
 */

const NOW = 1_000;
const ID = 'session-1';

/** Every method of `SessionsRepo` that writes a session's row, how to call it, and what it announces. */
const WRITES: Record<string, { call: (repo: SessionsRepo) => unknown; announces: SessionRowChange['what'] }> = {
  insert: { call: (r) => r.insert({ id: 'session-2', agent_id: 'demo', cwd: '/', state: 'CREATED' }, NOW), announces: 'created' },
  setState: { call: (r) => r.setState(ID, 'CREATED', 'STARTING', 'new', NOW + 1), announces: 'state' },
  setAcpSessionId: { call: (r) => r.setAcpSessionId(ID, 'acp-1', NOW + 1), announces: 'acp_session_id' },
  setTitle: { call: (r) => r.setTitle(ID, 'A title', NOW + 1), announces: 'title' },
  setFirstPrompt: { call: (r) => r.setFirstPrompt(ID, 'hello', NOW + 1), announces: 'first_prompt' },
  setCwd: { call: (r) => r.setCwd(ID, '/tmp', NOW + 1), announces: 'cwd' },
  touch: { call: (r) => r.touch(ID, NOW + 5), announces: 'last_activity_at' },
  setArchived: { call: (r) => r.setArchived(ID, NOW + 1, NOW + 1), announces: 'archived_at' },
  setAuthRequest: {
    call: (r) => r.setAuthRequest(ID, { message: 'Sign in', methods: [], during: 'start' }, NOW + 1),
    announces: 'auth_request',
  },
  setCustomTitle: { call: (r) => r.setCustomTitle(ID, 'Mine', NOW + 1), announces: 'custom_title' },
  markViewed: { call: (r) => r.markViewed(ID, NOW + 1), announces: 'viewed_at' },
  setControlsJson: { call: (r) => r.setControlsJson(ID, '{"rev":1}'), announces: 'controls' },
  setCanFork: { call: (r) => r.setCanFork(ID, true, NOW + 1), announces: 'can_fork' },
  remove: { call: (r) => r.remove(ID), announces: 'removed' },
};

/** Methods that only read (or write other tables): they announce nothing. */
const READS = ['get', 'list', 'listAfter', 'byAcpSessionId', 'inStates', 'idleDetached', 'controlsJson', 'hasPrompt', 'recordPrompt', 'count'];

let cleanup: (() => void) | undefined;
afterEach(() => {
  cleanup?.();
  cleanup = undefined;
});

/** A new database file in a folder of its own, both gone after the test. */
function emptyStore(): Store {
  const dir = tempDir();
  const store = Store.open(join(dir.path, 'switchboard.db'));
  cleanup = () => {
    store.dispose();
    dir.cleanup();
  };
  return store;
}

function open(): { repo: SessionsRepo; heard: SessionRowChange[] } {
  const repo = emptyStore().sessions;
  repo.insert({ id: ID, agent_id: 'demo', cwd: '/', state: 'CREATED' }, NOW);
  const heard: SessionRowChange[] = [];
  repo.onDidChange((change) => heard.push(change));
  return { repo, heard };
}

describe('SessionsRepo announces every write itself', () => {
  it('every public method is known as a write or a read', () => {
    const methods = Object.getOwnPropertyNames(Object.getPrototypeOf(open().repo) as object).filter((m) => m !== 'constructor' && m !== 'announce');
    expect(methods.sort()).toEqual([...Object.keys(WRITES), ...READS].sort());
  });

  it.each(Object.entries(WRITES))('%s announces the change it made', (_name, write) => {
    const { repo, heard } = open();
    const before = JSON.stringify(repo.get(ID));
    write.call(repo);
    // The write did change something (else the table above would prove nothing)…
    expect(JSON.stringify(repo.get(ID)) !== before || write.announces === 'created').toBe(true);
    // …and said so, once, naming what.
    expect(heard).toEqual([{ sessionId: write.announces === 'created' ? 'session-2' : ID, what: write.announces }]);
  });

  it('a write that changes nothing announces nothing', () => {
    const { repo, heard } = open();
    expect(repo.setState(ID, 'ACTIVE', 'ENDED', 'closed_by_user', NOW)).toBe(false);
    repo.setTitle('no-such-session', 'x', NOW);
    expect(repo.remove('no-such-session')).toBe(false);
    expect(heard).toEqual([]);
  });

  it.each(READS.filter((m) => m !== 'recordPrompt'))('%s announces nothing', (name) => {
    const { repo, heard } = open();
    const method = (repo as unknown as Record<string, (...args: unknown[]) => unknown>)[name]!;
    const args: Record<string, unknown[]> = {
      get: [ID],
      list: [],
      listAfter: [{ createdAt: NOW, id: ID }, 10],
      byAcpSessionId: ['demo', 'acp-1'],
      inStates: [['CREATED']],
      idleDetached: [NOW],
      controlsJson: [ID],
      hasPrompt: [ID, 'm1'],
      count: [],
    };
    method.apply(repo, args[name]!);
    expect(heard).toEqual([]);
  });

  it('no product code but this repository writes the sessions table (EventsRepo bumps only seq and activity)', () => {
    const root = join(import.meta.dirname, '..');
    const offenders: string[] = [];
    const walk = (dir: string): void => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) {
          if (entry.name !== 'migrations' && entry.name !== 'test-support') walk(path);
        } else if (/\.ts$/.test(entry.name) && !/\.test\.ts$/.test(entry.name)) {
          const text = readFileSync(path, 'utf8');
          for (const match of text.matchAll(/(UPDATE|INSERT INTO|DELETE FROM|REPLACE INTO)\s+sessions\b([^`]*)/gi)) {
            const file = relative(root, path);
            const allowed = file === join('store', 'sessions.repo.ts') || (file === join('store', 'events.repo.ts') && /SET (last_seq = \?, )?last_activity_at = MAX\(last_activity_at, \?\) WHERE id = \?/.test(match[2] ?? ''));
            if (!allowed) offenders.push(`${file}: ${match[0].slice(0, 80)}`);
          }
        }
      }
    };
    walk(root);
    expect(offenders).toEqual([]);
  });

  it('lists the newest created first along an index: no sort of every session (migration 0017)', () => {
    const store = emptyStore();
    for (const [id, at] of [['b', 2], ['a', 2], ['c', 3], ['d', 1]] as const) store.sessions.insert({ id, agent_id: 'demo', cwd: '/', state: 'CREATED' }, at);
    expect(store.sessions.list().map((r) => r.id)).toEqual(['c', 'a', 'b', 'd']);
    expect(store.sessions.list(2, 1).map((r) => r.id)).toEqual(['a', 'b']);
    const plan = (store.db.prepare(`EXPLAIN QUERY PLAN ${LIST_SQL}`).all(10, 0) as { detail: string }[]).map((r) => r.detail).join('\n');
    expect(plan).toContain('sessions_by_created');
    expect(plan).not.toContain('TEMP B-TREE');
  });

  it('reads every column of a listed row, each under its own name, as SELECT * does', () => {
    const store = emptyStore();
    const columns = (store.db.prepare('PRAGMA table_info(sessions)').all() as { name: string }[]).map((c) => c.name);
    expect([...SESSION_COLUMNS].sort()).toEqual([...columns].sort());
    // Every column different from the others, so a value read under the wrong name shows.
    store.sessions.insert({ id: 'one', agent_id: 'demo', cwd: '/work', state: 'CREATED', additionalDirs: ['/extra'], acpSessionId: 'acp-1', title: 'Agent title', forkedFrom: 'zero', readOnly: true, archivedAt: 40, stateReason: 'agent_exited' }, 10);
    store.sessions.setFirstPrompt('one', 'first words', 11);
    store.sessions.setAuthRequest('one', { message: 'Sign in', methods: [], during: 'start' }, 12);
    store.sessions.setCustomTitle('one', 'Mine', 13);
    store.sessions.markViewed('one', 14);
    store.sessions.setControlsJson('one', '{"rev":7}');
    store.sessions.setCanFork('one', true, 15);
    store.sessions.touch('one', 16);
    store.sessions.insert({ id: 'two', agent_id: 'other', cwd: '/', state: 'CREATED' }, 20);
    expect(store.sessions.list()).toEqual(store.db.prepare('SELECT * FROM sessions ORDER BY created_at DESC, id').all());
    expect(store.sessions.list()[1]).toMatchObject({ id: 'one', first_prompt: 'first words', custom_title: 'Mine', viewed_at: 14, controls: '{"rev":7}', can_fork: 1, read_only: 1, archived_at: 40, forked_from: 'zero', acp_session_id: 'acp-1' });
  });
});

describe('stateReasonOf', () => {
  it('gives a reason this version knows, and leaves out none and one an older or newer version stored', () => {
    expect(stateReasonOf({ state_reason: 'idle_timeout' })).toEqual({ stateReason: 'idle_timeout' });
    expect(stateReasonOf({ state_reason: 'agent_exited' })).toEqual({ stateReason: 'agent_exited' });
    expect(stateReasonOf({ state_reason: null })).toEqual({});
    expect(stateReasonOf({ state_reason: 'went_to_the_moon' })).toEqual({});
    expect(stateReasonOf({ state_reason: '' })).toEqual({});
    // Not a reason however it is spelt: no prototype key, no other case.
    expect(stateReasonOf({ state_reason: 'constructor' })).toEqual({});
    expect(stateReasonOf({ state_reason: 'IDLE_TIMEOUT' })).toEqual({});
  });
});

