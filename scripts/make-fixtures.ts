/**
 * Writes a fixture database for every schema version, 0001 to the latest migration, into
 * src/main/store/fixtures/ (`v0001.db` …), for the upgrade test (`upgrade.test.ts`). Nothing is
 * checked out: each version's schema is built by applying the migrations 1..v to an empty
 * file, then filled with that version's content (`fixture-data.ts`).
 *
 *   node --import tsx scripts/make-fixtures.ts          # writes the fixtures that are missing
 *   node --import tsx scripts/make-fixtures.ts --all    # rewrites every one
 *
 * Existing fixtures are kept by default: each stands for the databases its version wrote, and
 * stays as it was made. Small files: 512-byte pages, rollback journal, vacuumed.
 */
import Database from 'better-sqlite3';
import { existsSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fixtureFileName, writeFixture } from '../src/main/store/fixtures/fixture-data';
import { migrate, migrations } from '../src/main/store/migrations';

const FOLDER = join(import.meta.dirname, '../src/main/store/fixtures');

export function makeFixture(version: number, file: string): void {
  const tmp = `${file}.tmp`;
  rmSync(tmp, { force: true });
  const db = new Database(tmp);
  try {
    db.pragma('page_size = 512');
    db.pragma('journal_mode = DELETE');
    if (migrate(db, version) !== version) throw new Error(`the migrations did not reach version ${version}`);
    try {
      writeFixture(db, version);
    } catch (err) {
      throw new Error(
        `cannot fill the version ${version} fixture (${(err as Error).message}): describe what that version stores in src/main/store/fixtures/fixture-data.ts`,
      );
    }
    db.exec('VACUUM');
  } finally {
    db.close();
  }
  renameSync(tmp, file);
}

function main(argv: string[]): void {
  const all = argv.includes('--all');
  for (const m of migrations) {
    const file = join(FOLDER, fixtureFileName(m.version));
    if (existsSync(file) && !all) {
      process.stdout.write(`kept    ${fixtureFileName(m.version)} (${m.name})\n`);
      continue;
    }
    makeFixture(m.version, file);
    process.stdout.write(`wrote   ${fixtureFileName(m.version)} (${m.name}), ${Math.round(statSync(file).size / 1024)} KB\n`);
  }
}

if (process.argv[1] && import.meta.filename === process.argv[1]) main(process.argv.slice(2));
