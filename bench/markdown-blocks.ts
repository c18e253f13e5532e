/**
 * `node --import tsx bench/markdown-blocks.ts [BLOCKS] [--unmemoised]`: what rendering one
 * Markdown block costs the page's code, in Node: the dense profile's blocks (the demo agent's
 * `/markdown … dense`) split as the transcript splits them, each turned into React elements by
 * the page's pipeline (src/renderer/src/lib/markdown-pipeline.ts), best of 3 passes after a
 * warm-up. As the renderer is built, micromark's extensions are combined once
 * (scripts/vite-micromark.ts; here a module hook does the same); `--unmemoised` leaves the
 * package as it is. A segment of up to 48 such blocks coming into view renders in one task, so
 * this is the figure behind it. Not a target of `npm run bench` (the page's own figures are
 * measured in Chromium there).
 */
import { register } from 'node:module';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { COMBINE_EXTENSIONS_MEMO } from '../scripts/vite-micromark';

const args = process.argv.slice(2);
const memoised = !args.includes('--unmemoised');
const count = Number(args.find((a) => !a.startsWith('--')) ?? 2_000);
if (memoised) {
  const standIn = pathToFileURL(resolve(import.meta.dirname, '..', COMBINE_EXTENSIONS_MEMO)).href;
  const hook = `export async function resolve(specifier, context, next) {
    if (specifier === 'micromark-util-combine-extensions' && context.parentURL !== ${JSON.stringify(standIn)}) return next(${JSON.stringify(standIn)}, context);
    return next(specifier, context);
  }`;
  register(`data:text/javascript,${encodeURIComponent(hook)}`);
}
// Imported after the hook, so the pipeline's micromark sees it.
const { denseMarkdownDocument } = await import('../src/agents/demo/dense-doc');
const { MarkdownBlockSplitter } = await import('../src/renderer/src/lib/markdown-blocks');
const { markdownElements } = await import('../src/renderer/src/lib/markdown-pipeline');

const doc = denseMarkdownDocument(Math.ceil((count * 120) / 1024));
const blocks = new MarkdownBlockSplitter().split(doc).finished.slice(0, count);
if (blocks.length < count) throw new Error(`the document split into ${blocks.length} blocks, not ${count}`);
const chars = blocks.reduce((n, b) => n + b.length, 0);
const pass = (): number => {
  const start = performance.now();
  for (const block of blocks) markdownElements(block, { a: 'span', img: 'span' });
  return ((performance.now() - start) / blocks.length) * 1000;
};
pass();
const best = Math.min(pass(), pass(), pass());
console.log(`${blocks.length} dense blocks (${Math.round(chars / blocks.length)} characters each on average), extensions ${memoised ? 'combined once' : 'combined at every parse'}: ${best.toFixed(0)} µs a block`);
