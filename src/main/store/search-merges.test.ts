import { afterEach, describe, expect, it } from 'vitest';
import { EventLog } from './event-log';
import { SearchMerges } from './search-merges';
import { FakeClock } from '../test-support/fake-clock';
import { tempStore } from '../test-support/temp-store';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

function setup() {
  const store = tempStore(cleanups);
  const clock = new FakeClock();
  store.sessions.insert({ id: 's', agent_id: 'demo', cwd: '/', state: 'ACTIVE' }, clock.now());
  const writes: (() => void)[] = [];
  const log = new EventLog(store.db, clock, () => {}, (fn) => writes.push(fn));
  const steps: (() => void)[] = [];
  const merges = new SearchMerges(store.db, (fn) => steps.push(fn));
  /** One write transaction of `n` prompts, then one batch that indexes them (each its own index row): one segment. */
  let next = 0;
  const write = (n: number) => {
    for (let i = 0; i < n; i++, next++) log.append('s', 'user_message', { text: `prompt number${next} about walrus${next % 7}` });
    writes.splice(0).forEach((fn) => fn());
    log.search.indexWaiting();
  };
  const segments = () => (store.db.prepare(`SELECT COUNT(DISTINCT segid) AS n FROM search_index_idx`).get() as { n: number }).n;
  const config = (key: string) => (store.db.prepare(`SELECT v FROM search_index_config WHERE k = ?`).get(key) as { v: number } | undefined)?.v;
  return { store, log, merges, steps, write, segments, config };
}

describe('search index merges', () => {
  it('turns FTS5 automatic merges off (kept in the database) and crisis merges out of the way', () => {
    const { config } = setup();
    expect(config('automerge')).toBe(0);
    expect(config('crisismerge')).toBe(64);
  });

  it('merges what the writes left, a step per turn, until FTS5 has nothing left; the index answers as before', () => {
    const { log, merges, steps, write, segments } = setup();
    // Sixty transactions: sixty segments, none merged inside a commit.
    for (let t = 0; t < 60; t++) write(20);
    const unmerged = segments();
    expect(unmerged).toBeGreaterThanOrEqual(60);
    merges.noteWrite();
    merges.noteWrite();
    // One step queued however often it is asked for.
    expect(steps).toHaveLength(1);
    let turns = 0;
    for (let fn = steps.shift(); fn; fn = steps.shift()) {
      fn();
      turns++;
    }
    expect(turns).toBeGreaterThan(1);
    expect(segments()).toBeLessThan(unmerged / 4);
    expect(merges.step()).toBe(false);
    expect(log.search.search('number1199', 5).matches[0]?.hits.map((h) => h.seq)).toEqual([1_200]);
    expect(log.search.search('walrus3', 5).matches[0]?.more).toBe(true);
  });

  it('takes no step for a commit that wrote no index row, given the count of rows written', () => {
    const { store, log, write } = setup();
    const steps: (() => void)[] = [];
    const merges = new SearchMerges(store.db, (fn) => steps.push(fn), () => {}, () => log.search.rowsWritten);
    write(3);
    merges.noteWrite();
    expect(steps).toHaveLength(1);
    steps.splice(0).forEach((fn) => fn());
    // A stream's chunks wait for the index (`SearchIndex.add`): storing them writes no row.
    log.append('s', 'agent_message', { text: 'streaming' });
    log.flush();
    merges.noteWrite();
    expect(steps).toHaveLength(0);
    // Nor does its end, nor the next prompt: they wait for a batch (ADR 0034).
    log.append('s', 'user_message', { text: 'next' });
    log.flush();
    merges.noteWrite();
    expect(steps).toHaveLength(0);
    // The batch does.
    expect(log.search.indexWaiting()).toBe(2);
    merges.noteWrite();
    expect(steps).toHaveLength(1);
  });

  it('runs what waits for the merges once the steps have nothing left, and at once when none run', () => {
    const { merges, steps, write, segments } = setup();
    const ran: number[] = [];
    merges.whenMerged(() => ran.push(segments()));
    expect(steps).toHaveLength(1);
    steps.shift()!();
    expect(ran).toHaveLength(1);
    for (let t = 0; t < 40; t++) write(20);
    merges.noteWrite();
    merges.whenMerged(() => ran.push(segments()));
    let turns = 0;
    for (let fn = steps.shift(); fn; fn = steps.shift()) {
      fn();
      turns++;
    }
    // It ran after the last step, on a turn of its own, with the index merged.
    expect(turns).toBeGreaterThan(2);
    expect(ran).toHaveLength(2);
    expect(ran[1]).toBeLessThan(10);
    expect(merges.step()).toBe(false);
  });

  it('stops stepping once disposed', () => {
    const { merges, steps, write } = setup();
    for (let t = 0; t < 20; t++) write(5);
    merges.noteWrite();
    merges.dispose();
    steps.splice(0).forEach((fn) => fn());
    expect(steps).toHaveLength(0);
    merges.noteWrite();
    expect(steps).toHaveLength(0);
  });
});
