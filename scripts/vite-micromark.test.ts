import { resolve } from 'node:path';
import { normalizePath, type Plugin } from 'vite';
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
});
