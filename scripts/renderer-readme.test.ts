import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', 'src', 'renderer');
const isTest = (name: string): boolean => /\.test(-data)?\.[cm]?tsx?$/.test(name);

/** Every folder under src/renderer/src with its files (tests sit beside the product files, unlisted). */
function folders(): Map<string, { product: string[]; all: Set<string> }> {
  const out = new Map<string, { product: string[]; all: Set<string> }>();
  const walk = (dir: string): void => {
    const entries = readdirSync(dir, { withFileTypes: true });
    const files = entries.filter((e) => e.isFile()).map((e) => e.name);
    out.set(`${relative(root, dir)}/`, { product: files.filter((f) => !isTest(f)).sort(), all: new Set(files) });
    for (const e of entries) if (e.isDirectory()) walk(join(dir, e.name));
  };
  walk(join(root, 'src'));
  return out;
}

/** The Layout section's list items by the folder each names first, with the text of the whole item. */
function layoutItems(): Map<string, string> {
  const text = readFileSync(join(root, 'README.md'), 'utf8');
  const layout = /^## Layout\n([\s\S]*?)^## /m.exec(text)?.[1] ?? '';
  const items = new Map<string, string>();
  let current: { folder: string; text: string } | undefined;
  for (const line of layout.split('\n')) {
    const start = /^\s*- `(src\/(?:[^`]*\/)?)`/.exec(line);
    if (start?.[1]) {
      current = { folder: start[1], text: line };
      items.set(current.folder, line);
    } else if (/^\s*- /.test(line) || line.trim() === '') {
      current = undefined;
    } else if (current) {
      current.text += `\n${line}`;
      items.set(current.folder, current.text);
    }
  }
  return items;
}

describe('src/renderer/README.md', () => {
  const tree = folders();
  const items = layoutItems();

  const withFiles = [...tree].filter(([, f]) => f.product.length > 0);

  it.each(withFiles.map(([folder]) => folder))('gives %s its own line in Layout', (folder) => {
    expect(items.has(folder), `no "- \`${folder}\`" item in the Layout section`).toBe(true);
  });

  it.each(withFiles.map(([folder, f]) => [folder, f.product] as const))('names every file of %s on its line', (folder, files) => {
    const named = new Set([...(items.get(folder) ?? '').matchAll(/`([\w.-]+\.(?:tsx?|css))`/g)].map((m) => m[1]));
    for (const file of files) expect(named.has(file), `${folder}${file} is not named on its line`).toBe(true);
  });

  it('names no folder that is not there', () => {
    expect([...items.keys()].filter((folder) => !tree.has(folder))).toEqual([]);
  });

  it('names no file that is not in the folder of its line', () => {
    const strays: string[] = [];
    for (const [folder, text] of items) {
      const files = tree.get(folder)?.all ?? new Set<string>();
      for (const [, name] of text.matchAll(/`([\w.-]+\.(?:tsx?|css))`/g)) if (name && !files.has(name)) strays.push(`${folder}${name}`);
    }
    expect(strays).toEqual([]);
  });
});
