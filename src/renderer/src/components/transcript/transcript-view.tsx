import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useCallback, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { AppState } from '../../store/app-store';
import { useAppStore, useStoreApi } from '../../store/context';
import { composerSelectors } from '../../store/slices/composer/selectors';
import { sessionsSelectors } from '../../store/slices/sessions/selectors';
import { transcriptSelectors } from '../../store/slices/transcript/selectors';
import { isBlankRow, promptRowKey } from '../../store/slices/transcript/rows';
import { FOCUS_NEWEST_EVENT } from '../../lib/shortcuts';
import { indexOfKey, recalledScroll, rememberScroll } from './scroll-memory';
import { TranscriptRow, type ThoughtState } from './transcript-row';
import { useRowFocusKept } from './use-row-focus-kept';

/** Start loading the previous page this close to the top, before the user hits it. */
const LOAD_OLDER_PX = 400;
/** "At the bottom" tolerance: closer than this keeps following new output. */
const STICK_PX = 32;

/**
 * One row, subscribed to by index: a streaming bubble or an updated tool card re-renders only
 * itself. The list around it re-renders only when rows are added (see RowList.layout).
 */
const TranscriptItem = memo(function TranscriptItem({ index, openThoughts }: { index: number; openThoughts: ThoughtState }) {
  const row = useAppStore(useCallback((s: AppState) => transcriptSelectors.rowAt(s, index), [index]));
  // A whitespace-only message is drawn as nothing (no empty bubble) and the arrow keys skip it.
  if (!row || isBlankRow(row)) return null;
  return (
    // One message, tool call or note: the arrow keys move the focus from one to the next.
    <div className="transcript-row" role="article" tabIndex={-1} data-row={index}>
      <TranscriptRow row={row} openThoughts={openThoughts} />
    </div>
  );
});

/**
 * Scrolls to the event a search hit named once its page is in, and gives the key of its row to
 * mark; `pending` while it is still to be scrolled to (the view must not jump to the end then).
 */
function useFocusedRow(scrollTo: (index: number) => void, onApplied: () => void): { hitKey: string | undefined; pending: boolean } {
  const focus = useAppStore(transcriptSelectors.focus);
  const ready = useAppStore(transcriptSelectors.isReady);
  const index = useAppStore((s) => (focus ? transcriptSelectors.rowIndexOfSeq(s, focus.seq) : undefined));
  const key = useAppStore((s) => (index === undefined ? undefined : s.transcript.rows.layout.keyAt(index)));
  const focusApplied = useAppStore((s) => s.focusApplied);
  useEffect(() => {
    if (!ready || !focus || focus.applied || index === undefined) return;
    onApplied();
    scrollTo(index);
    focusApplied(focus.nonce);
  }, [ready, focus, index, scrollTo, onApplied, focusApplied]);
  return { hitKey: focus?.applied ? key : undefined, pending: focus !== undefined && !focus.applied };
}

/** A prompt being sent keys its row as its stored row will (`promptRowKey`). */
const promptRowKeyOr = (clientMessageId: string | undefined, i: number): string | number => (clientMessageId === undefined ? i : promptRowKey(clientMessageId));

/**
 * The transcript as a virtualised log. The virtualizer is anchored to the end: it follows new
 * rows while the view is at the bottom, leaves the view alone when the user scrolled up, and
 * keeps the visible row in place when an older page is prepended.
 */
export function TranscriptView() {
  const layout = useAppStore(transcriptSelectors.layout);
  const ready = useAppStore(transcriptSelectors.isReady);
  const loadingNewest = useAppStore(transcriptSelectors.isLoadingNewest);
  const hasOlder = useAppStore(transcriptSelectors.hasOlder);
  const loadingOlder = useAppStore(transcriptSelectors.isLoadingOlder);
  const error = useAppStore(transcriptSelectors.error);
  const pendingIds = useAppStore(composerSelectors.pendingIdsForCurrent);
  const creating = useAppStore(sessionsSelectors.isCreatingCurrent);
  const loadOlder = useAppStore((s) => s.loadOlder);
  const setFollowing = useAppStore((s) => s.setFollowing);
  const sessionId = useAppStore((s) => s.transcript.sessionId);
  const hasNewer = useAppStore(transcriptSelectors.hasNewer);
  const loadingNewer = useAppStore(transcriptSelectors.isLoadingNewer);
  const loadNewer = useAppStore((s) => s.loadNewer);
  const showLatest = useAppStore((s) => s.showLatest);

  const count = layout.count + pendingIds.length;
  // Stable between row additions: a new function makes the virtualizer re-measure every row.
  const getItemKey = useCallback(
    (i: number): string | number =>
      i < layout.count ? (layout.keyAt(i) ?? i) : promptRowKeyOr(pendingIds[i - layout.count], i),
    [layout, pendingIds],
  );

  const scrollRef = useRef<HTMLDivElement>(null);
  useRowFocusKept(scrollRef);
  // Which thoughts the user expanded, kept here because virtualised rows unmount off-screen.
  const [openThoughts] = useState<ThoughtState>(() => {
    const open = new Set<string>();
    return { isOpen: (key) => open.has(key), setOpen: (key, value) => void (value ? open.add(key) : open.delete(key)) };
  });
  // eslint-disable-next-line react-hooks/incompatible-library -- no React Compiler here; rows subscribe themselves
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => 64,
    getItemKey,
    overscan: 8,
    paddingStart: 12,
    paddingEnd: 16,
    anchorTo: 'end',
    followOnAppend: true,
    scrollEndThreshold: STICK_PX,
  });

  // Whether the view follows new output. Scroll events come from the user or from the
  // virtualizer keeping the bottom in view; content growing alone fires none.
  const stick = useRef(true);
  const scrollToHit = useCallback((index: number) => virtualizer.scrollToIndex(index, { align: 'center' }), [virtualizer]);
  const stopFollowing = useCallback(() => {
    stick.current = false;
    setFollowing(false);
  }, [setFollowing]);
  const { hitKey, pending: focusPending } = useFocusedRow(scrollToHit, stopFollowing);
  const onScroll = useCallback(() => {
    const el = scrollRef.current;
    if (!el) return;
    stick.current = el.scrollHeight - el.scrollTop - el.clientHeight <= STICK_PX;
    // Read by long messages' segments (markdown.tsx): they keep the view in place only when it does not follow.
    el.dataset.following = String(stick.current);
    // The row at the top is where this session is when the person comes back to it (from the
    // measurements: the rendered items are those of the last render, before this scroll).
    const top = virtualizer.getVirtualItemForOffset(el.scrollTop);
    if (sessionId !== undefined) rememberScroll(sessionId, stick.current || !top ? 'end' : { key: top.key });
    // The store evicts the oldest events past its cap only while the view follows the stream.
    setFollowing(stick.current);
    if (hasOlder && !loadingOlder && el.scrollTop < LOAD_OLDER_PX) void loadOlder();
  }, [hasOlder, loadingOlder, loadOlder, setFollowing, virtualizer, sessionId]);

  // Back to a session scrolled up: to the row that was at the top, if its page is loaded.
  const restored = useRef(false);
  useEffect(() => {
    if (!ready || restored.current || sessionId === undefined) return;
    restored.current = true;
    const mark = recalledScroll(sessionId);
    if (mark === 'end') return;
    const index = indexOfKey(mark.key, count, getItemKey);
    if (index === undefined) return;
    stick.current = false;
    setFollowing(false);
    virtualizer.scrollToIndex(index, { align: 'start' });
  }, [ready, sessionId, count, getItemKey, virtualizer, setFollowing]);

  // Rows that do not fill the view give the user nothing to scroll up with: load more now.
  useEffect(() => {
    const el = scrollRef.current;
    if (ready && el && hasOlder && !loadingOlder && el.scrollHeight <= el.clientHeight) void loadOlder();
  }, [ready, count, hasOlder, loadingOlder, loadOlder]);

  // The first page lands at the bottom, like any chat; later rows keep it there unless the
  // user scrolled up. The virtualizer follows appends and a growing last row itself; this also
  // covers a row that was replaced (an optimistic prompt by its stored event).
  // The total size too: a long message's segments (markdown.tsx) change height above the view
  // when they come near it and are rendered, which must not leave the view behind the end.
  const total = virtualizer.getTotalSize();
  useEffect(() => {
    if (ready && stick.current && !focusPending && count > 0) virtualizer.scrollToEnd();
  }, [ready, layout, pendingIds, count, virtualizer, focusPending, total]);

  const store = useStoreApi();
  /** Focuses row `from`, or the next one with something to show in the direction of `step`; scrolls it in first. */
  const focusRow = useCallback(
    (from: number, step: 1 | -1) => {
      const s = store.getState();
      const total = s.transcript.rows.count + composerSelectors.pendingForCurrent(s).length;
      let i = Math.min(Math.max(from, 0), total - 1);
      for (; i >= 0 && i < total; i += step) {
        const row = transcriptSelectors.rowAt(s, i);
        if (row && !isBlankRow(row)) break;
      }
      if (i < 0 || i >= total) return;
      virtualizer.scrollToIndex(i, { align: 'auto' });
      const focus = (tries: number) => {
        const el = scrollRef.current?.querySelector<HTMLElement>(`[data-row="${i}"]`);
        if (el) el.focus();
        // A row scrolled to is rendered a frame later.
        else if (tries > 0) requestAnimationFrame(() => focus(tries - 1));
      };
      focus(5);
    },
    [store, virtualizer],
  );
  useEffect(() => {
    const el = scrollRef.current;
    const focusNewest = () => focusRow(Number.MAX_SAFE_INTEGER, -1);
    el?.addEventListener(FOCUS_NEWEST_EVENT, focusNewest);
    return () => el?.removeEventListener(FOCUS_NEWEST_EVENT, focusNewest);
  }, [focusRow]);

  /**
   * The transcript's keys (listed in the shortcuts sheet): ↑/↓ move between messages, Home/End
   * to the first and last loaded ones; on a message, Enter opens or closes its details (a tool
   * call's, a thought) and C copies its code block. Keys pressed in a control inside a message
   * (a button, a summary) are that control's.
   */
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.altKey || e.ctrlKey || e.metaKey || e.nativeEvent.isComposing || !(e.target instanceof HTMLElement)) return;
    const target = e.target;
    const onRow = target.dataset.row !== undefined;
    if (!onRow && target !== e.currentTarget) return;
    const at = onRow ? Number(target.dataset.row) : undefined;
    if (e.key === 'ArrowDown' && !e.shiftKey) {
      const top = scrollRef.current ? virtualizer.getVirtualItemForOffset(scrollRef.current.scrollTop)?.index : undefined;
      focusRow(at === undefined ? (top ?? 0) : at + 1, 1);
    } else if (e.key === 'ArrowUp' && !e.shiftKey) focusRow(at === undefined ? count - 1 : at - 1, -1);
    else if (e.key === 'Home') focusRow(0, 1);
    else if (e.key === 'End') focusRow(count - 1, -1);
    else if (e.key === 'Enter' && onRow) {
      const details = target.querySelector('details');
      if (!details) return;
      details.open = !details.open;
    } else if (e.key.toLowerCase() === 'c' && onRow && !e.shiftKey) {
      const copy = target.querySelector<HTMLButtonElement>('.code-copy');
      if (!copy) return;
      copy.click();
    } else return;
    e.preventDefault();
  };

  const items = virtualizer.getVirtualItems();
  return (
    <div className="transcript-wrap">
      {hasOlder ? (
        <button type="button" className="load-older" onClick={() => void loadOlder()} disabled={loadingOlder}>
          {loadingOlder ? 'Loading older messages…' : 'Load older messages'}
        </button>
      ) : null}
      <div
        ref={scrollRef}
        className="transcript"
        role="log"
        aria-label="Transcript"
        aria-busy={loadingNewest || loadingOlder}
        tabIndex={0}
        onScroll={onScroll}
        onKeyDown={onKeyDown}
      >
        {error ? (
          <p className="transcript-empty" role="alert">
            Could not load the transcript: {error.message}
          </p>
        ) : count === 0 ? (
          <p className="transcript-empty muted">
            {creating ? 'Starting the session…' : loadingNewest ? 'Loading…' : 'No messages yet. Type below to start.'}
          </p>
        ) : null}
        <div className="transcript-inner" style={{ height: total }}>
          {items.map((item) => (
            <div
              key={item.key}
              data-index={item.index}
              ref={virtualizer.measureElement}
              className={item.key === hitKey ? 'transcript-item search-target' : 'transcript-item'}
              data-search-target={item.key === hitKey ? '' : undefined}
              style={{ transform: `translateY(${item.start}px)` }}
            >
              <TranscriptItem index={item.index} openThoughts={openThoughts} />
            </div>
          ))}
        </div>
      </div>
      {hasNewer ? (
        <div className="load-newer">
          <button type="button" onClick={() => void loadNewer()} disabled={loadingNewer}>
            {loadingNewer ? 'Loading newer messages…' : 'Load newer messages'}
          </button>
          <button type="button" onClick={() => void showLatest()}>
            Jump to latest
          </button>
        </div>
      ) : null}
    </div>
  );
}
