import { resolve } from 'node:path';
import { normalizePath, type Plugin } from 'vite';

/** Where the renderer's memoising stand-in for `micromark-util-combine-extensions` is, under the repository's root. */
export const COMBINE_EXTENSIONS_MEMO = 'src/renderer/src/lib/combine-extensions.ts';

/**
 * Resolves every import of `micromark-util-combine-extensions` in the renderer's bundle (micromark's
 * own, GFM's) to the stand-in (`COMBINE_EXTENSIONS_MEMO` under `root`, absolute), except the
 * stand-in's own import of the package. `root` is passed in: a bundled Vite config does not sit
 * where its source does.
 */
export function memoisedMicromarkExtensions(root: string): Plugin {
  const standIn = normalizePath(resolve(root, COMBINE_EXTENSIONS_MEMO));
  return {
    name: 'switchboard:memoised-micromark-extensions',
    enforce: 'pre',
    resolveId(source, importer) {
      if (source !== 'micromark-util-combine-extensions' || (importer !== undefined && normalizePath(importer.split('?')[0]!) === standIn)) return null;
      return standIn;
    },
  };
}
