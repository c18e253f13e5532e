import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fixtureFileName } from '../src/main/store/fixtures/fixture-data';
import { migrations } from '../src/main/store/migrations';
import { tempDir } from '../src/main/test-support/temp-dir';
import { makeFixture } from './make-fixtures';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

const FIXTURES = join(import.meta.dirname, '../src/main/store/fixtures');

function schemaOf(file: string): { version: number; sql: string[] } {
  const db = new Database(file, { readonly: true });
  try {
    return {
      version: db.pragma('user_version', { simple: true }) as number,
      sql: (db.prepare(`SELECT sql FROM sqlite_schema WHERE sql IS NOT NULL ORDER BY name`).all() as { sql: string }[]).map((r) => r.sql),
    };
  } finally {
    db.close();
  }
}

describe('scripts/make-fixtures.ts', () => {
  it('builds each version from the migrations alone, to the very schema of the committed fixture (migrations are never edited)', () => {
    const dir = tempDir();
    cleanups.push(dir.cleanup);
    for (const m of migrations) {
      const committed = join(FIXTURES, fixtureFileName(m.version));
      if (!existsSync(committed)) continue; // upgrade.test.ts says to make it
      const made = join(dir.path, fixtureFileName(m.version));
      makeFixture(m.version, made);
      expect(schemaOf(made), `schema ${m.version} (${m.name})`).toEqual(schemaOf(committed));
    }
  });
});
