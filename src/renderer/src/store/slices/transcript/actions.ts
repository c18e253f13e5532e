import type { SessionEventT, WireError } from '../../../../../shared/contract';
import type { GetState, SetState } from '../../app-store';
import { DEFAULT_PAGE_SIZE, DEFAULT_TRANSCRIPT_CAP, type StoreDeps } from '../../deps';
import { coalesced } from '../../frame';
import type { TranscriptView } from './initial-state';
import { applyLiveEvent, applyOlderPage, emptyTranscriptData, evictOldest, mergeEvents } from './merge';
import { RowGrouper } from './rows';

export interface TranscriptActions {
  /** Empties the transcript for a session about to load; returns the load's token. */
  beginTranscript(sessionId: string): number;
  failTranscript(token: number, error: WireError): void;
  /**
   * Newest page, merged with events pushed meanwhile; catches up if the host is further on.
   * `switched`: the page of a switch, whose answer said `hostLastSeq`: what the page holds past
   * it reached the view while it loaded, and is announced as news (`newsAfter`).
   */
  loadNewestPage(token: number, hostLastSeq: number, options?: { switched: boolean }): Promise<void>;
  loadOlder(): Promise<void>;
  /** A pushed `session:event`: append, ignore a duplicate, or catch up over a gap. */
  receiveEvent(event: SessionEventT): void;
  /** Fetches everything after lastSeq (`transcript:since`, looping while hasMore). */
  catchUp(): Promise<void>;
  /**
   * The view reports whether it is at the bottom. Returning there evicts what older pages
   * loaded past the cap while the user was reading them.
   */
  setFollowing(following: boolean): void;
  /**
   * Loads the page around `seq` instead of the newest (a search hit), and asks the view to
   * scroll to it. Newer events are loaded on request (`loadNewer`, `showLatest`).
   */
  loadAround(token: number, seq: number, hostLastSeq: number): Promise<void>;
  loadNewer(): Promise<void>;
  /** Back to the newest page, following the stream. */
  showLatest(): Promise<void>;
  /** Scrolls the view to a loaded event (a search hit in what is already shown). */
  focusSeq(seq: number): void;
  /** The view scrolled to the focus `nonce`: it stays marked, and the view may follow again. */
  focusApplied(nonce: number): void;
}

export function createTranscriptActions(set: SetState, get: GetState, deps: StoreDeps): TranscriptActions {
  const { api } = deps;
  const limit = deps.pageSize ?? DEFAULT_PAGE_SIZE;
  const cap = Math.max(1, deps.transcriptCap ?? DEFAULT_TRANSCRIPT_CAP);
  // Evicting down to a fifth below the cap makes the copy and the regroup it costs happen once
  // per cap/5 appended events, not on every one.
  const keep = cap - Math.max(1, Math.floor(cap / 5));
  let nextToken = 1;
  let nextFocus = 1;
  // One catch-up at a time; a request for another while one runs makes it loop once more.
  let catchingUp = false;
  let catchUpAgain = false;
  // Rows follow every change of the events; appends are folded in O(1) per event.
  const grouper = new RowGrouper();

  /** The way the transcript is replaced with its rows in step (live appends: see commitLive). */
  const commit = (next: Omit<TranscriptView, 'rows'>): void => {
    set({ transcript: { ...next, rows: grouper.update(next.events) } });
  };

  /** Brings the rows up to the events, once per scheduled run (paced); a `commit` meanwhile already did. */
  const regroupAtFrame = deps.scheduleFrame
    ? coalesced(deps.scheduleFrame, () => {
        const t = get().transcript;
        const rows = grouper.update(t.events);
        if (rows !== t.rows) set({ transcript: { ...t, rows } });
      }, deps.rowsPace)
    : undefined;

  /**
   * A live append: the events are the store's at once (seq checks, catch-up and announcements
   * see them), the rows the view renders follow at the next frame. Nothing is dropped or
   * reordered: the frame folds every event appended since the last fold, in seq order.
   * `urgent` (the first words of an answer) regroups at once, at most once between frames: the
   * person waiting for them does not also wait for the next frame.
   */
  const commitLive = (next: Omit<TranscriptView, 'rows'>, urgent: boolean): void => {
    if (!regroupAtFrame) return commit(next);
    set({ transcript: { ...next, rows: get().transcript.rows } });
    if (urgent) regroupAtFrame.now();
    else regroupAtFrame.later();
  };

  /** Keeps at most `cap` events while the view follows the stream; never while scrolled up. */
  const bounded = <T extends Omit<TranscriptView, 'rows'>>(t: T): T =>
    t.following ? { ...t, ...evictOldest(t, cap, keep) } : t;

  const patch = (token: number, change: Partial<Omit<TranscriptView, 'rows'>>): boolean => {
    const t = get().transcript;
    if (t.token !== token) return false;
    commit({ ...t, ...change });
    return true;
  };

  const added = (events: readonly SessionEventT[]): void => {
    for (const e of events) {
      if (e.kind === 'user_message') get().promptSeen(e.payload);
      else if (e.kind === 'available_commands') get().commandsSeen(e.sessionId, e.seq, e.payload.commands);
    }
  };

  return {
    beginTranscript(sessionId) {
      const token = nextToken++;
      commit({
        ...emptyTranscriptData,
        sessionId,
        token,
        loaded: false,
        loadingOlder: false,
        buffer: [],
        error: undefined,
        following: true,
        hasNewer: false,
        loadingNewer: false,
        focus: undefined,
        newsAfter: undefined,
      });
      return token;
    },

    failTranscript(token, error) {
      patch(token, { error });
    },

    async loadNewestPage(token, hostLastSeq, options) {
      const sessionId = get().transcript.sessionId;
      if (!sessionId || get().transcript.token !== token) return;
      patch(token, { error: undefined });
      // Prompts accepted by now are stored on the host: this page or the catch-up has them.
      const accepted = get().acceptedPromptIds(sessionId);
      const res = await api['transcript:page']({ sessionId, limit });
      const t = get().transcript;
      if (t.token !== token) return;
      if (!res.ok) {
        patch(token, { error: res.error });
        return;
      }
      // Events pushed before this page answered overlap it or follow it; merge by seq.
      const { data, gap } = mergeEvents(emptyTranscriptData, [...res.value.events, ...t.buffer]);
      const hasOlder = res.value.hasMore && res.value.events.length > 0;
      commit({ ...t, ...data, hasOlder, loaded: true, buffer: [], error: undefined, newsAfter: options?.switched ? hostLastSeq : undefined });
      added(data.events);
      get().dropPrompts(accepted);
      if (gap || data.lastSeq < hostLastSeq) await get().catchUp();
    },

    async loadOlder() {
      const t = get().transcript;
      if (!t.sessionId || !t.loaded || t.loadingOlder || !t.hasOlder || t.oldestSeq === undefined) return;
      const token = t.token;
      patch(token, { loadingOlder: true });
      const res = await api['transcript:page']({ sessionId: t.sessionId, beforeSeq: t.oldestSeq, limit });
      const now = get().transcript;
      if (now.token !== token) return;
      if (!res.ok) {
        patch(token, { loadingOlder: false });
        if (res.error.code !== 'disconnected') get().pushNotice(`Could not load older messages: ${res.error.message}`);
        return;
      }
      const next = applyOlderPage(now, res.value);
      commit({ ...now, ...next, loadingOlder: false });
      if (next.oldestSeq !== now.oldestSeq) added(next.events.slice(0, next.events.length - now.events.length));
    },

    receiveEvent(event) {
      const t = get().transcript;
      if (event.sessionId !== t.sessionId || event.sessionId !== get().currentSessionId) return;
      // Past the end of what is loaded: `loadNewer` reads it from the store when it gets there.
      if (t.hasNewer) return;
      if (!t.loaded) {
        commit({ ...t, buffer: [...t.buffer, event] });
        return;
      }
      // Read before the append (it extends the array in place): an answer's text after anything
      // but more of it starts a new bubble, its first words.
      const firstWords = event.kind === 'agent_message' && t.events.at(-1)?.kind !== 'agent_message';
      const { data, outcome } = applyLiveEvent(t, event);
      if (outcome === 'appended') {
        // A prompt this window shows while it is sent gives way to its stored row at once (the
        // store's two changes, one render): a frame with neither would flicker, and drop the
        // keyboard's focus from it.
        const id = event.kind === 'user_message' ? event.payload.clientMessageId : undefined;
        if (id !== undefined && get().pendingSends.has(id)) commit(bounded({ ...t, ...data }));
        else commitLive(bounded({ ...t, ...data }), firstWords);
        added([event]);
      } else if (outcome === 'gap') {
        void get().catchUp();
      }
    },

    setFollowing(following) {
      const t = get().transcript;
      if (t.following === following) return;
      commit(bounded({ ...t, following }));
    },

    async loadAround(token, seq, hostLastSeq) {
      const sessionId = get().transcript.sessionId;
      if (!sessionId || get().transcript.token !== token) return;
      const half = Math.floor(limit / 2);
      // Near the end anyway: the usual newest page, which keeps following the stream.
      if (seq + half >= hostLastSeq) {
        await get().loadNewestPage(token, hostLastSeq);
        get().focusSeq(seq);
        return;
      }
      const res = await api['transcript:page']({ sessionId, beforeSeq: seq + half + 1, limit });
      const t = get().transcript;
      if (t.token !== token) return;
      if (!res.ok) {
        patch(token, { error: res.error });
        return;
      }
      // What was pushed meanwhile is newer than this page: dropped, read again by loadNewer.
      const { data } = mergeEvents(emptyTranscriptData, res.value.events);
      commit({
        ...t,
        ...data,
        hasOlder: res.value.hasMore && res.value.events.length > 0,
        hasNewer: true,
        loaded: true,
        buffer: [],
        error: undefined,
        following: false,
        focus: { seq, nonce: nextFocus++, applied: false },
      });
      added(data.events);
    },

    async loadNewer() {
      const t = get().transcript;
      if (!t.sessionId || !t.loaded || !t.hasNewer || t.loadingNewer) return;
      const token = t.token;
      patch(token, { loadingNewer: true });
      const res = await api['transcript:since']({ sessionId: t.sessionId, afterSeq: t.lastSeq, limit });
      const now = get().transcript;
      if (now.token !== token) return;
      if (!res.ok) {
        patch(token, { loadingNewer: false });
        if (res.error.code !== 'disconnected') get().pushNotice(`Could not load newer messages: ${res.error.message}`);
        return;
      }
      const { data } = mergeEvents(now, res.value.events);
      const hasNewer = res.value.hasMore && data.lastSeq > now.lastSeq;
      commit({ ...now, ...data, hasNewer, loadingNewer: false });
      added(res.value.events.filter((e) => e.seq > now.lastSeq));
      // At the end now: events pushed while they were not applied are read once more.
      if (!hasNewer) await get().catchUp();
    },

    async showLatest() {
      const { sessionId } = get().transcript;
      if (!sessionId) return;
      const token = get().beginTranscript(sessionId);
      // The host keeps this window watching: pushed events buffer until the page is in.
      await get().loadNewestPage(token, 0);
    },

    focusSeq(seq) {
      const t = get().transcript;
      commit({ ...t, focus: { seq, nonce: nextFocus++, applied: false } });
    },

    focusApplied(nonce) {
      const t = get().transcript;
      if (t.focus?.nonce === nonce && !t.focus.applied) commit({ ...t, focus: { ...t.focus, applied: true } });
    },

    async catchUp() {
      if (catchingUp) {
        catchUpAgain = true;
        return;
      }
      catchingUp = true;
      try {
        do {
          catchUpAgain = false;
          let hasMore = true;
          while (hasMore) {
            const t = get().transcript;
            // Before the newest page lands, that load merges whatever is pushed meanwhile; a view
            // that stops short of the newest events loads them only on request.
            if (!t.sessionId || !t.loaded || t.hasNewer) return;
            const res = await api['transcript:since']({ sessionId: t.sessionId, afterSeq: t.lastSeq });
            const now = get().transcript;
            if (now.token !== t.token) {
              catchUpAgain = true;
              break;
            }
            // A dropped link is caught up by resubscribe() once it is back.
            if (!res.ok) return;
            const { data } = mergeEvents(now, res.value.events);
            if (data !== now) {
              commit(bounded({ ...now, ...data }));
              added(res.value.events.filter((e) => e.seq > now.lastSeq));
            }
            // No progress means the host has nothing newer after all; do not spin.
            hasMore = res.value.hasMore && data.lastSeq > now.lastSeq;
          }
        } while (catchUpAgain);
      } finally {
        catchingUp = false;
      }
    },
  };
}
