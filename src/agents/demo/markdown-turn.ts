/**
 * `/markdown KB RATE [PROFILE] [CHARS]`: a long Markdown answer streamed at a steady rate, to
 * reproduce what a window has to keep up with when a coding agent writes at length.
 *
 * PROFILE `mixed` (the default) is a walkthrough of long paragraphs, lists, fences and tables
 * cut at random points (1–96 characters a chunk); `dense` is many small blocks of ~170 bytes a
 * section (dense-doc.ts) in chunks of 40 characters. CHARS sets a fixed chunk size for either.
 *
 * The last chunk carries its send time in `_meta` (`SENT_AT_META`, `Date.now()`: the wall
 * clock, which a client on the same machine shares), so a client can measure how long after
 * the agent sent it the last line was on screen.
 */
import { delay } from './abortable';
import { denseMarkdownDocument, fixedChunks } from './dense-doc';
import { markdownChunks, markdownDocument } from './markdown-doc';
import type { TurnContext } from './turns';

export const MARKDOWN_PROFILES = ['mixed', 'dense'] as const;
export type MarkdownProfile = (typeof MARKDOWN_PROFILES)[number];

export const MARKDOWN_DEFAULTS = { kb: 20, rate: 100, profile: 'mixed', denseChars: 40 } as const;
// A megabyte is well past any real answer; 5,000 chunks/s is faster than a window can paint.
export const MARKDOWN_LIMITS = { kb: 1024, rate: 5000, chars: 4096 } as const;

/** The `_meta` key of the last chunk: its send time, ms since the epoch. */
export const SENT_AT_META = 'demo.sentAtMs';

export interface MarkdownArgs {
  kb: number;
  rate: number;
  profile: MarkdownProfile;
  /** Fixed chunk size; undefined for the profile's own chunking. */
  chars?: number | undefined;
}

const USAGE =
  `Usage: /markdown KB RATE [mixed|dense] [CHARS]: KB from 1 to ${MARKDOWN_LIMITS.kb} kilobytes, ` +
  `RATE from 1 to ${MARKDOWN_LIMITS.rate} chunks per second ` +
  `(default ${MARKDOWN_DEFAULTS.kb} ${MARKDOWN_DEFAULTS.rate} ${MARKDOWN_DEFAULTS.profile}), ` +
  `CHARS from 1 to ${MARKDOWN_LIMITS.chars} characters a chunk.`;

/** The arguments, or the message that says what was wrong with them. */
export function parseMarkdownArgs(arg: string): MarkdownArgs | string {
  const words = arg.split(/\s+/).filter((w) => w !== '');
  if (words.length > 4) return USAGE;
  const [kbWord, rateWord, profileWord, charsWord] = words;
  const kb = kbWord === undefined ? MARKDOWN_DEFAULTS.kb : wholeIn(kbWord, MARKDOWN_LIMITS.kb);
  const rate = rateWord === undefined ? MARKDOWN_DEFAULTS.rate : wholeIn(rateWord, MARKDOWN_LIMITS.rate);
  const profile = profileWord === undefined ? MARKDOWN_DEFAULTS.profile : MARKDOWN_PROFILES.find((p) => p === profileWord);
  const chars = charsWord === undefined ? undefined : wholeIn(charsWord, MARKDOWN_LIMITS.chars);
  if (kb === undefined || rate === undefined || profile === undefined || (charsWord !== undefined && chars === undefined)) return USAGE;
  return { kb, rate, profile, chars };
}

function wholeIn(word: string, max: number): number | undefined {
  if (!/^\d+$/.test(word)) return undefined;
  const n = Number(word);
  return n >= 1 && n <= max ? n : undefined;
}

/** The chunks `/markdown` sends for these arguments, in order. */
export function markdownTurnChunks({ kb, profile, chars }: Omit<MarkdownArgs, 'rate'>): string[] {
  const doc = profile === 'dense' ? denseMarkdownDocument(kb) : markdownDocument(kb);
  if (chars !== undefined) return fixedChunks(doc, chars);
  return profile === 'dense' ? fixedChunks(doc, MARKDOWN_DEFAULTS.denseChars) : markdownChunks(doc, kb);
}

/** Time as the pacing loop sees it; tests pass a fake one. */
export interface PaceTimer {
  now(): number;
  wait(ms: number, signal: AbortSignal): Promise<void>;
  /** Wall-clock ms, for the send stamp. */
  wall(): number;
}

const realTimer: PaceTimer = { now: () => performance.now(), wait: delay, wall: () => Date.now() };

/**
 * Chunk `i` is due `i / rate` seconds after the first. Due times are absolute, so timer slack
 * does not add up; chunks that fell due while the loop waited go out together.
 */
export async function streamMarkdown(ctx: Pick<TurnContext, 'signal' | 'send'>, args: MarkdownArgs, timer: PaceTimer = realTimer): Promise<void> {
  const chunks = markdownTurnChunks(args);
  const interval = 1000 / args.rate;
  const start = timer.now();
  for (let i = 0; i < chunks.length; i++) {
    const wait = start + i * interval - timer.now();
    if (wait > 0) await timer.wait(wait, ctx.signal);
    if (ctx.signal.aborted) return;
    const content = { type: 'text' as const, text: chunks[i] as string };
    await ctx.send(
      i === chunks.length - 1
        ? { sessionUpdate: 'agent_message_chunk', content, _meta: { [SENT_AT_META]: timer.wall() } }
        : { sessionUpdate: 'agent_message_chunk', content },
    );
  }
}
