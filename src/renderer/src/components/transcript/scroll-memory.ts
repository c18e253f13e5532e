/**
 * Where each session's transcript was scrolled to, while this window runs: switching away and
 * back lands on the same row instead of the bottom. A row is remembered by its key (rows are
 * regrouped as events arrive, so a pixel offset would drift); 'end' means it followed the stream.
 */
type ScrollMark = 'end' | { key: string | number | bigint };

const marks = new Map<string, ScrollMark>();
/** Plenty for a day's switching; the oldest is forgotten first. */
const MAX_REMEMBERED = 500;

export function rememberScroll(sessionId: string, mark: ScrollMark): void {
  marks.delete(sessionId);
  marks.set(sessionId, mark);
  if (marks.size > MAX_REMEMBERED) {
    const oldest = marks.keys().next().value;
    if (oldest !== undefined) marks.delete(oldest);
  }
}

export function recalledScroll(sessionId: string): ScrollMark {
  return marks.get(sessionId) ?? 'end';
}

/** The index of the row with `key` among `count` rows, if it is loaded. */
export function indexOfKey(key: string | number | bigint, count: number, keyAt: (i: number) => string | number | undefined): number | undefined {
  for (let i = 0; i < count; i++) if (keyAt(i) === key) return i;
  return undefined;
}
