import type { ReactElement } from 'react';
import type { Root } from 'hast';
import { toJsxRuntime, type Components } from 'hast-util-to-jsx-runtime';
import { Fragment, jsx, jsxs } from 'react/jsx-runtime';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import { unified } from 'unified';

export type { Components };

/**
 * Markdown (CommonMark and GFM) to React elements, through one processor for the page.
 * react-markdown built a processor for every block it rendered, and with it GFM's syntax
 * extensions, then walked the tree once more for its URL and element filters: 369–397 µs a
 * dense block against 211–219 µs this way, and 160–173 µs with micromark's extensions combined
 * once as the renderer is built (combine-extensions.ts) (`node --import tsx
 * bench/markdown-blocks.ts`, 2,000 blocks, in Node; the page is slower). A segment of up to 48
 * blocks coming into view renders in one task (issue 21).
 *
 * Raw HTML is never rendered: without `allowDangerousHtml`, remark-rehype drops it. Links and
 * images are checked by the `components` given (the only elements with addresses Markdown makes).
 */
const processor = unified().use(remarkParse).use(remarkGfm).use(remarkRehype).freeze();

/** `a` and `img` are required: they are where an agent's addresses would become live ones. */
export type SafeComponents = Partial<Components> & Pick<Components, 'a' | 'img'>;

export function markdownElements(text: string, components: SafeComponents): ReactElement {
  const tree = processor.runSync(processor.parse(text)) as Root;
  return toJsxRuntime(tree, { Fragment, jsx, jsxs, components, ignoreInvalidStyle: true, passKeys: true, passNode: true });
}
