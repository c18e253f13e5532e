import { resolve } from 'node:path';
import { build, normalizePath, type Plugin, type Rollup } from 'vite';
import { describe, expect, it } from 'vitest';
import config from '../electron.vite.config';
import { COMBINE_EXTENSIONS_MEMO, memoisedMicromarkExtensions } from './vite-micromark';

const root = resolve(import.meta.dirname, '..');
const standIn = normalizePath(resolve(root, COMBINE_EXTENSIONS_MEMO));
const resolveId = (plugin: Plugin, source: string, importer?: string): unknown => (plugin.resolveId as (s: string, i?: string) => unknown)(source, importer);

describe('the renderer build memoises micromark extensions', () => {
  it('resolves the package to the stand-in for every importer but the stand-in itself', () => {
    const plugin = memoisedMicromarkExtensions(root);
    expect(resolveId(plugin, 'micromark-util-combine-extensions', resolve(root, 'node_modules/micromark/lib/parse.js'))).toBe(standIn);
    expect(resolveId(plugin, 'micromark-util-combine-extensions', standIn)).toBeNull();
    expect(resolveId(plugin, 'micromark', standIn)).toBeNull();
  });

  it('is one of the renderer build plugins', () => {
    const renderer = (config as { renderer?: { plugins?: unknown[] } }).renderer;
    const names = (renderer?.plugins ?? []).flat(3).map((p) => (p as Plugin | undefined)?.name);
    expect(names).toContain('switchboard:memoised-micromark-extensions');
  });

  it('puts the stand-in in a real bundle of micromark, with the package behind it', async () => {
    const result = (await build({
      configFile: false,
      logLevel: 'silent',
      root,
      plugins: [memoisedMicromarkExtensions(root)],
      build: { write: false, lib: { entry: resolve(root, 'node_modules/micromark/index.js'), formats: ['es'], fileName: 'micromark' }, minify: false },
    })) as Rollup.RollupOutput | Rollup.RollupOutput[];
    const chunk = (Array.isArray(result) ? result[0]! : result).output[0];
    const modules = chunk.moduleIds.map((id) => normalizePath(id));
    expect(modules).toContain(standIn);
    expect(modules.some((id) => id.endsWith('node_modules/micromark-util-combine-extensions/index.js'))).toBe(true);
  });
});
