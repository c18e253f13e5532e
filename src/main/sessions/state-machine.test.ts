import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionStateT } from '../../shared/contract';
import { AppError } from '../../shared/errors';
import { Store } from '../store/store';
import { tempDir } from '../test-support/temp-dir';
import { canTransition, LIVE_STATES, ROUTABLE, transition, transitions } from './state-machine';

const STATES: SessionStateT[] = ['CREATED', 'STARTING', 'ACTIVE', 'DETACHED', 'CLOSING', 'ENDED'];

/**
 * The lifecycle as designed: CREATED → STARTING → ACTIVE ⇄ DETACHED → CLOSING → ENDED →
 * STARTING (resume), plus closing or failing from any live state. Written out here, apart from
 * the code, so a change to the table has to be a change to this list too.
 */
const ALLOWED = new Set([
  'CREATED>STARTING',
  'CREATED>CLOSING',
  'CREATED>ENDED',
  'STARTING>ACTIVE',
  'STARTING>DETACHED',
  'STARTING>CLOSING',
  'STARTING>ENDED',
  'ACTIVE>DETACHED',
  'ACTIVE>CLOSING',
  'ACTIVE>ENDED',
  'DETACHED>ACTIVE',
  'DETACHED>CLOSING',
  'DETACHED>ENDED',
  'CLOSING>ENDED',
  'ENDED>STARTING',
]);

const PAIRS = STATES.flatMap((from) => STATES.map((to) => [from, to] as const));

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

function storeWith(state: SessionStateT): Store {
  const dir = tempDir();
  const store = Store.open(join(dir.path, 'host.db'));
  cleanups.push(() => {
    store.dispose();
    dir.cleanup();
  });
  store.sessions.insert({ id: 's', agent_id: 'demo', cwd: '/', state }, 1_000);
  store.db.prepare(`UPDATE sessions SET state_reason = 'before', detached_at = 500 WHERE id = 's'`).run();
  return store;
}

describe('session state machine', () => {
  it('allows exactly the designed transitions', () => {
    const table = PAIRS.filter(([from, to]) => canTransition(from, to)).map(([from, to]) => `${from}>${to}`);
    expect(new Set(table)).toEqual(ALLOWED);
    expect(Object.keys(transitions).sort()).toEqual([...STATES].sort());
  });

  it.each(PAIRS.filter(([from, to]) => ALLOWED.has(`${from}>${to}`)))('stores %s → %s with its reason and time', (from, to) => {
    const store = storeWith(from);
    expect(transition(store.sessions, 's', to, 'stale', 2_000)).toEqual({ from, to });
    const row = store.sessions.get('s');
    expect(row).toMatchObject({ state: to, state_reason: 'stale', updated_at: 2_000 });
    // The reaper measures idleness from the moment a session was last detached.
    expect(row?.detached_at).toBe(to === 'DETACHED' ? 2_000 : 500);
  });

  it.each(PAIRS.filter(([from, to]) => !ALLOWED.has(`${from}>${to}`)))('refuses %s → %s and stores nothing', (from, to) => {
    const store = storeWith(from);
    const before = store.sessions.get('s');
    let thrown: unknown;
    try {
      transition(store.sessions, 's', to, 'stale', 2_000);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(AppError);
    expect(thrown).toMatchObject({ code: 'invalid_state', details: { from, to } });
    expect(store.sessions.get('s')).toEqual(before);
  });

  it('refuses a transition when the stored state changed since it was read, and keeps the newer state', () => {
    const store = storeWith('ACTIVE');
    const repo = store.sessions;
    // Another writer moves the session on between this transition's read and its write.
    const read = repo.get.bind(repo);
    repo.get = (id) => {
      const row = read(id);
      store.db.prepare(`UPDATE sessions SET state = 'CLOSING', state_reason = 'other' WHERE id = ?`).run(id);
      return row;
    };
    expect(() => transition(repo, 's', 'DETACHED', 'unwatched', 2_000)).toThrow(/changed state concurrently/);
    repo.get = read;
    expect(repo.get('s')).toMatchObject({ state: 'CLOSING', state_reason: 'other', detached_at: 500 });
  });

  it('refuses a transition of an unknown session', () => {
    const store = storeWith('ACTIVE');
    expect(() => transition(store.sessions, 'nope', 'ENDED', 'stale', 2_000)).toThrow(expect.objectContaining({ code: 'not_found' }) as Error);
  });

  it('routes prompts only to STARTING, ACTIVE and DETACHED sessions, and recovers every state but ENDED', () => {
    expect([...ROUTABLE].sort()).toEqual(['ACTIVE', 'DETACHED', 'STARTING']);
    expect([...LIVE_STATES].sort()).toEqual(['ACTIVE', 'CLOSING', 'CREATED', 'DETACHED', 'STARTING']);
  });
});
