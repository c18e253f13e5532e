import type { SessionEventT } from '../../shared/contract';

/**
 * What a person can find with transcript search: what they wrote, what the agent answered
 * and thought, and the titles of its tool calls ("Read src/app.ts", "Run npm test"). Tool
 * output, diffs, plans and host notices are left out: they are large or repeated (a build log
 * would drown every answer in hits) and they are one click away from the tool call that
 * matched.
 */
export const SEARCHED_KINDS = ['user_message', 'agent_message', 'agent_thought', 'tool_call', 'tool_call_update'] as const;

/**
 * Kinds stored as chunks of one message: a message is indexed whole, as one row, once the next
 * shown event ends it (the same run the window draws as one bubble: `UNSHOWN_KINDS` between
 * chunks do not end it). Until then its chunks are found as stored (`SearchIndex.add`).
 */
export const MESSAGE_KINDS: ReadonlySet<string> = new Set(['agent_message', 'agent_thought']);

/** Snippet markers: control characters no text we index keeps (see `searchableText`). */
export const HIT_START = '\u0002';
export const HIT_END = '\u0003';
// eslint-disable-next-line no-control-regex -- the markers are control characters on purpose
const MARKERS = /[\u0002\u0003]/g;

/** The text of `e` to index, or undefined when it has none worth finding. */
export function searchableText(e: SessionEventT): string | undefined {
  let text: string | undefined;
  switch (e.kind) {
    case 'user_message':
    case 'agent_message':
    case 'agent_thought':
      text = e.payload.text;
      break;
    case 'tool_call':
    case 'tool_call_update':
      text = e.payload.title;
      break;
    default:
      return undefined;
  }
  if (!text || !/\S/.test(text)) return undefined;
  // The snippet markers must only ever come from FTS5, so a stored one is blanked.
  return MARKERS.test(text) ? text.replace(MARKERS, ' ') : text;
}
