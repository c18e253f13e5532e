/**
 * `/markdown KB RATE`: a long Markdown answer streamed at a steady rate, to reproduce what a
 * window has to keep up with when a coding agent writes at length.
 */
import { delay } from './abortable';
import { markdownChunks, markdownDocument } from './markdown-doc';
import type { TurnContext } from './turns';

export const MARKDOWN_DEFAULTS = { kb: 20, rate: 100 } as const;
// A megabyte is well past any real answer; 5,000 chunks/s is faster than a window can paint.
export const MARKDOWN_LIMITS = { kb: 1024, rate: 5000 } as const;

export interface MarkdownArgs {
  kb: number;
  rate: number;
}

const USAGE =
  `Usage: /markdown KB RATE: KB from 1 to ${MARKDOWN_LIMITS.kb} kilobytes, ` +
  `RATE from 1 to ${MARKDOWN_LIMITS.rate} chunks per second ` +
  `(default ${MARKDOWN_DEFAULTS.kb} ${MARKDOWN_DEFAULTS.rate}).`;

/** The arguments, or the message that says what was wrong with them. */
export function parseMarkdownArgs(arg: string): MarkdownArgs | string {
  const words = arg.split(/\s+/).filter((w) => w !== '');
  if (words.length > 2) return USAGE;
  const [kbWord, rateWord] = words;
  const kb = kbWord === undefined ? MARKDOWN_DEFAULTS.kb : wholeIn(kbWord, MARKDOWN_LIMITS.kb);
  const rate = rateWord === undefined ? MARKDOWN_DEFAULTS.rate : wholeIn(rateWord, MARKDOWN_LIMITS.rate);
  return kb === undefined || rate === undefined ? USAGE : { kb, rate };
}

function wholeIn(word: string, max: number): number | undefined {
  if (!/^\d+$/.test(word)) return undefined;
  const n = Number(word);
  return n >= 1 && n <= max ? n : undefined;
}

/** Time as the pacing loop sees it; tests pass a fake one. */
export interface PaceTimer {
  now(): number;
  wait(ms: number, signal: AbortSignal): Promise<void>;
}

const realTimer: PaceTimer = { now: () => performance.now(), wait: delay };

/**
 * Chunk `i` is due `i / rate` seconds after the first. Due times are absolute, so timer slack
 * does not add up; chunks that fell due while the loop waited go out together.
 */
export async function streamMarkdown(
  ctx: Pick<TurnContext, 'signal' | 'send'>,
  { kb, rate }: MarkdownArgs,
  timer: PaceTimer = realTimer,
): Promise<void> {
  const chunks = markdownChunks(markdownDocument(kb), kb);
  const interval = 1000 / rate;
  const start = timer.now();
  for (let i = 0; i < chunks.length; i++) {
    const wait = start + i * interval - timer.now();
    if (wait > 0) await timer.wait(wait, ctx.signal);
    if (ctx.signal.aborted) return;
    await ctx.send({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: chunks[i] as string } });
  }
}
