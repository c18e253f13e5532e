import { afterEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { Store } from './store';
import { EventLog } from './event-log';
import { FakeClock } from '../test-support/fake-clock';
import { tempDir } from '../test-support/temp-dir';
import type { SessionEventT } from '../../shared/contract';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

function setup() {
  const dir = tempDir();
  const file = join(dir.path, 'host.db');
  const store = Store.open(file);
  cleanups.push(() => {
    store.dispose();
    dir.cleanup();
  });
  const clock = new FakeClock();
  const committed: SessionEventT[] = [];
  const ticks: (() => void)[] = [];
  const log = new EventLog(store.db, clock, (evs) => committed.push(...evs), (fn) => ticks.push(fn));
  const runTick = () => ticks.splice(0).forEach((fn) => fn());
  for (const id of ['a', 'b']) store.sessions.insert({ id, agent_id: 'demo', cwd: '/', state: 'CREATED' }, clock.now());
  return { store, file, log, committed, runTick };
}

describe('EventLog', () => {
  it('gives every event a gap-free per-session seq', () => {
    const { log, runTick, store } = setup();
    const seqs = [
      log.append('a', 'user_message', { text: 'hi' }),
      log.append('b', 'user_message', { text: 'yo' }),
      log.append('a', 'turn_started', {}),
      log.append('a', 'turn_ended', { stopReason: 'end_turn' }),
    ];
    expect(seqs).toEqual([1, 1, 2, 3]);
    runTick();
    expect(store.sessions.get('a')?.last_seq).toBe(3);
    expect(store.sessions.get('b')?.last_seq).toBe(1);
  });

  it('continues the sequence after a reopen of the same file', () => {
    const { log, runTick, file, store } = setup();
    log.append('a', 'user_message', { text: '1' });
    log.append('a', 'user_message', { text: '2' });
    runTick();
    store.dispose();
    const reopened = Store.open(file);
    cleanups.push(() => reopened.dispose());
    const log2 = new EventLog(reopened.db, new FakeClock(), () => {}, () => {});
    expect(log2.append('a', 'user_message', { text: '3' })).toBe(3);
  });

  it('stores a batch before telling subscribers, in one transaction per tick', () => {
    const { log, runTick, committed, store } = setup();
    log.append('a', 'user_message', { text: 'x' });
    log.append('a', 'turn_started', {});
    expect(committed).toHaveLength(0);
    expect(store.sessions.get('a')?.last_seq).toBe(0);
    runTick();
    expect(committed.map((e) => e.seq)).toEqual([1, 2]);
    expect(log.events.pageAfter('a', 0, 10).events.map((e) => e.seq)).toEqual([1, 2]);
  });

  it('coalesces consecutive message chunks without reordering', () => {
    const { log, runTick, committed } = setup();
    log.append('a', 'agent_message', { text: 'Hel' });
    log.append('a', 'agent_message', { text: 'lo' });
    log.append('b', 'agent_message', { text: 'other' });
    log.append('a', 'agent_message', { text: '!' });
    log.append('a', 'tool_call', { toolCallId: 't', title: 'Read', status: 'pending' });
    log.append('a', 'agent_message', { text: 'after' });
    runTick();
    expect(committed.filter((e) => e.sessionId === 'a').map((e) => [e.seq, e.kind, 'text' in e.payload ? e.payload.text : undefined])).toEqual([
      [1, 'agent_message', 'Hello!'],
      [2, 'tool_call', undefined],
      [3, 'agent_message', 'after'],
    ]);
  });

  it('keeps a chunk that carries unmodelled fields apart, so its extra is neither merged nor lost', () => {
    const { log, runTick, committed } = setup();
    log.append('a', 'agent_message', { text: 'Hel' });
    log.append('a', 'agent_message', { text: '[a.ts]', extra: { content: { type: 'resource_link', name: 'a.ts', uri: 'file:///a.ts' } } });
    log.append('a', 'agent_message', { text: 'lo' });
    log.append('a', 'agent_message', { text: '!' });
    runTick();
    expect(committed.map((e) => [e.seq, e.payload])).toEqual([
      [1, { text: 'Hel' }],
      [2, { text: '[a.ts]', extra: { content: { type: 'resource_link', name: 'a.ts', uri: 'file:///a.ts' } } }],
      [3, { text: 'lo!' }],
    ]);
  });

  it('joins chunks of one message and keeps chunks of different messages apart', () => {
    const { log, runTick, committed } = setup();
    log.append('a', 'agent_message', { text: 'a', messageId: 'm1' });
    log.append('a', 'agent_message', { text: 'b', messageId: 'm1' });
    log.append('a', 'agent_message', { text: 'c', messageId: 'm2' });
    runTick();
    expect(committed.map((e) => e.payload)).toEqual([
      { text: 'ab', messageId: 'm1' },
      { text: 'c', messageId: 'm2' },
    ]);
  });

  it('never coalesces across a flush', () => {
    const { log, runTick } = setup();
    log.append('a', 'agent_message', { text: 'one' });
    runTick();
    expect(log.append('a', 'agent_message', { text: 'two' })).toBe(2);
  });

  it('pages newest first and reports older pages', () => {
    const { log, runTick } = setup();
    for (let i = 0; i < 25; i++) log.append('a', 'notice', { text: String(i) });
    runTick();
    const newest = log.events.pageBefore('a', Number.MAX_SAFE_INTEGER, 10);
    expect(newest.events.map((e) => e.seq)).toEqual([16, 17, 18, 19, 20, 21, 22, 23, 24, 25]);
    expect(newest.hasMore).toBe(true);
    const oldest = log.events.pageBefore('a', 6, 10);
    expect(oldest.events.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(oldest.hasMore).toBe(false);
    expect(log.events.pageAfter('a', 20, 3)).toMatchObject({ hasMore: true });
  });

  it('refuses events for an unknown session', () => {
    const { log } = setup();
    expect(() => log.append('nope', 'notice', { text: 'x' })).toThrow(/unknown session/);
  });

  it('reports a failed write instead of throwing, and keeps seqs gap-free afterwards', () => {
    const dir = tempDir();
    const store = Store.open(join(dir.path, 'host.db'));
    cleanups.push(() => {
      store.dispose();
      dir.cleanup();
    });
    store.sessions.insert({ id: 'a', agent_id: 'demo', cwd: '/', state: 'CREATED' }, 1);
    const failures: number[] = [];
    const committed: SessionEventT[] = [];
    const ticks: (() => void)[] = [];
    const log = new EventLog(store.db, new FakeClock(), (evs) => committed.push(...evs), (fn) => ticks.push(fn), (_err, lost) => failures.push(lost));
    log.append('a', 'notice', { text: 'one' });
    log.append('a', 'notice', { text: 'two' });
    store.db.exec(`CREATE TRIGGER refuse BEFORE INSERT ON events BEGIN SELECT RAISE(ABORT, 'disk full'); END`);
    expect(() => ticks.splice(0).forEach((fn) => fn())).not.toThrow();
    expect(failures).toEqual([2]);
    expect(committed).toEqual([]);
    store.db.exec(`DROP TRIGGER refuse`);
    expect(log.append('a', 'notice', { text: 'three' })).toBe(1);
    ticks.splice(0).forEach((fn) => fn());
    expect(committed.map((e) => e.seq)).toEqual([1]);
  });

  it('forgets a session counter only after its queued events are written', () => {
    const { log, runTick, store } = setup();
    log.append('a', 'notice', { text: 'x' });
    log.forget('a');
    store.db.prepare(`UPDATE sessions SET last_seq = 0 WHERE id = 'a'`).run(); // would hide a stale counter
    expect(log.append('a', 'notice', { text: 'y' })).toBe(2);
    runTick();
    expect(log.lastSeq('a')).toBe(2);
  });
});
