import type Database from 'better-sqlite3';
import { createRequire } from 'node:module';

/**
 * better-sqlite3, read with `require`: imported as an ES module, a CommonJS package is first
 * parsed by Node for its export names, ~10 ms of every start (ADR 0027). Every file that opens
 * a database takes it from here.
 */
export const Sqlite: typeof Database = createRequire(import.meta.url)('better-sqlite3') as typeof Database;
