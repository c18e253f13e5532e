/**
 * Crash logs in `<data folder>/logs/crash-<time>.log` (issue 23): one file per uncaught error
 * of the host, the newest `CRASH_LOGS_KEPT` kept. A run that ends because of one leaves a mark
 * (`logs/last-crash`) naming its log, so the next start can tell the windows it restarted.
 */
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomicSync } from '../util/atomic-file';

export const CRASH_LOGS_KEPT = 10;
const NAME = /^crash-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z(-\d+)?\.log$/;
const LAST_CRASH = 'last-crash';

/** The crash logs in `logs`, oldest first. */
export function listCrashLogs(logs: string): string[] {
  if (!existsSync(logs)) return [];
  return readdirSync(logs)
    .filter((n) => NAME.test(n))
    .sort();
}

/** Writes `text` as a new crash log (mode 0600: it may say more than a person wants shared), rotates, returns its name. */
export function writeCrashLog(logs: string, at: number, text: string, keep = CRASH_LOGS_KEPT): string {
  const stamp = new Date(at).toISOString().replace(/[:.]/g, '-');
  let name = `crash-${stamp}.log`;
  for (let n = 2; existsSync(join(logs, name)); n++) name = `crash-${stamp}-${n}.log`;
  writeFileSync(join(logs, name), text, { mode: 0o600 });
  const all = listCrashLogs(logs);
  for (const old of all.slice(0, Math.max(0, all.length - Math.max(1, keep)))) rmSync(join(logs, old), { force: true });
  return name;
}

/** A crash log's text by its name; undefined for a name that is not one (no path can be named). */
export function readCrashLog(logs: string, name: string): string | undefined {
  if (!NAME.test(name)) return undefined;
  const file = join(logs, name);
  return existsSync(file) ? readFileSync(file, 'utf8') : undefined;
}

/** This run ends because of the error in `name`: the next start says it restarted. */
export function markEndingCrash(logs: string, name: string, at: number): void {
  writeFileAtomicSync(join(logs, LAST_CRASH), JSON.stringify({ report: name, at }));
}

/** The crash that ended the last run, once: the mark is removed as it is read. */
export function takeEndingCrash(logs: string): { report: string; at: number } | undefined {
  const file = join(logs, LAST_CRASH);
  if (!existsSync(file)) return undefined;
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as { report?: unknown; at?: unknown };
    return typeof parsed.report === 'string' && NAME.test(parsed.report) && typeof parsed.at === 'number' ? { report: parsed.report, at: parsed.at } : undefined;
  } catch {
    return undefined;
  } finally {
    rmSync(file, { force: true });
  }
}
