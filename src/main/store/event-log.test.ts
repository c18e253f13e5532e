import { afterEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { Store } from './store';
import { EventLog } from './event-log';
import { FakeClock } from '../test-support/fake-clock';
import { tempDir } from '../test-support/temp-dir';
import { tempStore } from '../test-support/temp-store';
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

  it("stamps an event with the time its caller read, or the clock's when none is given", () => {
    const { log, runTick, committed } = setup();
    const now = Date.parse('2026-12-03T12:00:00Z');
    log.append('a', 'agent_message', { text: 'given' }, now - 5_000);
    log.append('b', 'user_message', { text: 'now' });
    runTick();
    expect(committed.map((e) => e.at)).toEqual([now - 5_000, new FakeClock().now()]);
    expect(log.events.pageAfter('a', 0, 10).events[0]?.at).toBe(now - 5_000);
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
    const store = tempStore(cleanups);
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

  it('writes a touch with the next write, in the same commit as the events beside it, and shows it as pending activity meanwhile', () => {
    const { log, runTick, store, committed } = setup();
    const activityOf = (id: string) => store.sessions.get(id)?.last_activity_at;
    const before = activityOf('a')!;
    log.append('a', 'turn_ended', { stopReason: 'end_turn' });
    log.touch('a', before + 5_000);
    // Not written yet: a view reads it from the log.
    expect(activityOf('a')).toBe(before);
    expect(log.pendingActivityAt('a')).toBe(before + 5_000);
    runTick();
    expect(activityOf('a')).toBe(before + 5_000);
    expect(log.pendingActivityAt('a')).toBeUndefined();
    expect(committed.map((e) => e.kind)).toEqual(['turn_ended']);
    // A touch alone is written too, and tells subscribers of no event; an older one moves nothing back.
    log.touch('b', before + 9_000);
    log.touch('a', before + 1_000);
    runTick();
    expect(activityOf('b')).toBe(before + 9_000);
    expect(activityOf('a')).toBe(before + 5_000);
    expect(committed).toHaveLength(1);
    expect(log.pendingActivityAt('b')).toBeUndefined();
    // In the write's transaction: a write that fails takes its touch with it.
    store.db.exec(`CREATE TRIGGER fail_notice BEFORE INSERT ON events WHEN NEW.kind = 'notice' BEGIN SELECT RAISE(ABORT, 'disk full'); END`);
    log.append('b', 'notice', { text: 'fails' });
    log.touch('b', before + 9_500);
    runTick();
    expect(activityOf('b')).toBe(before + 9_000);
    store.db.exec(`DROP TRIGGER fail_notice`);
    // Once the log is closed, a touch is written at once.
    log.dispose();
    log.touch('b', before + 10_000);
    expect(activityOf('b')).toBe(before + 10_000);
  });

  describe('a write that runs out of its time slice', () => {
    /** A log whose slice clock moves 1 ms each time it is read: a 3 ms slice writes 3 events. */
    function sliced() {
      const store = tempStore(cleanups);
      for (const id of ['a', 'b']) store.sessions.insert({ id, agent_id: 'demo', cwd: '/', state: 'CREATED' }, 1);
      let ms = 0;
      const commits: SessionEventT[][] = [];
      const ticks: (() => void)[] = [];
      const failures: number[] = [];
      const log = new EventLog(
        store.db,
        new FakeClock(),
        (evs) => commits.push([...evs]),
        (fn) => ticks.push(fn),
        (_err, lost) => failures.push(lost),
        { ms: 3, now: () => ms++ },
      );
      const runTick = () => ticks.splice(0).forEach((fn) => fn());
      return { store, log, commits, ticks, runTick, failures };
    }

    it('commits what it wrote, tells subscribers, and leaves the rest in order for the next turn', () => {
      const { log, commits, ticks, runTick, store } = sliced();
      for (let i = 1; i <= 7; i++) log.append(i % 2 ? 'a' : 'b', 'notice', { text: String(i) });
      runTick();
      expect(commits.map((c) => c.map((e) => e.payload))).toEqual([[{ text: '1' }, { text: '2' }, { text: '3' }]]);
      expect(store.sessions.get('a')?.last_seq).toBe(2);
      expect(store.sessions.get('b')?.last_seq).toBe(1);
      expect(log.committedSeq('a')).toBe(2);
      expect(log.lastSeq('a')).toBe(4);
      expect(ticks).toHaveLength(1);
      runTick();
      runTick();
      expect(ticks).toHaveLength(0);
      expect(commits.flat().map((e) => e.payload)).toEqual([1, 2, 3, 4, 5, 6, 7].map((i) => ({ text: String(i) })));
      expect(log.events.pageAfter('a', 0, 10).events.map((e) => e.seq)).toEqual([1, 2, 3, 4]);
      expect(log.events.pageAfter('b', 0, 10).events.map((e) => e.seq)).toEqual([1, 2, 3]);
    });

    it('joins a chunk to one still queued, never to one already written', () => {
      const { log, commits, runTick } = sliced();
      log.append('a', 'notice', { text: 'n1' });
      log.append('a', 'notice', { text: 'n2' });
      log.append('b', 'agent_message', { text: 'b-written' });
      log.append('a', 'agent_message', { text: 'a-queued' });
      runTick();
      expect(log.append('b', 'agent_message', { text: '+b' })).toBe(2);
      expect(log.append('a', 'agent_message', { text: '+a' })).toBe(3);
      runTick();
      expect(commits.flat().map((e) => [e.sessionId, e.seq, e.payload])).toEqual([
        ['a', 1, { text: 'n1' }],
        ['a', 2, { text: 'n2' }],
        ['b', 1, { text: 'b-written' }],
        ['a', 3, { text: 'a-queued+a' }],
        ['b', 2, { text: '+b' }],
      ]);
    });

    it('still reports activity of events left queued, and none once they are written', () => {
      const { log, runTick } = sliced();
      for (let i = 0; i < 3; i++) log.append('a', 'notice', { text: String(i) });
      log.append('b', 'user_message', { text: 'hi' });
      runTick();
      expect(log.pendingActivityAt('b')).toBeDefined();
      runTick();
      expect(log.pendingActivityAt('b')).toBeUndefined();
    });

    it('commits once it indexed a few long parts for search, and leaves the rest for the next turn', () => {
      const store = tempStore(cleanups);
      for (const id of ['a', 'b', 'c']) store.sessions.insert({ id, agent_id: 'demo', cwd: '/', state: 'CREATED' }, 1);
      const commits: SessionEventT[][] = [];
      const ticks: (() => void)[] = [];
      // Time never runs out: only the indexed text ends a write.
      const log = new EventLog(store.db, new FakeClock(), (evs) => commits.push([...evs]), (fn) => ticks.push(fn), () => {}, { ms: 1e9, now: () => 0 });
      const long = 'word '.repeat(8_000);
      for (const id of ['a', 'b', 'c']) {
        log.append(id, 'agent_message', { text: long });
        log.append(id, 'turn_ended', { stopReason: 'end_turn' });
      }
      ticks.splice(0).forEach((fn) => fn());
      // Each chunk of 40,000 characters is a whole part, indexed as it is stored: after two the write commits.
      expect(commits.map((c) => c.map((e) => `${e.sessionId}${e.seq}`))).toEqual([['a1', 'a2', 'b1']]);
      ticks.splice(0).forEach((fn) => fn());
      expect(commits.map((c) => c.map((e) => `${e.sessionId}${e.seq}`))).toEqual([['a1', 'a2', 'b1'], ['b2', 'c1', 'c2']]);
      // An explicit flush is never cut.
      for (const id of ['a', 'b', 'c']) {
        log.append(id, 'agent_message', { text: long });
        log.append(id, 'turn_ended', { stopReason: 'end_turn' });
      }
      log.flush();
      expect(commits.at(-1)).toHaveLength(6);
    });

    it('writes everything at once on an explicit flush', () => {
      const { log, commits, ticks } = sliced();
      for (let i = 0; i < 10; i++) log.append('a', 'notice', { text: String(i) });
      log.flush();
      expect(commits).toHaveLength(1);
      expect(commits[0]).toHaveLength(10);
      ticks.splice(0).forEach((fn) => fn());
      expect(commits).toHaveLength(1);
    });

    it('drops what is queued behind a failed write too, so seqs stay gap-free', () => {
      const { log, commits, runTick, store, failures } = sliced();
      for (let i = 0; i < 5; i++) log.append('a', 'notice', { text: String(i) });
      runTick();
      expect(commits.flat()).toHaveLength(3);
      store.db.exec(`CREATE TRIGGER refuse BEFORE INSERT ON events BEGIN SELECT RAISE(ABORT, 'disk full'); END`);
      runTick();
      expect(failures).toEqual([2]);
      store.db.exec(`DROP TRIGGER refuse`);
      expect(log.append('a', 'notice', { text: 'after' })).toBe(4);
      runTick();
      expect(log.events.pageAfter('a', 0, 10).events.map((e) => e.seq)).toEqual([1, 2, 3, 4]);
    });
  });
});
