import Database from 'better-sqlite3';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { seededDatabase } from '../test-support/seed-store';
import { tempDir } from '../test-support/temp-dir';
import { checkDatabaseFile, describeCheck } from './db-check';
import { latestVersion } from './migrations';

const dirs: { cleanup(): void }[] = [];
const dir = (): string => {
  const d = tempDir();
  dirs.push(d);
  return d.path;
};
afterEach(() => dirs.splice(0).forEach((d) => d.cleanup()));

describe('checkDatabaseFile', () => {
  it('passes a healthy Switchboard database, quick or full, with its schema version', () => {
    const { file } = seededDatabase(dir(), [{ events: 20 }]);
    expect(checkDatabaseFile(file)).toEqual({ ok: true, schemaVersion: latestVersion });
    expect(checkDatabaseFile(file, { depth: 'full' })).toEqual({ ok: true, schemaVersion: latestVersion });
  });

  it('never writes to the file it checks', () => {
    const { file } = seededDatabase(dir(), [{ events: 20 }]);
    const before = readFileSync(file);
    checkDatabaseFile(file, { depth: 'full' });
    expect(readFileSync(file).equals(before)).toBe(true);
  });

  it('calls a file that is not a database damaged', () => {
    const file = join(dir(), 'x.db');
    writeFileSync(file, 'not a database at all\n'.repeat(300));
    const check = checkDatabaseFile(file);
    expect(check).toMatchObject({ ok: false, problem: 'corrupt', detail: 'file is not a database' });
    expect(describeCheck(file, check as Exclude<typeof check, { ok: true }>)).toBe(`${file} is damaged (file is not a database).`);
  });

  it('finds damage past the first page', () => {
    const { file } = seededDatabase(dir(), [{ events: 200 }]);
    const bytes = readFileSync(file);
    bytes.fill(0xa5, 4096 * 3);
    writeFileSync(file, bytes);
    expect(checkDatabaseFile(file)).toMatchObject({ ok: false, problem: 'corrupt' });
  });

  it('refuses a database of a newer Switchboard, and one that is not Switchboard\'s', () => {
    const d = dir();
    const newer = join(d, 'newer.db');
    const db = new Database(newer);
    db.exec('CREATE TABLE sessions (id); CREATE TABLE events (x); CREATE TABLE prompts (x)');
    db.pragma(`user_version = ${latestVersion + 1}`);
    db.close();
    expect(checkDatabaseFile(newer)).toMatchObject({ ok: false, problem: 'newer', schemaVersion: latestVersion + 1 });

    const foreign = join(d, 'foreign.db');
    new Database(foreign).exec('CREATE TABLE recipes (name)').close();
    expect(checkDatabaseFile(foreign)).toMatchObject({ ok: false, problem: 'foreign' });
  });

  it('says a file that is not there is missing', () => {
    expect(checkDatabaseFile(join(dir(), 'none.db'))).toMatchObject({ ok: false, problem: 'missing' });
  });
});
