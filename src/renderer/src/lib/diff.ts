interface DiffLine {
  op: ' ' | '-' | '+';
  text: string;
}

/** Above this many changed lines on each side the LCS table is skipped (it is quadratic). */
const LCS_LIMIT = 400;
const CONTEXT = 3;

function splitLines(text: string | undefined): string[] {
  if (!text) return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/**
 * A line diff for a permission prompt or tool card: common head and tail are trimmed to a
 * little context, the changed middle is aligned with an LCS when small enough, otherwise shown
 * as all removed then all added. `oldText` undefined means a new file.
 */
export function diffLines(oldText: string | undefined, newText: string): DiffLine[] {
  const a = splitLines(oldText);
  const b = splitLines(newText);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;

  const out: DiffLine[] = [];
  for (let i = Math.max(0, head - CONTEXT); i < head; i++) out.push({ op: ' ', text: a[i] ?? '' });
  const midA = a.slice(head, a.length - tail);
  const midB = b.slice(head, b.length - tail);
  out.push(...diffMiddle(midA, midB));
  for (let i = a.length - tail; i < Math.min(a.length, a.length - tail + CONTEXT); i++) out.push({ op: ' ', text: a[i] ?? '' });
  return out;
}

function diffMiddle(a: string[], b: string[]): DiffLine[] {
  if (a.length === 0 || b.length === 0 || a.length > LCS_LIMIT || b.length > LCS_LIMIT) {
    return [...a.map((text) => ({ op: '-' as const, text })), ...b.map((text) => ({ op: '+' as const, text }))];
  }
  const n = a.length;
  const m = b.length;
  // lcs[i][j]: length of the LCS of a[i..] and b[j..], flattened.
  const lcs = new Uint16Array((n + 1) * (m + 1));
  const at = (i: number, j: number) => lcs[i * (m + 1) + j] ?? 0;
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i * (m + 1) + j] = a[i] === b[j] ? at(i + 1, j + 1) + 1 : Math.max(at(i + 1, j), at(i, j + 1));
    }
  }
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      out.push({ op: ' ', text: a[i] ?? '' });
      i++;
      j++;
    } else if (at(i + 1, j) >= at(i, j + 1)) out.push({ op: '-', text: a[i++] ?? '' });
    else out.push({ op: '+', text: b[j++] ?? '' });
  }
  while (i < n) out.push({ op: '-', text: a[i++] ?? '' });
  while (j < m) out.push({ op: '+', text: b[j++] ?? '' });
  return out;
}
