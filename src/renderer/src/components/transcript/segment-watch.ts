/**
 * Where a long message's segments and pages of segments are (see lib/markdown-segments.ts): one
 * IntersectionObserver (is it near the view?) and one ResizeObserver (how tall is a segment while shown?) per
 * scroll container, shared by every segment in it. Both report after layout, so watching costs
 * no forced layout.
 */

/** A segment this close to the view (above or below) is rendered; farther ones are empty boxes. */
export const NEAR_PX = 1_500;

export interface SegmentWatcher {
  onNear(near: boolean): void;
  /** Without it the element's size is not watched (a page of segments: its segments are). */
  onHeight?(px: number, el: Element): void;
}

interface Observers {
  io: IntersectionObserver;
  ro: ResizeObserver;
  watchers: Map<Element, SegmentWatcher>;
}

const byRoot = new Map<Element | null, Observers>();

function observersFor(root: Element | null): Observers {
  let o = byRoot.get(root);
  if (o) return o;
  const watchers = new Map<Element, SegmentWatcher>();
  const io = new IntersectionObserver(
    (entries) => {
      for (const e of entries) watchers.get(e.target)?.onNear(e.isIntersecting);
    },
    { root, rootMargin: `${NEAR_PX}px 0px` },
  );
  const ro = new ResizeObserver((entries) => {
    for (const e of entries) {
      const box = e.borderBoxSize[0];
      watchers.get(e.target)?.onHeight?.(box ? box.blockSize : e.contentRect.height, e.target);
    }
  });
  o = { io, ro, watchers };
  byRoot.set(root, o);
  return o;
}

/** Whether this page can watch segments at all; without it (tests, old engines) every segment is rendered. */
export const canWatch = (): boolean => typeof IntersectionObserver !== 'undefined' && typeof ResizeObserver !== 'undefined';

/** The transcript's scroll container around `el` (segments are watched against it, not the page). */
export const scrollRootOf = (el: Element): Element | null => el.closest('[role="log"]');

/** Starts watching `el`; returns the function that stops. */
export function watchSegment(el: Element, watcher: SegmentWatcher): () => void {
  const root = scrollRootOf(el);
  const o = observersFor(root);
  o.watchers.set(el, watcher);
  o.io.observe(el);
  if (watcher.onHeight) o.ro.observe(el);
  return () => {
    o.io.unobserve(el);
    if (watcher.onHeight) o.ro.unobserve(el);
    o.watchers.delete(el);
    if (o.watchers.size === 0) {
      o.io.disconnect();
      o.ro.disconnect();
      byRoot.delete(root);
    }
  };
}
