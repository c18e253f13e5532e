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

  it('arms nothing when nothing waits: a message that ended is indexed with its end', async () => {
    const { clock, log, runTurns, rows, indexed } = setup();
    log.append('a', 'agent_message', { text: 'short' });
    log.append('a', 'turn_ended', { stopReason: 'end_turn' });
    log.append('a', 'user_message', { text: 'next' });
    runTurns();
    expect(rows()).toEqual([1, 3]);
    await clock.advance(2 * TAIL_MS);
    runTurns();
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
