/**
 * The `pattern` of a text field: an agent's regular expression, run by the host and the window
 * on what the person typed. Only patterns that cannot backtrack without end are enforced.
 */

/** JSON Schema patterns are ECMAScript regular expressions, unanchored; `u` so code points count. */
export function compilePattern(pattern: string): RegExp | undefined {
  try {
    return new RegExp(pattern, 'u');
  } catch {
    return undefined;
  }
}

/**
 * Whether a pattern is safe to run on an answer in the host: no back-references or
 * look-arounds, no repeated group that itself repeats or alternates (the shapes of
 * catastrophic backtracking, `(a+)+`, `(a|aa)*`), and at most three unbounded repeats in all.
 * Conservative: a pattern refused here is still shown, only not enforced.
 */
export function isSafePattern(pattern: string): boolean {
  if (/\\[1-9]|\\k<|\(\?<?[=!]/.test(pattern)) return false;
  // Per open group: whether it holds a repeat or an alternation so far.
  const stack: { risky: boolean }[] = [];
  let unbounded = 0;
  let lastGroupRisky = false;
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') {
      i++;
      lastGroupRisky = false;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      continue;
    }
    const repeat = c === '*' || c === '+' || c === '?' || c === '{';
    if (repeat) {
      const unboundedRepeat = c === '*' || c === '+' || (c === '{' && /^\{\d*,\}/.test(pattern.slice(i)));
      const boundedRepeat = c === '{' && /^\{\d+(,\d+)?\}/.test(pattern.slice(i));
      if (c === '{' && !unboundedRepeat && !boundedRepeat) continue; // a literal brace
      if (lastGroupRisky && (unboundedRepeat || boundedRepeat)) return false;
      if (unboundedRepeat) unbounded++;
      if (c !== '?' || unboundedRepeat) for (const g of stack) g.risky = true;
      lastGroupRisky = false;
      if (c === '{') i = pattern.indexOf('}', i);
      continue;
    }
    lastGroupRisky = false;
    if (c === '[') inClass = true;
    else if (c === '(') stack.push({ risky: false });
    else if (c === '|') for (const g of stack) g.risky = true;
    else if (c === ')') lastGroupRisky = stack.pop()?.risky ?? false;
  }
  return unbounded <= 3;
}
