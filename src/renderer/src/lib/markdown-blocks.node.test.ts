import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { MarkdownBlockSplitter, ownCopy } from './markdown-blocks';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Heap in use after a full collection. */
function heapUsed(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

describe('MarkdownBlockSplitter and memory', () => {
  it('keeps finished blocks as strings of their own, not views into the text of their moment', () => {
    const splitter = new MarkdownBlockSplitter();
    const before = heapUsed();
    let text = '';
    let finished: readonly string[] = [];
    // A streamed answer of ~900 KB: each chunk a new text, searched (and so made flat) by the split.
    for (let i = 0; i < 300; i++) {
      text += `Paragraph ${i}: ${'word '.repeat(600)}\n\n`;
      finished = splitter.split(text).finished;
    }
    expect(finished.length).toBe(299);
    text = '';
    const grown = heapUsed() - before;
    // The blocks themselves are ~900 KB. As views, each kept its moment's whole text: ~135 MB.
    expect(grown).toBeLessThan(20 * 1024 * 1024);
    expect(finished[10]).toBe(`Paragraph 10: ${'word '.repeat(600)}\n\n`);
  });

  it('ownCopy gives the same characters', () => {
    for (const s of ['', 'a', 'é🙂 mixed', 'x'.repeat(10_000)]) expect(ownCopy(s)).toBe(s);
  });
});
