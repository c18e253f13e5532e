import { afterEach } from 'vitest';
import { agentFootprint, killAll } from './processes';
import { tempDir } from './temp-dir';

/**
 * Cleanups run after each test, last first; call once at a test file's top level. `dataDir()`
 * is a temp data dir whose agent processes are killed and whose files are removed afterwards.
 */
export function testCleanups(): { add(fn: () => Promise<void> | void): void; dataDir(): string } {
  const fns: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const fn of fns.splice(0).reverse()) await fn();
  });
  return {
    add: (fn) => fns.push(fn),
    dataDir() {
      const dir = tempDir();
      fns.push(() => {
        killAll(agentFootprint(dir.path));
        dir.cleanup();
      });
      return dir.path;
    },
  };
}
