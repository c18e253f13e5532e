/**
 * Syntax highlighting with highlight.js, loaded on first use (its core and a set of common
 * languages are their own chunks, so the window's first load does not carry them).
 *
 * highlight.js returns HTML. We never put that into the page as HTML: its output has exactly
 * one kind of markup, `<span class="…">`, around text it escaped itself (`& < > " '`), so
 * `parseHighlighted` reads it back into a tree of scopes and plain strings that React renders
 * as elements and text. Anything else in it would be read as text, never as markup.
 */
import type { HLJSApi, LanguageFn } from 'highlight.js';

export type HighlightToken = string | { scope: string; children: HighlightToken[] };

export interface Highlighter {
  /** The tokens of `code` in `language` (a name or alias), or undefined for a language we do not load. */
  highlight(code: string, language: string): HighlightToken[] | undefined;
  /** The tokens if this block was highlighted already (a lookup: safe in a render), else undefined. */
  cached(code: string, language: string): HighlightToken[] | undefined;
  /** Whether `language` (a name or alias) is one we load. */
  knows(language: string): boolean;
}

type LanguageModule = { default: LanguageFn };

/** The languages loaded, by highlight.js name. Each import is its own chunk, fetched together. */
const LANGUAGES: Record<string, () => Promise<LanguageModule>> = {
  bash: () => import('highlight.js/lib/languages/bash'),
  c: () => import('highlight.js/lib/languages/c'),
  cpp: () => import('highlight.js/lib/languages/cpp'),
  csharp: () => import('highlight.js/lib/languages/csharp'),
  css: () => import('highlight.js/lib/languages/css'),
  diff: () => import('highlight.js/lib/languages/diff'),
  dockerfile: () => import('highlight.js/lib/languages/dockerfile'),
  go: () => import('highlight.js/lib/languages/go'),
  ini: () => import('highlight.js/lib/languages/ini'),
  java: () => import('highlight.js/lib/languages/java'),
  javascript: () => import('highlight.js/lib/languages/javascript'),
  json: () => import('highlight.js/lib/languages/json'),
  kotlin: () => import('highlight.js/lib/languages/kotlin'),
  makefile: () => import('highlight.js/lib/languages/makefile'),
  markdown: () => import('highlight.js/lib/languages/markdown'),
  php: () => import('highlight.js/lib/languages/php'),
  python: () => import('highlight.js/lib/languages/python'),
  ruby: () => import('highlight.js/lib/languages/ruby'),
  rust: () => import('highlight.js/lib/languages/rust'),
  scss: () => import('highlight.js/lib/languages/scss'),
  shell: () => import('highlight.js/lib/languages/shell'),
  sql: () => import('highlight.js/lib/languages/sql'),
  swift: () => import('highlight.js/lib/languages/swift'),
  typescript: () => import('highlight.js/lib/languages/typescript'),
  xml: () => import('highlight.js/lib/languages/xml'),
  yaml: () => import('highlight.js/lib/languages/yaml'),
};

/** Highlighted blocks, by language and text: a block seen again (a re-render, a reload) costs a lookup. */
const CACHE_ENTRIES = 2_000;

function createHighlighter(hljs: HLJSApi): Highlighter {
  const cache = new Map<string, HighlightToken[] | undefined>();
  return {
    knows: (language) => hljs.getLanguage(language) !== undefined,
    cached: (code, language) => cache.get(`${language}\u0000${code}`),
    highlight(code, language) {
      const lang = hljs.getLanguage(language) ? language : undefined;
      if (!lang) return undefined;
      const key = `${lang}\u0000${code}`;
      const hit = cache.get(key);
      if (hit) return hit;
      const tokens = parseHighlighted(hljs.highlight(code, { language: lang, ignoreIllegals: true }).value);
      if (cache.size >= CACHE_ENTRIES) cache.delete(cache.keys().next().value as string);
      cache.set(key, tokens);
      return tokens;
    },
  };
}

let loading: Promise<Highlighter> | undefined;
let loaded: Highlighter | undefined;

/** The highlighter if it is loaded already (a render needs no promise then). */
export function loadedHighlighter(): Highlighter | undefined {
  return loaded;
}

/** Loads highlight.js and the languages once; every caller shares the one load. */
export function loadHighlighter(): Promise<Highlighter> {
  loading ??= (async () => {
    const [{ default: hljs }, ...languages] = await Promise.all([
      import('highlight.js/lib/core'),
      ...Object.values(LANGUAGES).map((load) => load()),
    ]);
    Object.keys(LANGUAGES).forEach((name, i) => hljs.registerLanguage(name, (languages[i] as LanguageModule).default));
    loaded = createHighlighter(hljs);
    return loaded;
  })();
  return loading;
}

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#x27;': "'", '&#39;': "'" };
const unescape = (text: string): string => text.replace(/&(?:amp|lt|gt|quot|#x27|#39);/g, (e) => ENTITIES[e] ?? e);

/** highlight.js's HTML as tokens (see the file's comment). */
export function parseHighlighted(html: string): HighlightToken[] {
  const root: HighlightToken[] = [];
  const stack: HighlightToken[][] = [root];
  for (const m of html.matchAll(/<span class="([^"<>]*)">|<\/span>|[^<]+|</g)) {
    const top = stack[stack.length - 1] ?? root;
    if (m[1] !== undefined) {
      const node = { scope: m[1], children: [] as HighlightToken[] };
      top.push(node);
      stack.push(node.children);
    } else if (m[0] === '</span>') {
      if (stack.length > 1) stack.pop();
    } else {
      top.push(unescape(m[0]));
    }
  }
  return root;
}
