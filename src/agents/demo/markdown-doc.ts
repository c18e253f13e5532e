/**
 * A long Markdown answer of the kind a coding agent writes (headings, paragraphs, nested lists,
 * fenced code in several languages, GFM tables, quotes, inline code, links, emoji and accents),
 * and the arbitrary chunking it arrives in. Both are pure functions of their arguments, so a
 * stream can be replayed byte for byte and a client's rendering compared with the whole text.
 */

/** Small, fast, seedable PRNG (mulberry32): the same seed gives the same document everywhere. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Rand = () => number;
const pick = <T>(rand: Rand, items: readonly T[]): T => items[Math.floor(rand() * items.length)] as T;

const NOUNS = ['session', 'broker', 'transcript', 'reaper', 'window', 'store', 'event', 'prompt', 'cache', 'résumé'];
const VERBS = ['parses', 'stores', 'streams', 'validates', 'renders', 'caches', 'replays', 'groups'];
const FILES = ['src/main/host.ts', 'src/lib/parse.py', 'crates/core/src/lib.rs', 'scripts/build.sh', 'café/naïve.ts'];
const EMOJI = ['🚀', '✅', '⚠️', '🔧', '👩‍💻', '🎉'];
const LANGS = ['ts', 'python', 'bash', 'json', 'rust', 'diff'] as const;

function sentence(rand: Rand): string {
  const noun = pick(rand, NOUNS);
  const parts = [
    `The ${noun} ${pick(rand, VERBS)} each \`${pick(rand, NOUNS)}Id\` once`,
    `so the [${pick(rand, NOUNS)} docs](https://example.com/${noun}) stay accurate`,
    `and **nothing** is dropped ${pick(rand, EMOJI)}`,
    `even for a naïve caller in a café`,
    `which keeps _${pick(rand, FILES)}_ small`,
  ];
  const count = 2 + Math.floor(rand() * 3);
  return `${parts.slice(0, count).join(', ')}.`;
}

function paragraph(rand: Rand): string {
  const count = 2 + Math.floor(rand() * 4);
  return Array.from({ length: count }, () => sentence(rand)).join(' ');
}

function code(rand: Rand, lang: (typeof LANGS)[number]): string {
  const name = pick(rand, NOUNS).replace(/[^a-z]/g, '');
  switch (lang) {
    case 'ts':
      return [
        `export function ${name}Count(items: readonly string[]): number {`,
        `  // Counts each ${name} once; the map keeps insertion order.`,
        '  const seen = new Map<string, number>();',
        '',
        '  for (const item of items) seen.set(item, (seen.get(item) ?? 0) + 1);',
        '  return seen.size;',
        '}',
      ].join('\n');
    case 'python':
      return [
        `def ${name}_count(items: list[str]) -> int:`,
        `    """Count distinct ${name}s — accents like é are fine."""`,
        '    seen = {}',
        '',
        '    for item in items:',
        '        seen[item] = seen.get(item, 0) + 1',
        '    return len(seen)',
      ].join('\n');
    case 'bash':
      return ['set -euo pipefail', `for f in src/**/*.ts; do`, `  grep -n "${name}" "$f" || true`, 'done', 'npm test -- --run'].join('\n');
    case 'json':
      return ['{', `  "name": "${name}",`, '  "version": "1.0.0",', '  "scripts": { "test": "vitest run" },', `  "emoji": "${pick(rand, EMOJI)}"`, '}'].join('\n');
    case 'rust':
      return [
        `pub fn ${name}_count(items: &[&str]) -> usize {`,
        '    let mut seen = std::collections::HashSet::new();',
        '    for item in items {',
        '        seen.insert(*item);',
        '    }',
        '',
        '    seen.len()',
        '}',
      ].join('\n');
    case 'diff':
      return [`--- a/${pick(rand, FILES)}`, `+++ b/${pick(rand, FILES)}`, '@@ -1,3 +1,3 @@', ` const ${name} = load();`, `-${name}.render();`, `+${name}.renderOnce();`].join('\n');
  }
}

function fence(rand: Rand): string {
  const lang = pick(rand, LANGS);
  const body = code(rand, lang);
  const roll = rand();
  // Mostly ```, sometimes ~~~, sometimes a longer fence that shows a ``` line inside it.
  if (roll < 0.15) return `~~~${lang}\n${body}\n~~~`;
  if (roll < 0.25) return `\`\`\`\`markdown\nUse a fence like this:\n\n\`\`\`${lang}\n${body}\n\`\`\`\n\`\`\`\``;
  return `\`\`\`${lang}\n${body}\n\`\`\``;
}

function list(rand: Rand): string {
  const lines: string[] = [];
  const items = 2 + Math.floor(rand() * 3);
  for (let i = 1; i <= items; i++) {
    lines.push(`${i}. ${sentence(rand)}`);
    if (rand() < 0.6) {
      lines.push(`   - \`${pick(rand, FILES)}\`: ${pick(rand, VERBS)} the ${pick(rand, NOUNS)}`);
      lines.push(`   - [${rand() < 0.5 ? 'x' : ' '}] ${pick(rand, VERBS)} again ${pick(rand, EMOJI)}`);
    }
  }
  if (rand() < 0.4) {
    // A list that goes on after a blank line, with an indented code block in an item.
    lines.push('', `${items + 1}. Then run:`, '', '   ```bash', '   npm test', '   ```');
  }
  return lines.join('\n');
}

function table(rand: Rand): string {
  const rows = 3 + Math.floor(rand() * 5);
  const lines = ['| file | change | time (ms) |', '| :--- | --- | ---: |'];
  for (let i = 0; i < rows; i++) {
    lines.push(`| \`${pick(rand, FILES)}\` | ${pick(rand, VERBS)} the ${pick(rand, NOUNS)} ${pick(rand, EMOJI)} | ${Math.floor(rand() * 900)} |`);
  }
  return lines.join('\n');
}

function quote(rand: Rand): string {
  return `> **Note**: ${sentence(rand)}\n> ${sentence(rand)}`;
}

function heading(rand: Rand, n: number): string {
  const title = `${n}. ${pick(rand, VERBS)} the ${pick(rand, NOUNS)}`;
  return rand() < 0.2 ? `${title}\n${'-'.repeat(title.length)}` : `## ${title}`;
}

export const MARKDOWN_END = 'That is the whole walkthrough. ✅';

/** About `kb` kilobytes (UTF-16 code units / 1024) of Markdown; the same `kb` gives the same text. */
export function markdownDocument(kb: number): string {
  const rand = seededRandom(kb * 7919 + 17);
  const target = kb * 1024 - MARKDOWN_END.length - 2;
  const blocks = ['# Walkthrough 🚀', paragraph(rand)];
  let size = blocks.join('\n\n').length;
  let section = 1;
  while (size < target) {
    const part = [heading(rand, section++), paragraph(rand)];
    const extra = [list, fence, table, quote, paragraph] as const;
    for (let i = 0; i < 2; i++) part.push(pick(rand, extra)(rand));
    if (rand() < 0.1) part.push('---');
    const text = part.join('\n\n');
    blocks.push(text);
    size += text.length + 2;
  }
  blocks.push(MARKDOWN_END);
  return `${blocks.join('\n\n')}\n`;
}

/**
 * `text` cut at arbitrary points (inside words, fence markers and table rows), 1 to 96 code
 * units each, never between the two halves of a surrogate pair: the wire carries strings, and a
 * real agent's chunks are whole characters. Deterministic for the same `seed`.
 */
export function markdownChunks(text: string, seed: number): string[] {
  const rand = seededRandom(seed);
  const chunks: string[] = [];
  let at = 0;
  while (at < text.length) {
    let end = Math.min(text.length, at + 1 + Math.floor(rand() * 96));
    const code = text.charCodeAt(end - 1);
    if (end < text.length && code >= 0xd800 && code <= 0xdbff) end++;
    chunks.push(text.slice(at, end));
    at = end;
  }
  return chunks;
}

/**
 * `/hostile`'s document (see hostile-turn.ts): Markdown and raw HTML that would run code,
 * navigate or restyle the window if any of it were treated as HTML.
 */
/** Each payload sets `window.__pwned` if it ever runs; its value says which one did. */
export const HOSTILE_MARKDOWN = [
  `# Hostile <script>window.__pwned = 'heading'</script>`,
  '',
  `<script>window.__pwned = 'script'</script>`,
  '',
  `<img src=x onerror="window.__pwned = 'img-onerror'">`,
  '',
  `<iframe src="javascript:parent.__pwned = 'iframe-js'"></iframe>`,
  `<iframe srcdoc="<script>parent.__pwned = 'iframe-srcdoc'</script>"></iframe>`,
  '',
  `<svg xmlns="http://www.w3.org/2000/svg" onload="window.__pwned = 'svg-onload'"><script>window.__pwned = 'svg-script'</script></svg>`,
  '',
  `<style>body { display: none !important; }</style>`,
  `<div id="pwned-overlay" style="position:fixed;inset:0;z-index:99999;background:red">overlay</div>`,
  '',
  `<a href="javascript:window.__pwned = 'html-link'">html javascript link</a>`,
  `<form action="javascript:window.__pwned = 'form'"><button>html form</button></form>`,
  `<meta http-equiv="refresh" content="0; url=https://example.com/">`,
  `<base href="https://example.com/">`,
  `<object data="javascript:window.__pwned = 'object'"></object><embed src="javascript:window.__pwned = 'embed'">`,
  `<details open ontoggle="window.__pwned = 'details-ontoggle'">details</details>`,
  '',
  `[markdown javascript link](javascript:window.__pwned='md-link')`,
  '',
  `[markdown data link](data:text/html;base64,PHNjcmlwdD5wYXJlbnQuX19wd25lZD0nZGF0YSc8L3NjcmlwdD4=)`,
  '',
  `[markdown vbscript link](vbscript:msgbox(1))`,
  '',
  `[markdown entity link](&#106;avascript:window.__pwned='entity-link')`,
  '',
  `[markdown relative link](/?token=stolen)`,
  '',
  `![markdown javascript image](javascript:window.__pwned='md-image')`,
  '',
  `![markdown svg image](data:image/svg+xml;base64,PHN2ZyB4bWxucz0naHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmcnIG9ubG9hZD0nd2luZG93Ll9fcHduZWQ9MSc+PC9zdmc+)`,
  '',
  `Autolinks: <javascript:window.__pwned='autolink'> and <https://example.com/safe-autolink> and www.example.com/gfm`,
  '',
  `[a safe link](https://example.com/docs)`,
  '',
  '```html',
  `<script>window.__pwned = 'fenced'</script>`,
  '```',
  '',
  `Inline \`<img src=x onerror="window.__pwned='inline-code'">\` and the end of the hostile document.`,
].join('\n');

export const HOSTILE_TITLE = `<img src=x onerror="window.__pwned='title'">Hostile`;

