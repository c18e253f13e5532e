import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A fresh temp dir per test; removed by the returned cleanup. Retried a few times: a child the
 * test's host already signalled (an agent, the watchdog) can still write its last line into the
 * folder while it is being removed (ENOTEMPTY, seen in CI on a loaded machine; up to 3 s).
 */
export function tempDir(prefix = 'switchboard-test-'): { path: string; cleanup(): void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, cleanup: () => rmSync(path, { recursive: true, force: true, maxRetries: 30, retryDelay: 100 }) };
}
