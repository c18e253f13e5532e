import { describe, expect, it } from 'vitest';
import { ev, range } from '../../../test-support/fake-api';
import {
  applyLiveEvent,
  applyOlderPage,
  emptyTranscriptData,
  eventCount,
  evictOldest,
  mergeEvents,
  ownEvents,
  type TranscriptData,
} from './merge';

const seqs = (t: TranscriptData) => t.events.map((e) => e.seq);

function loaded(from: number, to: number, hasOlder = false): TranscriptData {
  return { ...mergeEvents(emptyTranscriptData, range(from, to)).data, hasOlder };
}

describe('applyLiveEvent', () => {
  it('appends the next seq', () => {
    const { data, outcome } = applyLiveEvent(loaded(1, 3), ev(4));
    expect(outcome).toBe('appended');
    expect(seqs(data)).toEqual([1, 2, 3, 4]);
    expect(data.lastSeq).toBe(4);
  });

  it('appends seq 1 to an empty transcript', () => {
    const { data, outcome } = applyLiveEvent(emptyTranscriptData, ev(1));
    expect(outcome).toBe('appended');
    expect(data.oldestSeq).toBe(1);
  });

  it('ignores a duplicate and leaves the state untouched', () => {
    const t = loaded(1, 3);
    const { data, outcome } = applyLiveEvent(t, ev(2));
    expect(outcome).toBe('duplicate');
    expect(data).toBe(t);
  });

  it('reports a gap without storing the event past it', () => {
    const t = loaded(1, 3);
    const { data, outcome } = applyLiveEvent(t, ev(5));
    expect(outcome).toBe('gap');
    expect(data).toBe(t);
  });
});

describe('mergeEvents', () => {
  it('seeds an empty transcript from an unordered batch with duplicates', () => {
    const { data, gap } = mergeEvents(emptyTranscriptData, [ev(3), ev(1), ev(2), ev(2), ev(4)]);
    expect(seqs(data)).toEqual([1, 2, 3, 4]);
    expect(data).toMatchObject({ oldestSeq: 1, lastSeq: 4 });
    expect(gap).toBe(false);
  });

  it('merges a newest page with events pushed while it loaded, without duplicates', () => {
    const page = range(801, 1000);
    const pushed = [ev(999), ev(1000), ev(1001), ev(1002)];
    const { data, gap } = mergeEvents(emptyTranscriptData, [...page, ...pushed]);
    expect(data.oldestSeq).toBe(801);
    expect(data.lastSeq).toBe(1002);
    expect(new Set(seqs(data)).size).toBe(data.events.length);
    expect(gap).toBe(false);
  });

  it('stops at a hole and reports the gap so the caller catches up', () => {
    const { data, gap } = mergeEvents(loaded(1, 3), [ev(4), ev(6), ev(7)]);
    expect(seqs(data)).toEqual([1, 2, 3, 4]);
    expect(gap).toBe(true);
  });

  it('prepends an older page that arrives in any order', () => {
    const older = range(1, 5).reverse();
    const { data } = mergeEvents(loaded(6, 8), older);
    expect(seqs(data)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('drops an older page that does not reach the loaded run', () => {
    const t = loaded(10, 12);
    const { data } = mergeEvents(t, range(1, 5));
    expect(data).toBe(t);
  });

  it('keeps the loaded run when a page overlaps it on both sides', () => {
    const { data, gap } = mergeEvents(loaded(5, 8), range(3, 10));
    expect(seqs(data)).toEqual([3, 4, 5, 6, 7, 8, 9, 10]);
    expect(gap).toBe(false);
  });

  it('returns the same object when nothing new arrives', () => {
    const t = loaded(1, 4);
    expect(mergeEvents(t, range(2, 3)).data).toBe(t);
  });
});

describe('applyOlderPage', () => {
  it('takes hasOlder from the page', () => {
    const t = loaded(201, 400, true);
    const more = applyOlderPage(t, { events: range(1, 200), hasMore: false });
    expect(more.oldestSeq).toBe(1);
    expect(more.hasOlder).toBe(false);
    expect(applyOlderPage(t, { events: [], hasMore: true }).hasOlder).toBe(false);
  });
});

describe('live appends in place', () => {
  it('pushes onto the same array, and an older snapshot still owns only its own events', () => {
    const t = loaded(1, 3);
    const a = applyLiveEvent(t, ev(4)).data;
    const b = applyLiveEvent(a, ev(5)).data;
    expect(b.events).toBe(t.events);
    expect(seqs(b)).toEqual([1, 2, 3, 4, 5]);
    expect(eventCount(t)).toBe(3);
    expect(ownEvents(t).map((e) => e.seq)).toEqual([1, 2, 3]);
    expect(eventCount(a)).toBe(4);
  });

  it('copies instead when a stale snapshot is appended to, leaving the newer one intact', () => {
    const t = loaded(1, 3);
    const newer = applyLiveEvent(t, ev(4)).data;
    const branch = applyLiveEvent(t, ev(4, 'user_message', { text: 'other' })).data;
    expect(branch.events).not.toBe(t.events);
    expect(branch.events.map((e) => e.kind)).toEqual(['agent_message', 'agent_message', 'agent_message', 'user_message']);
    expect(newer.events[3]?.kind).toBe('agent_message');
    // Merging into the stale snapshot only sees its own events.
    expect(seqs(mergeEvents(t, [ev(4), ev(5)]).data)).toEqual([1, 2, 3, 4, 5]);
  });

  it('never pushes onto the shared empty array', () => {
    const a = applyLiveEvent(emptyTranscriptData, ev(1)).data;
    expect(emptyTranscriptData.events).toHaveLength(0);
    expect(applyLiveEvent(a, ev(2)).data.events).toBe(a.events);
  });

  it('appends a catch-up batch in place too', () => {
    const t = loaded(1, 3);
    const { data } = mergeEvents(t, range(4, 6));
    expect(data.events).toBe(t.events);
    expect(seqs(data)).toEqual([1, 2, 3, 4, 5, 6]);
  });
});

describe('evictOldest', () => {
  it('keeps everything up to the cap', () => {
    const t = loaded(1, 10);
    expect(evictOldest(t, 10, 8)).toBe(t);
  });

  it('drops the oldest events down to keep, in a new array, and marks older ones as loadable', () => {
    const t = loaded(1, 11);
    const e = evictOldest(t, 10, 8);
    expect(seqs(e)).toEqual([4, 5, 6, 7, 8, 9, 10, 11]);
    expect(e).toMatchObject({ oldestSeq: 4, lastSeq: 11, hasOlder: true });
    expect(e.events).not.toBe(t.events);
    expect(seqs(t)).toHaveLength(11);
  });

  it('keeps hasOlder when an older page no longer reaches the evicted run', () => {
    const t = evictOldest(loaded(1, 11), 10, 8);
    expect(applyOlderPage(t, { events: range(1, 2), hasMore: false })).toBe(t);
    const back = applyOlderPage(t, { events: range(1, 3), hasMore: false });
    expect(back).toMatchObject({ oldestSeq: 1, hasOlder: false });
  });
});
