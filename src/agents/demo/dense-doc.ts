/**
 * The dense `/markdown` profile: an answer made of many small blocks, the shape that costs a
 * window the most per byte. Each section is about 170 bytes and holds a heading, a paragraph
 * with inline code and a link, a two-item list, a one-line code block and a three-row table,
 * so 1 MB is about 6,000 sections and 30,000 top-level blocks. Pure and seeded like
 * `markdownDocument`: the same size gives the same text.
 */
import { MARKDOWN_END, seededRandom } from './markdown-doc';

type Rand = () => number;
const pick = <T>(rand: Rand, items: readonly T[]): T => items[Math.floor(rand() * items.length)] as T;

const WORDS = ['cache', 'store', 'index', 'queue', 'log', 'page', 'row', 'turn'];
const VERBS = ['reads', 'writes', 'moves', 'keeps', 'drops', 'sends'];
const LANGS = ['ts', 'sh', 'py'] as const;

function section(rand: Rand, n: number): string {
  const a = pick(rand, WORDS);
  const b = pick(rand, WORDS);
  const code = { ts: `${a}.${pick(rand, VERBS)}(${n});`, sh: `npm run ${a}`, py: `${a}_${b}(${n})` };
  const lang = pick(rand, LANGS);
  return [
    `### ${n} ${a}`,
    `It ${pick(rand, VERBS)} \`${b}\` once, see [${a}](https://ex.io/${b}).`,
    `- ${a}\n- ${b}`,
    `\`\`\`${lang}\n${code[lang]}\n\`\`\``,
    `| k | v |\n| - | - |\n| ${a} | ${n % 97} |\n| ${b} | 1 |\n| x | 2 |`,
  ].join('\n\n');
}

/** About `kb` kilobytes (UTF-16 code units / 1024) of dense Markdown, ending with MARKDOWN_END. */
export function denseMarkdownDocument(kb: number): string {
  const rand = seededRandom(kb * 104_729 + 3);
  const target = kb * 1024 - MARKDOWN_END.length - 2;
  const parts: string[] = [];
  let size = 0;
  for (let n = 1; size < target; n++) {
    const text = section(rand, n);
    parts.push(text);
    size += text.length + 2;
  }
  parts.push(MARKDOWN_END);
  return `${parts.join('\n\n')}\n`;
}

/** The sections of a dense document (for tests and the docs: how big one section is). */
export const denseSections = (doc: string): string[] => doc.split(/\n\n(?=### )/);

/** `text` in chunks of `size` code units (the last one shorter), never splitting a surrogate pair. */
export function fixedChunks(text: string, size: number): string[] {
  const chunks: string[] = [];
  let at = 0;
  while (at < text.length) {
    let end = Math.min(text.length, at + size);
    const code = text.charCodeAt(end - 1);
    if (end < text.length && code >= 0xd800 && code <= 0xdbff) end++;
    chunks.push(text.slice(at, end));
    at = end;
  }
  return chunks;
}
