/**
 * `node --expose-gc --import tsx bench/split-stream.ts [KB]`: what splitting a streaming answer
 * into Markdown blocks costs the page per frame, in Node. The dense profile's answer (default
 * 1,024 KB) arrives in 200-character chunks, three a frame (200 chunks/s at 60 frames/s), and
 * after each frame the splitter gets either the row's whole text (`split`: a rope, which V8
 * copies into one string at the first read) or only the pieces added since (`feed`, as the
 * transcript does since stop 32; see src/renderer/src/lib/text-pieces.ts). Prints, for each
 * way, the time over the whole stream, the time a frame over the last 100 frames, and the full
 * garbage collections. Not a target of `npm run bench` (the page's figures are measured in
 * Chromium there).
 */
import { PerformanceObserver, constants, type PerformanceEntry } from 'node:perf_hooks';
import { denseMarkdownDocument } from '../src/agents/demo/dense-doc';
import { MarkdownBlockSplitter } from '../src/renderer/src/lib/markdown-blocks';
import { TextPieces } from '../src/renderer/src/lib/text-pieces';

const kb = Number(process.argv[2] ?? 1024);
const CHUNK = 200;
const PER_FRAME = 3;
const doc = denseMarkdownDocument(kb);
const chunks: string[] = [];
for (let i = 0; i < doc.length; i += CHUNK) chunks.push(doc.slice(i, i + CHUNK));
const frames = Math.floor(chunks.length / PER_FRAME);

let fullGcs = 0;
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) if ((e as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) fullGcs++;
}).observe({ entryTypes: ['gc'] });

async function stream(via: 'split' | 'feed'): Promise<void> {
  (globalThis as { gc?: () => void }).gc?.();
  await new Promise((r) => setTimeout(r, 50));
  const gcsBefore = fullGcs;
  const splitter = new MarkdownBlockSplitter();
  let text = '';
  let pieces: TextPieces | undefined;
  let fed = 0;
  let frame = 0;
  let lastStart = 0;
  const start = performance.now();
  for (let i = 0; i < chunks.length; i++) {
    const chunk = chunks[i]!;
    text += chunk;
    if (pieces) pieces.add(chunk);
    else pieces = new TextPieces(chunk);
    if (i % PER_FRAME !== PER_FRAME - 1) continue;
    if (++frame === frames - 100) lastStart = performance.now();
    if (via === 'split') splitter.split(text);
    else {
      const count = pieces.count(text.length)!;
      splitter.feed(pieces.text(fed, count));
      fed = count;
    }
  }
  const end = performance.now();
  await new Promise((r) => setTimeout(r, 50));
  const blocks = splitter.split(text).finished.length;
  console.log(
    `${via.padEnd(5)} ${(end - start).toFixed(0).padStart(5)} ms for ${chunks.length} chunks in ${frames} frames (${blocks} blocks); ` +
      `last 100 frames ${((end - lastStart) / 100).toFixed(3)} ms a frame; ${fullGcs - gcsBefore} full GCs`,
  );
}

console.log(`${kb} KB of dense Markdown, ${CHUNK}-character chunks, ${PER_FRAME} a frame`);
for (let pass = 0; pass < 2; pass++) {
  await stream('split');
  await stream('feed');
}
