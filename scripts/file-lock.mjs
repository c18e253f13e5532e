// A small cross-process lock for the build steps: `npm start`, `npm run serve`, the e2e setup
// and `switchboard serve` may all decide to build at once, and two builds writing `out/` at the
// same time leave it broken. The lock is a file created with O_EXCL holding the owner's pid;
// a lock whose owner is gone is taken over.
import { mkdirSync, openSync, closeSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

function ownerAlive(lockPath) {
  let pid;
  try {
    pid = Number.parseInt(readFileSync(lockPath, 'utf8'), 10);
  } catch {
    return false; // vanished or unreadable: try again
  }
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err?.code === 'EPERM';
  }
}

/**
 * Runs `fn` holding the lock at `lockPath`. `onWait` is called once if another process holds it.
 * @template T
 * @param {string} lockPath
 * @param {() => Promise<T>} fn
 * @param {{ timeoutMs?: number, onWait?: () => void }} [options]
 * @returns {Promise<T>}
 */
export async function withFileLock(lockPath, fn, { timeoutMs = 10 * 60_000, onWait } = {}) {
  mkdirSync(dirname(lockPath), { recursive: true });
  const deadline = Date.now() + timeoutMs;
  let waited = false;
  for (;;) {
    try {
      const fd = openSync(lockPath, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      break;
    } catch (err) {
      if (err?.code !== 'EEXIST') throw err;
      if (!ownerAlive(lockPath)) {
        rmSync(lockPath, { force: true });
        continue;
      }
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${lockPath}`);
      if (!waited) onWait?.();
      waited = true;
      await sleep(250);
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(lockPath, { force: true });
  }
}
