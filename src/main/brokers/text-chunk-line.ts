/**
 * The hot shape of `session/update` read straight from its line, without `JSON.parse` of the
 * whole message. Profiled during a 100,000-update flood (`bench/profile.ts ingest 1`), parsing
 * each line was 30% of the host's time: ~0.9 µs a line, most of it building four objects that
 * are then checked key by key (`text-chunk-validator.ts`).
 *
 * A line that is exactly the compact JSON an ACP SDK writes for a plain text chunk,
 * `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"…","update":{"sessionUpdate":"…_chunk","content":{"type":"text","text":"…"}[,"messageId":"…"]}}}`,
 * keys in that order, no white space between tokens, every string valid JSON, is read by one
 * regular expression, and the text's escapes (already checked valid by it) are undone here. Anything else (other key order, white space, another update, a line over
 * `MAX_LINE_CHARS`) gives undefined and takes the general path: `JSON.parse`, then the schema.
 * For a line this accepts, the general path gives an equal notification, which
 * `text-chunk-line.test.ts` checks on seeded random lines and their near misses.
 */
import type * as acp from '@agentclientprotocol/sdk';

/**
 * Longer lines take the general path: the expression's loop over escapes keeps a backtracking
 * entry per escape, and a text of millions of them overflows V8's stack (seen at 2 million).
 */
export const MAX_LINE_CHARS = 64 * 1024;

/** A JSON string's body with no escape and no control character (what JSON forbids raw). */
const PLAIN = String.raw`[^"\\\u0000-\u001f]*`;
/** A JSON string's body: plain runs between valid escapes. */
const BODY = String.raw`${PLAIN}(?:\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})${PLAIN})*`;

const LINE = new RegExp(
  String.raw`^\{"jsonrpc":"2\.0","method":"session\/update","params":\{"sessionId":"(${PLAIN})",` +
    String.raw`"update":\{"sessionUpdate":"(agent_message_chunk|agent_thought_chunk|user_message_chunk)",` +
    String.raw`"content":\{"type":"text","text":"(${BODY})"\}(?:,"messageId":"(${PLAIN})")?\}\}\}$`,
);

/** The notification on `line` (trimmed) when it is the compact plain text chunk above, else undefined. */
export function textChunkLine(line: string): acp.SessionNotification | undefined {
  if (line.length > MAX_LINE_CHARS || line.charCodeAt(2) !== 106 /* j of "jsonrpc" */) return undefined;
  const m = LINE.exec(line);
  if (!m) return undefined;
  const text = unescaped(m[3]!);
  const sessionUpdate = m[2] as 'agent_message_chunk';
  const content = { type: 'text' as const, text };
  return { sessionId: m[1]!, update: m[4] === undefined ? { sessionUpdate, content } : { sessionUpdate, content, messageId: m[4] } };
}

const ESCAPED: Readonly<Record<string, string>> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

/**
 * The string a JSON string body stands for; `body` has only valid escapes (the expression
 * checked). A `\uXXXX` gives its UTF-16 code unit, lone surrogates included, as `JSON.parse` does.
 */
function unescaped(body: string): string {
  let at = body.indexOf('\\');
  if (at < 0) return body;
  let out = '';
  let from = 0;
  while (at >= 0) {
    out += body.slice(from, at);
    const c = body[at + 1]!;
    if (c === 'u') {
      out += String.fromCharCode(Number.parseInt(body.slice(at + 2, at + 6), 16));
      from = at + 6;
    } else {
      out += ESCAPED[c];
      from = at + 2;
    }
    at = body.indexOf('\\', from);
  }
  return out + body.slice(from);
}
