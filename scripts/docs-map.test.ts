/**
 * docs/architecture.md's folder map names every product file of the main process and of the
 * contract (issue 18: the docs match `src/` file for file). A file added without a line there,
 * or a file the map still names after it is gone, fails here.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');
const doc = readFileSync(join(root, 'docs/architecture.md'), 'utf8');
const map = doc.slice(doc.indexOf('## Folders and what they own'), doc.indexOf('## Layers'));

/** Product files: no tests, no test helpers; migrations are named as their folder. */
function productFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name === 'test-support' || entry.name === 'fixtures') continue;
      if (entry.name === 'migrations') out.push(path + '/');
      else out.push(...productFiles(path));
    } else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) {
      out.push(path);
    }
  }
  return out;
}

describe('docs/architecture.md, "Folders and what they own"', () => {
  const files = [...productFiles(join(root, 'src/main')), ...productFiles(join(root, 'src/shared'))];

  it.each(files.map((f) => relative(root, f) + (f.endsWith('/') ? '/' : '')))('names %s', (file) => {
    const name = file.endsWith('/') ? `${basename(file)}/` : basename(file);
    expect(map.includes(`\`${name}\``) || map.includes(`${name}\``) || map.includes(`(\`${name}`), `${file} is not in the folder map`).toBe(true);
  });

  it('names no file that is gone', () => {
    const names = new Set(files.map((f) => (f.endsWith('/') ? `${basename(f)}/` : basename(f))));
    // Spec files (`*.e2e.ts`) live outside src and are named for what they run, not mapped.
    const named = [...map.matchAll(/`([a-z0-9.-]+\.tsx?)`/g)].map((m) => m[1]!).filter((n) => !n.endsWith('.e2e.ts'));
    expect(named.filter((n) => !names.has(n))).toEqual([]);
  });
});

describe('docs/architecture.md, "Layers"', () => {
  const layers = doc.slice(doc.indexOf('## Layers'), doc.indexOf('## The contract'));
  const rows = layers.split('\n').filter((line) => line.startsWith('| `src/main/'));

  /** The parts of main a cell names, in its first clause (before `;`), asides in parentheses left out. */
  const partsNamed = (cell: string, parts: readonly string[]): string[] =>
    cell
      .replace(/\([^)]*\)/g, '')
      .replace(/the host's port/g, 'host-port')
      .split(/[\s,`]+/)
      .map((word) => word.replace(/\/$/, ''))
      .filter((word) => parts.includes(word))
      .sort();

  it('gives each part of main the imports eslint.layers.js allows, no more and no fewer', async () => {
    const { layerTable } = (await import(join(root, 'eslint.layers.js'))) as {
      layerTable: { mainParts: string[]; mayImport: Record<string, string[]>; portTypes: Record<string, string[]> };
    };
    const words = [...layerTable.mainParts, 'host-port'];
    const checked: string[] = [];
    for (const part of layerTable.mainParts.filter((p) => p !== 'test-support')) {
      const row = rows.find((r) => r.split('|')[1]!.includes(`src/main/${part}/`));
      expect(row, `no row for src/main/${part}/ in the layer table`).toBeDefined();
      const [first, ...rest] = row!.split('|')[2]!.replace(/\([^)]*\)/g, '').split(';');
      expect(partsNamed(first!, words), `src/main/${part}/`).toEqual([...layerTable.mayImport[part]!].sort());
      const types = rest.join(';').match(/types only from ([^;|]*)/);
      expect(types ? partsNamed(types[1]!.replace(/\band\b/g, ','), words) : [], `types src/main/${part}/ may take`).toEqual([...(layerTable.portTypes[part] ?? [])].sort());
      checked.push(part);
    }
    expect(checked.length).toBe(layerTable.mainParts.length - 1);
  });
});
