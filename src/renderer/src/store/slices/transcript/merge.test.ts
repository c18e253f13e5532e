import { describe, expect, it } from 'vitest';
import { ev, range } from '../../test/fake-api';
import { applyLiveEvent, applyOlderPage, emptyTranscriptData, mergeEvents, type TranscriptData } from './merge';

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
