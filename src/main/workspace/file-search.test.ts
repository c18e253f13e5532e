import { mkdirSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../test-support/fake-clock';
import { tempDir } from '../test-support/temp-dir';
import { FileSearch, rank } from './file-search';

const dirs: { cleanup(): void }[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) d.cleanup();
});

function tree(): { root: string; folder: string } {
  const d = tempDir();
  dirs.push(d);
  const folder = join(d.path, 'project');
  for (const dir of ['src/lib', '.git/objects', 'node_modules/pkg', 'docs']) mkdirSync(join(folder, dir), { recursive: true });
  for (const file of ['src/index.ts', 'src/lib/util.ts', 'docs/index.md', 'README.md', '.git/objects/abc', 'node_modules/pkg/index.js', '..foo']) {
    writeFileSync(join(folder, file), file);
  }
  writeFileSync(join(d.path, 'outside.txt'), 'secret');
  mkdirSync(join(d.path, 'elsewhere'));
  writeFileSync(join(d.path, 'elsewhere', 'far.ts'), 'far');
  symlinkSync(join(d.path, 'outside.txt'), join(folder, 'leak.txt'));
  symlinkSync(join(d.path, 'elsewhere'), join(folder, 'linked-dir'));
  symlinkSync(join(folder, 'src', 'index.ts'), join(folder, 'alias.ts'));
  return { root: d.path, folder };
}

describe('FileSearch', () => {
  it('lists the folder’s files as relative paths, skipping .git and node_modules', async () => {
    const { folder } = tree();
    const found = await new FileSearch({ clock: new FakeClock() }).search(folder, '', 100);
    expect(found.truncated).toBe(false);
    expect([...found.paths].sort()).toEqual(['..foo', 'README.md', 'alias.ts', 'docs/index.md', 'src/index.ts', 'src/lib/util.ts']);
  });

  it('never leaves the folder: a symlink out is not listed and a symlinked folder is not walked', async () => {
    const { folder } = tree();
    const found = await new FileSearch({ clock: new FakeClock() }).search(folder, '', 100);
    expect(found.paths).not.toContain('leak.txt');
    expect(found.paths.some((p) => p.startsWith('linked-dir'))).toBe(false);
    // A query is only a filter: `..` matches names, it does not walk up.
    expect((await new FileSearch({ clock: new FakeClock() }).search(folder, '../', 100)).paths).toEqual([]);
  });

  it('stops at its cap and says so', async () => {
    const { folder } = tree();
    const found = await new FileSearch({ clock: new FakeClock(), maxFiles: 2 }).search(folder, '', 100);
    expect(found).toEqual({ paths: expect.any(Array), truncated: true });
    expect(found.paths).toHaveLength(2);
  });

  it('reuses a folder’s listing while it is fresh and walks again after', async () => {
    const { folder } = tree();
    const clock = new FakeClock();
    const search = new FileSearch({ clock, ttlMs: 1000 });
    expect((await search.search(folder, 'readme', 10)).paths).toEqual(['README.md']);
    unlinkSync(join(folder, 'README.md'));
    expect((await search.search(folder, 'readme', 10)).paths).toEqual(['README.md']);
    await clock.advance(1001);
    expect((await search.search(folder, 'readme', 10)).paths).toEqual([]);
  });
});

describe('rank', () => {
  const paths = ['src/lib/util.ts', 'src/index.ts', 'docs/index.md', 'test/reindex.ts', 'src/in/dex.ts'];

  it('puts names that start with the query first, then names containing it, then paths, then scattered letters', () => {
    expect(rank(paths, 'index', 10)).toEqual(['src/index.ts', 'docs/index.md', 'test/reindex.ts', 'src/in/dex.ts']);
    expect(rank(paths, 'SRC/LIB', 10)).toEqual(['src/lib/util.ts']);
    expect(rank(paths, 'sut', 10)).toEqual(['src/lib/util.ts']);
  });

  it('keeps at most limit matches', () => {
    expect(rank(paths, '', 2)).toHaveLength(2);
  });
});
