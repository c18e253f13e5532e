/**
 * `node --import tsx bench/markdown-blocks.ts [BLOCKS]`: what rendering one Markdown block costs
 * the page's code, in Node: the dense profile's blocks (the demo agent's `/markdown … dense`)
 * split as the transcript splits them, each turned into React elements by the page's pipeline
 * (src/renderer/src/lib/markdown-pipeline.ts), best of 3 passes after a warm-up. A segment of
 * up to 48 such blocks coming into view renders in one task, so this is the figure behind it.
 * Not a target of `npm run bench` (the page's own figures are measured in Chromium there).
 */
import { denseMarkdownDocument } from '../src/agents/demo/dense-doc';
import { MarkdownBlockSplitter } from '../src/renderer/src/lib/markdown-blocks';
import { markdownElements } from '../src/renderer/src/lib/markdown-pipeline';

const count = Number(process.argv[2] ?? 2_000);
const doc = denseMarkdownDocument(Math.ceil((count * 120) / 1024));
const blocks = new MarkdownBlockSplitter().split(doc).finished.slice(0, count);
if (blocks.length < count) throw new Error(`the document split into ${blocks.length} blocks, not ${count}`);
const chars = blocks.reduce((n, b) => n + b.length, 0);
const pass = (): number => {
  const start = performance.now();
  for (const block of blocks) markdownElements(block, {});
  return ((performance.now() - start) / blocks.length) * 1000;
};
pass();
const best = Math.min(pass(), pass(), pass());
console.log(`${blocks.length} dense blocks (${Math.round(chars / blocks.length)} characters each on average): ${best.toFixed(0)} µs a block`);
