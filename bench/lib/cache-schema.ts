/**
 * Which migrations wrote a cached benchmark folder. A cache written by another build (a branch
 * whose migration 0015 was another one) has the same `user_version` but not the same tables:
 * it is written again rather than opened by a host that would fail on it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { migrations } from '../../src/main/store/migrations';

export const schemaFingerprint = (): string => migrations.map((m) => `${m.version}:${m.name}`).join(',');

/**
 * The cache's done file, if it is there and was written by these migrations or by the first of
 * them (an older schema of this line, which the host upgrades when it opens the folder).
 */
export function cachedDone<T>(doneFile: string): T | undefined {
  if (!existsSync(doneFile)) return undefined;
  const done = JSON.parse(readFileSync(doneFile, 'utf8')) as T & { schema?: string };
  const now = schemaFingerprint();
  return done.schema !== undefined && (done.schema === now || now.startsWith(`${done.schema},`)) ? done : undefined;
}
