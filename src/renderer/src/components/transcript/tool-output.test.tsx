import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { OUTPUT_TAIL_LINES, tailOf, ToolOutput, ToolOutputView } from './tool-output';

const lines = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n');

describe('tool output', () => {
  it('shows short output whole, with no Show more', () => {
    const html = renderToStaticMarkup(<ToolOutput text={lines(3)} />);
    expect(html).toBe('<div class="tool-output-wrap"><pre class="tool-output">line 1\nline 2\nline 3</pre></div>');
  });

  it('folds long output to its newest lines behind Show more', () => {
    const total = OUTPUT_TAIL_LINES + 50;
    const html = renderToStaticMarkup(<ToolOutput text={lines(total)} />);
    expect(html).toContain(' aria-expanded="false">Show more (50 earlier lines)</button>');
    expect(html).toContain(`<pre class="tool-output">line 51\n`);
    expect(html).toContain(`line ${total}</pre>`);
    expect(html).not.toContain('line 50\n');
  });

  it('takes the tail from the end, whatever the line endings at the edges', () => {
    expect(tailOf('a\nb\nc', 2)).toBe('b\nc');
    expect(tailOf('a\nb\nc\n', 2)).toBe('c\n');
    expect(tailOf('a\nb', 5)).toBe('a\nb');
    expect(tailOf('', 1)).toBe('');
  });
});

describe('tool output, expanded', () => {
  it('shows a long output whole with Show less after it, and a short one with neither button', () => {
    const total = OUTPUT_TAIL_LINES + 50;
    const html = renderToStaticMarkup(<ToolOutputView text={lines(total)} expanded onToggle={() => {}} />);
    expect(html).toContain('<pre class="tool-output">line 1\n');
    expect(html).toMatch(/<\/pre><button type="button" class="link-button" aria-expanded="true">Show less<\/button><\/div>$/);
    expect(html).not.toContain('Show more');
    const short = renderToStaticMarkup(<ToolOutputView text={lines(3)} expanded onToggle={() => {}} />);
    expect(short).not.toContain('<button');
  });
});
