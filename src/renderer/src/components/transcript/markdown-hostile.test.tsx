import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { HOSTILE_MARKDOWN } from '../../../../agents/demo/markdown-doc';
import { WholeMarkdown } from '../../test-support/markdown';
import { isSafeHref } from './markdown';

/** Agent output is never HTML (issue 13): the markup the window builds from hostile Markdown. */
describe('hostile Markdown', () => {
  const html = renderToStaticMarkup(<WholeMarkdown text={HOSTILE_MARKDOWN} />);

  it('makes no script, frame, object, style, SVG, form, meta, base or image element', () => {
    expect(html).not.toMatch(/<(script|iframe|object|embed|style|svg|form|meta|base|img)\b/i);
    expect(html).toContain('>markdown javascript image</span>');
  });

  it('carries no event handler attribute and no inline style', () => {
    expect(html).not.toMatch(/<[^>]+\son[a-z]+=/i);
    expect(html).not.toMatch(/<[^>]+\sstyle=/i);
  });

  it('links only to http(s): the javascript:, data:, vbscript:, entity and relative links are plain text', () => {
    const hrefs = [...html.matchAll(/href="([^"]*)"/g)].map((m) => m[1]);
    expect(hrefs).toEqual(['https://example.com/safe-autolink', 'http://www.example.com/gfm', 'https://example.com/docs']);
    expect(html).toContain('<span class="unsafe-link" title="Link not opened: only http(s) and mailto links are">markdown javascript link</span>');
    expect(html).toContain('>markdown relative link</span>');
  });

  it('says which hrefs are links', () => {
    expect(isSafeHref('https://x.test/a')).toBe(true);
    expect(isSafeHref('mailto:a@b.test')).toBe(true);
    for (const bad of ['javascript:alert(1)', 'JAVASCRIPT:alert(1)', ' javascript:alert(1)', 'data:text/html,x', 'vbscript:x', '/?token=x', '#top', '', undefined, 'file:///etc/passwd']) {
      expect(isSafeHref(bad)).toBe(false);
    }
  });
});
