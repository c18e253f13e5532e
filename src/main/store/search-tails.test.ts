import { afterEach, describe, expect, it } from 'vitest';
import { EventLog, type Schedule } from './event-log';
import { SearchTails, TAIL_MS } from './search-tails';
import { WriteGate } from './write-gate';
import { FakeClock } from '../test-support/fake-clock';
import { tempStore } from '../test-support/temp-store';
import { TimerQueue } from '../util/timer-queue';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

/** An event log whose writes and tail indexing run on turns the test runs, behind a write gate. */
function setup() {
  const store = tempStore(cleanups);
  const clock = new FakeClock();
  const timers = new TimerQueue(clock);
  cleanups.push(() => timers.dispose());
  const turns: (() => void)[] = [];
  const later: Schedule = (fn) => turns.push(fn);
  const gate = new WriteGate(later);
  const runTurns = () => {
    while (turns.length > 0) turns.splice(0).forEach((fn) => fn());
  };
  const indexed: number[] = [];
  const errors: unknown[] = [];
  const holder: { tails?: SearchTails } = {};
  const log = new EventLog(store.db, clock, () => holder.tails?.noteWrite(), gate.schedule(), (err) => errors.push(err));
  const tails = new SearchTails({
    index: log.search,
    timers,
    clock,
    schedule: gate.schedule(),
    onIndexed: () => indexed.push(clock.now()),
    onError: (err) => errors.push(err),
  });
  holder.tails = tails;
  store.sessions.insert({ id: 'a', agent_id: 'demo', cwd: '/', state: 'CREATED' }, clock.now());
  const rows = () => store.db.prepare(`SELECT seq FROM search_docs ORDER BY seq`).pluck().all();
  return { store, clock, gate, log, tails, runTurns, rows, indexed, errors };
}

describe('search tails', () => {
  it('indexes the chunks that wait TAIL_MS after the write that left them, not before', async () => {
    const { clock, log, runTurns, rows, indexed, errors } = setup();
    const t0 = clock.now();
    log.append('a', 'agent_message', { text: 'streaming ' });
    runTurns();
    await clock.advance(TAIL_MS / 2);
    log.append('a', 'agent_message', { text: 'answer' });
    runTurns();
    await clock.advance(TAIL_MS / 2 - 1);
    runTurns();
    expect(rows()).toEqual([]);
    // One timer from the first write: the text of both writes is indexed as one row then.
    await clock.advance(1);
    runTurns();
    expect(rows()).toEqual([1]);
    expect(indexed).toEqual([t0 + TAIL_MS]);
    // Nothing waits: no timer, no second row.
    await clock.advance(10 * TAIL_MS);
    runTurns();
    expect(indexed).toHaveLength(1);
    expect(errors).toEqual([]);
  });

  it('indexes the turns of many sessions TAIL_MS after the first write, as one batch', async () => {
    const { store, clock, log, runTurns, rows, indexed } = setup();
    for (const id of ['b', 'c']) store.sessions.insert({ id, agent_id: 'demo', cwd: '/', state: 'CREATED' }, clock.now());
    const t0 = clock.now();
    for (const id of ['a', 'b', 'c']) {
      log.append(id, 'user_message', { text: `prompt of ${id}` });
      log.append(id, 'agent_message', { text: `answer of ${id}` });
      log.append(id, 'turn_ended', { stopReason: 'end_turn' });
      log.append(id, 'user_message', { text: `next prompt of ${id}` });
      runTurns();
      await clock.advance(TAIL_MS / 4);
    }
    // Stored, not indexed: the prompts and the answers they ended wait, durably.
    expect(rows()).toEqual([]);
    expect(store.db.prepare(`SELECT COUNT(*) FROM search_waiting`).pluck().get()).toBe(9);
    await clock.advance(TAIL_MS / 4);
    runTurns();
    expect(rows()).toEqual([1, 1, 1, 2, 2, 2, 4, 4, 4]);
    expect(indexed).toEqual([t0 + TAIL_MS]);
    expect(store.db.prepare(`SELECT COUNT(*) FROM search_waiting`).pluck().get()).toBe(0);
  });

  it('arms nothing when nothing waits', async () => {
    const { clock, log, runTurns, rows, indexed } = setup();
    log.append('a', 'turn_started', {});
    log.append('a', 'turn_ended', { stopReason: 'end_turn' });
    runTurns();
    await clock.advance(2 * TAIL_MS);
    runTurns();
    expect(rows()).toEqual([]);
    expect(indexed).toEqual([]);
  });

  it('waits for a held write gate, and indexes once it is released', async () => {
    const { clock, gate, log, runTurns, rows } = setup();
    log.append('a', 'agent_message', { text: 'held' });
    runTurns();
    gate.hold();
    await clock.advance(TAIL_MS);
    runTurns();
    expect(rows()).toEqual([]);
    gate.release();
    runTurns();
    expect(rows()).toEqual([1]);
  });

  it('does nothing once disposed', async () => {
    const { clock, log, tails, runTurns, rows } = setup();
    log.append('a', 'agent_message', { text: 'late' });
    runTurns();
    tails.dispose();
    await clock.advance(2 * TAIL_MS);
    runTurns();
    expect(rows()).toEqual([]);
  });
});
