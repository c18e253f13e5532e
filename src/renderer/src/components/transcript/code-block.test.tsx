import { renderToStaticMarkup } from 'react-dom/server';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadedHighlighter, loadHighlighter, parseHighlighted } from '../../lib/highlight';
import { isClosedFence } from './code-block';
import { WholeMarkdown, withoutSegments } from '../../test-support/markdown';
import { Markdown } from './markdown';

const FENCE = '```ts\nconst answer: number = 42;\n```';

describe('code blocks before highlight.js is loaded', () => {
  it('loads nothing until a closed block asks, and shows plain code with a Copy button meanwhile', () => {
    expect(loadedHighlighter()).toBeUndefined();
    const html = renderToStaticMarkup(<Markdown text={`Intro\n\n${FENCE}\n`} />);
    expect(html).toContain('<div class="code-block"><button type="button" class="code-copy" aria-label="Copy code">Copy</button>');
    expect(html).toContain('<pre><code class="language-ts">const answer: number = 42;\n</code></pre>');
  });
});

describe('code blocks once highlight.js is loaded', () => {
  beforeAll(async () => {
    await loadHighlighter();
  });

  it('renders a closed block plain until the idle queue highlighted it (a render never highlights), then with highlight.js classes', () => {
    const code = 'const answer: number = 42;\n';
    expect(loadedHighlighter()!.cached(code, 'ts')).toBeUndefined();
    expect(renderToStaticMarkup(<Markdown text={`${FENCE}\n`} />)).toContain(`<code class="language-ts">${code}</code>`);
    expect(loadedHighlighter()!.cached(code, 'ts')).toBeUndefined();
    // What the queued task does, in idle time.
    loadedHighlighter()!.highlight(code, 'ts');
    const html = renderToStaticMarkup(<Markdown text={`${FENCE}\n`} />);
    expect(html).toContain('<code class="language-ts hljs"><span class="hljs-keyword">const</span> <span class="hljs-attr">answer</span>: <span class="hljs-built_in">number</span> = <span class="hljs-number">42</span>;\n</code>');
  });

  it('leaves a block that is still streaming (no closing fence yet) plain', () => {
    const streaming = '```ts\nconst answer: number = 42;\nconst more';
    expect(renderToStaticMarkup(<Markdown text={streaming} />)).toContain('<code class="language-ts">const answer: number = 42;\nconst more\n</code>');
    const notYet = '```ts\nconst answer = 42;\n``';
    expect(renderToStaticMarkup(<Markdown text={notYet} />)).not.toContain('hljs');
  });

  it('renders a streamed message exactly as the same message loaded whole', () => {
    const doc = `# Title\n\nSome text.\n\n${FENCE}\n\n- item\n\n  \`\`\`python\n  print("hi")\n  \`\`\`\n\n\`\`\`\nno language\n\`\`\`\n`;
    loadedHighlighter()!.highlight('print("hi")\n', 'python');
    let streamedHtml = '';
    // The same component instance fed growing text, as a streaming bubble is.
    for (let i = 1; i <= doc.length; i += 7) streamedHtml = renderToStaticMarkup(<Markdown text={doc.slice(0, i)} />);
    streamedHtml = renderToStaticMarkup(<Markdown text={doc} />);
    expect(withoutSegments(streamedHtml)).toBe(renderToStaticMarkup(<WholeMarkdown text={doc} />));
    expect(streamedHtml).toContain('<span class="hljs-built_in">print</span>');
    expect(streamedHtml).toContain('<pre><code>no language\n</code></pre>');
  });

  it('never puts agent text in the page as markup, even text that looks like highlight.js output', () => {
    const evil = '```html\n<span class="x"><img src=x onerror=alert(1)></span> &amp; </span>\n```\n';
    loadedHighlighter()!.highlight(evil.slice('```html\n'.length, -'```\n'.length), 'html');
    const html = renderToStaticMarkup(<Markdown text={evil} />);
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;<span class="hljs-name">img</span>');
    expect(html).toContain('&amp;amp;');
    expect(html).not.toContain('onerror=alert(1)>');
  });

  it('leaves a language it does not load plain', () => {
    const html = renderToStaticMarkup(<Markdown text={'```brainfuck\n+++\n```\n'} />);
    expect(html).toContain('<code class="language-brainfuck">+++\n</code>');
  });
});

describe('isClosedFence', () => {
  it('needs a closing fence of the same character, at least as long', () => {
    expect(isClosedFence('```\na\n```')).toBe(true);
    expect(isClosedFence('````js\na\n```')).toBe(false);
    expect(isClosedFence('~~~\na\n```')).toBe(false);
    expect(isClosedFence('```\na\n`````\n')).toBe(true);
    expect(isClosedFence('```')).toBe(false);
    expect(isClosedFence('    indented code')).toBe(false);
    expect(isClosedFence('> ```\n> a\n> ```')).toBe(true);
    expect(isClosedFence('- ```\n  a\n  ```')).toBe(true);
  });
});

describe('parseHighlighted', () => {
  it('reads spans and escaped text back, and anything else as text', () => {
    expect(parseHighlighted('<span class="hljs-keyword">if</span> a &lt; b &amp;&amp; c')).toEqual([
      { scope: 'hljs-keyword', children: ['if'] },
      ' a < b && c',
    ]);
    expect(parseHighlighted('<b>x</b>')).toEqual(['<', 'b>x', '<', '/b>']);
    expect(parseHighlighted('<span class="a"><span class="b">x</span>y</span>')).toEqual([
      { scope: 'a', children: [{ scope: 'b', children: ['x'] }, 'y'] },
    ]);
  });
});
