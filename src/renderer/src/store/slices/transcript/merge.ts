import type { SessionEventT } from '../../../../../shared/contract';

/**
 * The loaded part of one session's transcript. Invariant: `events` is sorted by seq and has no
 * holes, so the event with seq `s` sits at index `s - oldestSeq`: keyed by seq without a Map
 * that would have to be copied on every streamed chunk.
 *
 * Live appends are O(1): `applyLiveEvent` pushes onto the same array (see `appendInPlace`), so
 * `events` keeps its identity while `lastSeq` moves. A snapshot owns only its first
 * `eventCount(t)` entries; a later snapshot may have pushed more onto the shared array. Code
 * that compares two snapshots (subscribers, `RowGrouper`) must go by `eventCount` / `lastSeq`,
 * never by `events.length` or array identity. The current state's `events.length` is exact.
 * Anything that is not an append (a page, an eviction) builds a new array, so the indices of
 * an older snapshot stay valid.
 */
export interface TranscriptData {
  readonly events: readonly SessionEventT[];
  /** Highest seq applied; 0 when nothing is loaded. Catch-up asks for events after it. */
  readonly lastSeq: number;
  readonly oldestSeq: number | undefined;
  /** The host has events before `oldestSeq` (from the last page's `hasMore`). */
  readonly hasOlder: boolean;
}

/** Frozen, so an append never pushes onto the shared empty array. */
const NO_EVENTS: readonly SessionEventT[] = Object.freeze([]);

export const emptyTranscriptData: TranscriptData = {
  events: NO_EVENTS,
  lastSeq: 0,
  oldestSeq: undefined,
  hasOlder: false,
};

type LiveOutcome = 'appended' | 'duplicate' | 'gap';

/** How many events snapshot `t` holds (its `events` array may be longer; see TranscriptData). */
export function eventCount(t: TranscriptData): number {
  return t.oldestSeq === undefined || t.events.length === 0 ? 0 : t.lastSeq - t.oldestSeq + 1;
}

/** The events `t` owns, exactly: the array itself unless a later snapshot appended to it. */
export function ownEvents(t: TranscriptData): readonly SessionEventT[] {
  const n = eventCount(t);
  return t.events.length === n ? t.events : t.events.slice(0, n);
}

/**
 * `events` plus `e`: pushed onto the same array when `t` is its newest snapshot (O(1)
 * amortised), copied only when that is not safe (the frozen empty array, or a stale snapshot
 * that another append already extended).
 */
function appendInPlace(t: TranscriptData, e: SessionEventT): readonly SessionEventT[] {
  const n = eventCount(t);
  if (n === 0) return [e];
  if (t.events.length !== n || Object.isFrozen(t.events)) return [...t.events.slice(0, n), e];
  (t.events as SessionEventT[]).push(e);
  return t.events;
}

/** The fast path for a pushed event: O(1) decisions, O(1) amortised append. */
export function applyLiveEvent(
  t: TranscriptData,
  e: SessionEventT,
): { data: TranscriptData; outcome: LiveOutcome } {
  if (e.seq <= t.lastSeq) return { data: t, outcome: 'duplicate' };
  if (e.seq !== t.lastSeq + 1) return { data: t, outcome: 'gap' };
  return {
    data: {
      ...t,
      events: appendInPlace(t, e),
      lastSeq: e.seq,
      oldestSeq: t.oldestSeq ?? e.seq,
    },
    outcome: 'appended',
  };
}

/**
 * Merges a batch (a page, a catch-up, or events buffered during a load) in any order. Only
 * events that extend the loaded run without a hole are kept: older ones must reach down from
 * `oldestSeq`, newer ones up from `lastSeq`. `gap` says newer events were dropped because some
 * seq between is missing, so the caller must catch up from the new `lastSeq`.
 */
export function mergeEvents(
  t: TranscriptData,
  incoming: readonly SessionEventT[],
): { data: TranscriptData; gap: boolean } {
  if (incoming.length === 0) return { data: t, gap: false };
  const sorted = [...incoming].sort((a, b) => a.seq - b.seq);
  let base = ownEvents(t);
  let low = t.oldestSeq;
  let high = t.lastSeq;
  if (base.length === 0 || low === undefined) {
    // Nothing loaded: the run starts at the lowest incoming seq.
    const first = sorted[0] as SessionEventT;
    base = [first];
    low = first.seq;
    high = first.seq;
  }

  const prepend: SessionEventT[] = [];
  let wantOlder = low - 1;
  for (let i = sorted.length - 1; i >= 0; i--) {
    const e = sorted[i] as SessionEventT;
    if (e.seq >= low || e.seq > wantOlder) continue;
    if (e.seq < wantOlder) break;
    prepend.push(e);
    wantOlder--;
  }
  prepend.reverse();

  const append: SessionEventT[] = [];
  let wantNewer = high + 1;
  let gap = false;
  for (const e of sorted) {
    if (e.seq < wantNewer) continue;
    if (e.seq > wantNewer) {
      gap = true;
      break;
    }
    append.push(e);
    wantNewer++;
  }

  if (prepend.length === 0 && append.length === 0 && eventCount(t) > 0) return { data: t, gap };
  // A catch-up that only extends the newest snapshot appends in place, like a live event.
  const inPlace = prepend.length === 0 && base === t.events && !Object.isFrozen(base);
  const events = inPlace ? base : [...prepend, ...base, ...append];
  if (inPlace) for (const e of append) (base as SessionEventT[]).push(e);
  return {
    data: {
      ...t,
      events,
      oldestSeq: (events[0] as SessionEventT).seq,
      lastSeq: (events[events.length - 1] as SessionEventT).seq,
    },
    gap,
  };
}

/** Applies an older page (`transcript:page` with `beforeSeq`): its `hasMore` is about older. */
export function applyOlderPage(
  t: TranscriptData,
  page: { events: readonly SessionEventT[]; hasMore: boolean },
): TranscriptData {
  const { data } = mergeEvents(t, page.events);
  // A page that no longer reaches the run (the oldest events were evicted while it loaded)
  // says nothing about what lies before `oldestSeq` now.
  if (data === t && page.events.length > 0) return t;
  return { ...data, hasOlder: page.events.length > 0 && page.hasMore };
}

/**
 * Drops the oldest events once more than `cap` are loaded, down to `keep` (below `cap`, so
 * the copy and the regroup it causes happen once per `cap - keep` appends, not per event).
 * The dropped ones are still on the host: `hasOlder` is set and `loadOlder` fetches them again.
 */
export function evictOldest(t: TranscriptData, cap: number, keep: number): TranscriptData {
  const n = eventCount(t);
  if (n <= cap || t.oldestSeq === undefined) return t;
  const drop = n - Math.max(1, Math.min(keep, cap));
  return { ...t, events: t.events.slice(drop, n), oldestSeq: t.oldestSeq + drop, hasOlder: true };
}
