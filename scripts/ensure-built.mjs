#!/usr/bin/env node
// Builds `out/` with electron-vite when it is missing or older than its sources.
//
//   node scripts/ensure-built.mjs [--force] [--quiet]
//
// Fresh means: every expected output exists and the oldest of them is newer than every file
// in src/ (tests excluded), electron.vite.config.ts, package.json and the tsconfig files.
// Build output goes to stderr, so a caller's stdout (e.g. `serve` printing its URL) stays clean.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { withFileLock } from './file-lock.mjs';
import { runAsScript } from './script-entry.mjs';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** What a complete build contains (see electron.vite.config.ts). */
export const BUILD_OUTPUTS = [
  'out/main/index.js',
  'out/main/cli.js',
  'out/main/demo-agent.js',
  'out/preload/index.cjs',
  'out/renderer/index.html',
];

const INPUT_FILES = ['electron.vite.config.ts', 'package.json', 'tsconfig.json', 'tsconfig.base.json', 'tsconfig.shared.json', 'tsconfig.node.json', 'tsconfig.renderer.json'];
const INPUT_DIRS = ['src'];
const IGNORED = /(\.test\.tsx?|\.spec\.tsx?|\.d\.ts|~|\.swp|\.DS_Store)$/;

function newestMtime(path) {
  let stat;
  try {
    stat = statSync(path);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return IGNORED.test(path) ? 0 : stat.mtimeMs;
  // The folder's own mtime catches deleted and renamed files.
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

/** @returns {{ fresh: boolean, reason: string }} */
export function buildState(root = ROOT) {
  let oldestOutput = Infinity;
  for (const rel of BUILD_OUTPUTS) {
    const path = join(root, rel);
    if (!existsSync(path)) return { fresh: false, reason: `${rel} is missing` };
    oldestOutput = Math.min(oldestOutput, statSync(path).mtimeMs);
  }
  const newestInput = Math.max(
    ...INPUT_FILES.map((rel) => newestMtime(join(root, rel))),
    ...INPUT_DIRS.map((rel) => newestMtime(join(root, rel))),
  );
  return newestInput > oldestOutput
    ? { fresh: false, reason: 'sources changed since the last build' }
    : { fresh: true, reason: 'up to date' };
}

function electronViteBin(root) {
  try {
    const require = createRequire(join(root, 'package.json'));
    const pkgPath = require.resolve('electron-vite/package.json');
    const bin = require(pkgPath).bin;
    return join(dirname(pkgPath), typeof bin === 'string' ? bin : bin['electron-vite']);
  } catch {
    return undefined;
  }
}

function runBuild(root, bin) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [bin, 'build'], { cwd: root, stdio: ['ignore', 2, 2] });
    child.on('error', reject);
    child.on('exit', (code, signal) =>
      code === 0 ? resolvePromise() : reject(new Error(`electron-vite build failed (${signal ?? `exit ${code}`})`)),
    );
  });
}

/**
 * Builds when needed. Resolves to whether a build ran.
 * @param {{ root?: string, force?: boolean, quiet?: boolean }} [options]
 */
export async function ensureBuilt({ root = ROOT, force = false, quiet = false } = {}) {
  const say = (line) => {
    if (!quiet) process.stderr.write(`${line}\n`);
  };
  const before = buildState(root);
  if (before.fresh && !force) return false;

  const bin = electronViteBin(root);
  if (!bin) {
    // An install without devDependencies: use what is there if it is complete.
    if (!before.reason.endsWith('missing')) {
      say(`switchboard: ${before.reason}, but electron-vite is not installed; using the existing build.`);
      return false;
    }
    throw new Error(`${before.reason} and electron-vite is not installed (run \`npm install\`, then \`npm run build\`).`);
  }

  return withFileLock(
    join(root, '.tmp', 'build.lock'),
    async () => {
      // Another process may have built while this one waited for the lock.
      const state = buildState(root);
      if (state.fresh && !force) return false;
      say(`switchboard: building (${force ? 'forced' : state.reason})…`);
      await runBuild(root, bin);
      const after = buildState(root);
      if (after.reason.endsWith('missing')) {
        throw new Error(`the build finished but ${after.reason}`);
      }
      return true;
    },
    { onWait: () => say('switchboard: waiting for another build to finish…') },
  );
}

runAsScript(import.meta.url, (args) => ensureBuilt({ force: args.has('--force'), quiet: args.has('--quiet') }));
