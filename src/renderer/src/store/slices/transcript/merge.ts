import type { SessionEventT } from '../../../../../shared/contract';

/**
 * The loaded part of one session's transcript. Invariant: `events` is sorted by seq and has no
 * holes, so the event with seq `s` sits at index `s - oldestSeq`: keyed by seq without a Map
 * that would have to be copied on every streamed chunk.
 */
export interface TranscriptData {
  readonly events: readonly SessionEventT[];
  /** Highest seq applied; 0 when nothing is loaded. Catch-up asks for events after it. */
  readonly lastSeq: number;
  readonly oldestSeq: number | undefined;
  /** The host has events before `oldestSeq` (from the last page's `hasMore`). */
  readonly hasOlder: boolean;
}

export const emptyTranscriptData: TranscriptData = {
  events: [],
  lastSeq: 0,
  oldestSeq: undefined,
  hasOlder: false,
};

export type LiveOutcome = 'appended' | 'duplicate' | 'gap';

/** The fast path for a pushed event: O(1) decisions, one array copy. */
export function applyLiveEvent(
  t: TranscriptData,
  e: SessionEventT,
): { data: TranscriptData; outcome: LiveOutcome } {
  if (e.seq <= t.lastSeq) return { data: t, outcome: 'duplicate' };
  if (e.seq !== t.lastSeq + 1) return { data: t, outcome: 'gap' };
  return {
    data: {
      ...t,
      events: [...t.events, e],
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
  let base = t.events;
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

  if (prepend.length === 0 && append.length === 0 && base === t.events) return { data: t, gap };
  const events = [...prepend, ...base, ...append];
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
  return { ...data, hasOlder: page.events.length > 0 && page.hasMore };
}
