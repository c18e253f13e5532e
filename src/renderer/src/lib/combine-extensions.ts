import { combineExtensions as combineEach, combineHtmlExtensions } from 'micromark-util-combine-extensions';

export { combineHtmlExtensions };

type Extensions = Parameters<typeof combineEach>[0];
type Combined = ReturnType<typeof combineEach>;

interface Node {
  next: WeakMap<object, Node>;
  combined?: Combined;
}

const root: Node = { next: new WeakMap() };

/**
 * micromark's `combineExtensions`, computed once per list of the same extension objects. The
 * renderer's build puts this module in place of the package's (scripts/vite-micromark.ts): micromark
 * combines its own constructs with the parser's extensions at every parse, and for a Markdown
 * block of a few dozen characters that was a third of the parse and of its garbage (issue 21).
 * The page parses with one processor (markdown-pipeline.ts), so its extensions are the same
 * objects every time. micromark only reads what this returns.
 */
export function combineExtensions(extensions: Extensions): Combined {
  // Only objects can be keys (the package skips anything else): such a list is combined as is.
  if (!extensions.every((e) => typeof e === 'object' && e !== null)) return combineEach(extensions);
  let node = root;
  for (const extension of extensions) {
    let next = node.next.get(extension);
    if (!next) node.next.set(extension, (next = { next: new WeakMap() }));
    node = next;
  }
  return (node.combined ??= combineEach(extensions));
}
