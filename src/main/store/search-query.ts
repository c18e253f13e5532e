/**
 * A person's search text as an FTS5 query that can never be a syntax error. Each
 * whitespace-separated word (or "quoted phrase") becomes one FTS5 string: wrapped in double
 * quotes with inner quotes doubled, so `AND`, `NEAR(`, `col:`, `*`, `^` and brackets are
 * searched as text, never read as operators. FTS5 tokenizes a string with the table's own
 * tokenizer, so `event_log.ts` is the phrase "event log ts", as it is in the index. All words
 * must match (implicit AND); the last word also matches as a prefix while the person is still
 * typing it (when it is long enough for a prefix scan to stay cheap).
 */
const MAX_TERMS = 16;
const MIN_PREFIX_CHARS = 3;
const TOKEN_CHAR = /[\p{L}\p{N}]/u;

export function ftsQuery(raw: string): string | undefined {
  // FTS5 reads a NUL as the end of the query ("unterminated string"); no control character
  // is worth searching for, so all of them are spaces.
  // eslint-disable-next-line no-control-regex -- that is the point
  const input = raw.replace(/[\u0000-\u001f\u007f]/g, ' ');
  const terms: { text: string; quoted: boolean }[] = [];
  for (const m of input.matchAll(/"([^"]*)"?|(\S+)/g)) {
    const quoted = m[1] !== undefined;
    const text = (quoted ? m[1] : m[2]) ?? '';
    // A term with no letter or digit tokenizes to nothing: it would match nothing or everything.
    if (TOKEN_CHAR.test(text)) terms.push({ text, quoted });
    if (terms.length === MAX_TERMS) break;
  }
  if (terms.length === 0) return undefined;
  const endsTyping = !/\s$/.test(input);
  return terms
    .map((t, i) => {
      const str = `"${t.text.replace(/"/g, '""')}"`;
      const last = i === terms.length - 1;
      const prefix = last && endsTyping && !t.quoted && tailTokenLength(t.text) >= MIN_PREFIX_CHARS;
      return prefix ? `${str}*` : str;
    })
    .join(' ');
}

/** Letters and digits at the end of `text`: the token a prefix would apply to. */
function tailTokenLength(text: string): number {
  let n = 0;
  for (let i = text.length - 1; i >= 0 && TOKEN_CHAR.test(text[i] ?? ''); i--) n++;
  return n;
}
