// Helpers for files that are both modules and scripts (`node scripts/x.mjs`).
import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

/** True when the module at `moduleUrl` is the script node was started with (npm links bin/ through node_modules/.bin, so real paths are compared). */
export function isEntry(moduleUrl) {
  try {
    return moduleUrl === pathToFileURL(realpathSync(process.argv[1] ?? '')).href;
  } catch {
    return false;
  }
}

/** Runs `task(flags)` with `--force` / `--quiet` style flags as a Set, and exits 0, or 1 with the error's message. */
export function runAsScript(moduleUrl, task) {
  if (!isEntry(moduleUrl)) return;
  task(new Set(process.argv.slice(2))).then(
    () => process.exit(0),
    (err) => {
      process.stderr.write(`switchboard: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    },
  );
}
