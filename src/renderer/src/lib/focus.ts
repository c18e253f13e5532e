/**
 * Pure focus rules shared by dialogs, drawers and menus (the hooks in `components/dialog/`
 * apply them to the DOM).
 */

/** What Tab can reach inside a container (visibility is checked by the caller). */
export const TABBABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), summary, [tabindex]:not([tabindex="-1"]), [contenteditable="true"]';

/**
 * Where Tab (or Shift+Tab) goes from `at` in a trap holding `count` stops, or undefined to let
 * the browser move it (it stays inside). Wraps at either end; from outside (`at` -1) it enters
 * at the first stop, or the last one going backwards.
 */
export function trapTarget(at: number, count: number, backwards: boolean): number | undefined {
  if (count === 0) return undefined;
  if (at < 0) return backwards ? count - 1 : 0;
  if (backwards && at === 0) return count - 1;
  if (!backwards && at === count - 1) return 0;
  return undefined;
}

/**
 * Type-ahead in a list of labels: the next label after `from` that starts with `typed`
 * (case-insensitive), wrapping; a single letter typed again cycles through the labels that start
 * with it. Undefined when none does.
 */
export function typeaheadTarget(labels: readonly string[], typed: string, from: number): number | undefined {
  const wanted = typed.toLowerCase();
  if (wanted === '') return undefined;
  const n = labels.length;
  // The same letter pressed again moves on; a longer prefix may still match the current item.
  const repeated = wanted.length > 1 && [...wanted].every((c) => c === wanted[0]);
  const prefix = repeated ? wanted[0]! : wanted;
  const start = wanted.length === 1 || repeated ? from + 1 : from;
  for (let k = 0; k < n; k++) {
    const i = (((start + k) % n) + n) % n;
    if (labels[i]?.trim().toLowerCase().startsWith(prefix)) return i;
  }
  return undefined;
}
