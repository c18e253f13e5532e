#!/usr/bin/env node
// `switchboard serve [options]`, `switchboard --help`: the headless host's command line.
// Everything is parsed by out/main/cli.js (src/main/cli.ts), which never imports electron; this
// file only makes sure the build exists (in a checkout) and forwards the exit code.
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isEntry } from '../scripts/script-entry.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(ROOT, 'out', 'main', 'cli.js');

/**
 * Runs the CLI with `argv` (without node and script, e.g. `['serve', '--port', '0']`).
 * @param {string[]} argv
 * @returns {Promise<number>} the exit code
 */
export async function run(argv) {
  if (!existsSync(CLI)) {
    if (!existsSync(join(ROOT, 'src'))) {
      process.stderr.write(`switchboard: ${CLI} is missing and there are no sources to build it from.\n`);
      return 1;
    }
    process.stderr.write('switchboard: out/main/cli.js is missing; building the app first (npm run build)…\n');
    const { ensureBuilt } = await import('../scripts/ensure-built.mjs');
    await ensureBuilt({ root: ROOT, quiet: true });
  }
  const cli = await import(pathToFileURL(CLI).href);
  if (typeof cli.main !== 'function') {
    process.stderr.write(`switchboard: ${CLI} does not export main(argv); rebuild with \`npm run build\`.\n`);
    return 1;
  }
  const code = await cli.main(argv);
  return typeof code === 'number' ? code : 0;
}

if (isEntry(import.meta.url)) {
  run(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
      // The host has stopped when main resolves; a leftover handle must not hang the shell.
      setTimeout(() => process.exit(code), 2000).unref();
    },
    (err) => {
      process.stderr.write(`switchboard: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      process.exitCode = 1;
      setTimeout(() => process.exit(1), 2000).unref();
    },
  );
}
