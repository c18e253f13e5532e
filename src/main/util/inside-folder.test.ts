import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../test-support/temp-dir';
import { realPathInside } from './inside-folder';

const dirs: { cleanup(): void }[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) d.cleanup();
});

function tree() {
  const d = tempDir();
  dirs.push(d);
  const folder = join(d.path, 'project');
  mkdirSync(join(folder, 'src'), { recursive: true });
  writeFileSync(join(folder, 'src', 'a.ts'), 'a');
  writeFileSync(join(folder, '..foo'), 'dots');
  writeFileSync(join(d.path, 'secret.txt'), 'secret');
  symlinkSync(join(d.path, 'secret.txt'), join(folder, 'out-link'));
  symlinkSync(join(folder, 'src', 'a.ts'), join(folder, 'in-link'));
  return { root: d.path, folder };
}

describe('realPathInside', () => {
  it('gives the real path of a file inside the folder', () => {
    const { folder } = tree();
    expect(realPathInside(folder, 'src/a.ts')).toMatch(/project\/src\/a\.ts$/);
  });

  it('refuses .. that leaves the folder, and accepts a name that starts with dots', () => {
    const { folder } = tree();
    expect(realPathInside(folder, '../secret.txt')).toBeUndefined();
    expect(realPathInside(folder, 'src/../../secret.txt')).toBeUndefined();
    expect(realPathInside(folder, '..foo')).toMatch(/project\/\.\.foo$/);
  });

  it('refuses a symlink inside the folder that points outside it, and follows one that stays in', () => {
    const { folder } = tree();
    expect(realPathInside(folder, 'out-link')).toBeUndefined();
    expect(realPathInside(folder, 'in-link')).toMatch(/project\/src\/a\.ts$/);
  });

  it('refuses an absolute path elsewhere and a file that does not exist', () => {
    const { folder, root } = tree();
    expect(realPathInside(folder, join(root, 'secret.txt'))).toBeUndefined();
    expect(realPathInside(folder, 'nope.txt')).toBeUndefined();
  });
});
