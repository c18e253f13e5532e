#!/usr/bin/env node
// Builds better-sqlite3 for Electron's ABI, beside the Node-ABI copy tests and `serve` use.
//
//   node scripts/electron-native.mjs [--force] [--quiet]
//
// node_modules/better-sqlite3 stays built for Node. This copies the package (plus `bindings`
// and `file-uri-to-path`, so the copy also loads on its own) into .native/electron/node_modules/
// and rebuilds it there with @electron/rebuild for the installed Electron version. A stamp
// (Electron version, better-sqlite3 version, platform, arch) skips the work next time. The app
// passes the resulting .node file to the host as `nativeBinding` (src/main/app/native-binding.ts).
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';

import { ROOT } from './ensure-built.mjs';
import { electronPackage, electronRuntime } from './electron-runtime.mjs';
import { withFileLock } from './file-lock.mjs';
import { runAsScript } from './script-entry.mjs';

export const NATIVE_DIR = join('.native', 'electron');
/** Keep in sync with src/main/app/native-binding.ts. */
export const NATIVE_BINDING = join(NATIVE_DIR, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node');

function packageInfo(require, name) {
  const pkgPath = require.resolve(`${name}/package.json`);
  return { dir: dirname(pkgPath), version: JSON.parse(readFileSync(pkgPath, 'utf8')).version };
}

function wantedStamp(root) {
  const electron = electronPackage(root);
  if (!electron) throw new Error('the electron package is not installed (npm install)');
  const require = createRequire(join(root, 'package.json'));
  const sqlite = packageInfo(require, 'better-sqlite3');
  return {
    stamp: { electron: electron.version, betterSqlite3: sqlite.version, platform: process.platform, arch: process.arch },
    sqliteDir: sqlite.dir,
  };
}

function readStamp(dir) {
  try {
    return JSON.parse(readFileSync(join(dir, 'stamp.json'), 'utf8'));
  } catch {
    return undefined;
  }
}

const sameStamp = (a, b) => a !== undefined && Object.keys(b).every((key) => a[key] === b[key]);

/** Copies a package without its build output (Node-ABI objects must not leak into the copy). */
function copyPackage(from, to) {
  const skip = [join(from, 'build'), join(from, 'node_modules'), join(from, 'prebuilds')];
  cpSync(from, to, {
    recursive: true,
    dereference: true,
    filter: (src) => !skip.some((s) => src === s || src.startsWith(s + sep)),
  });
}

/** Loads the binding inside Electron (as Node) to prove the ABI matches. */
function verifyInElectron(binaryPath, bindingPath) {
  const result = spawnSync(binaryPath, ['-e', `require(${JSON.stringify(bindingPath)})`], {
    env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (result.status !== 0) {
    const why = result.error?.message ?? (result.stderr || result.stdout || `exit ${result.status}`).trim();
    throw new Error(`the rebuilt better-sqlite3 does not load in Electron: ${why}`);
  }
}

/**
 * @param {{ root?: string, force?: boolean, quiet?: boolean }} [options]
 * @returns {Promise<{ rebuilt: boolean, binding: string }>}
 */
export async function ensureElectronNative({ root = ROOT, force = false, quiet = false } = {}) {
  const say = (line) => {
    if (!quiet) process.stderr.write(`${line}\n`);
  };
  const target = join(root, NATIVE_DIR);
  const binding = join(root, NATIVE_BINDING);
  const upToDate = () => {
    const { stamp } = wantedStamp(root);
    return !force && existsSync(binding) && sameStamp(readStamp(target), stamp);
  };
  if (upToDate()) return { rebuilt: false, binding };

  return withFileLock(
    join(root, '.tmp', 'native.lock'),
    async () => {
      if (upToDate()) return { rebuilt: false, binding };
      const { stamp, sqliteDir } = wantedStamp(root);
      say(`switchboard: building better-sqlite3 ${stamp.betterSqlite3} for Electron ${stamp.electron} (once per version)…`);

      // Build in a staging folder and swap it in, so a failed build never leaves a half copy.
      const staging = `${target}.staging-${process.pid}`;
      rmSync(staging, { recursive: true, force: true });
      mkdirSync(join(staging, 'node_modules'), { recursive: true });
      writeFileSync(
        join(staging, 'package.json'),
        JSON.stringify(
          { name: 'switchboard-electron-native', private: true, dependencies: { 'better-sqlite3': stamp.betterSqlite3 } },
          null,
          2,
        ),
      );
      try {
        const stagedSqlite = join(staging, 'node_modules', 'better-sqlite3');
        copyPackage(realpathSync(sqliteDir), stagedSqlite);
        const fromSqlite = createRequire(join(sqliteDir, 'package.json'));
        const bindings = packageInfo(fromSqlite, 'bindings');
        copyPackage(realpathSync(bindings.dir), join(staging, 'node_modules', 'bindings'));
        try {
          const uriToPath = packageInfo(createRequire(join(bindings.dir, 'package.json')), 'file-uri-to-path');
          copyPackage(realpathSync(uriToPath.dir), join(staging, 'node_modules', 'file-uri-to-path'));
        } catch {
          // Newer `bindings` releases do not use it.
        }

        let rebuild;
        try {
          ({ rebuild } = await import('@electron/rebuild'));
        } catch (err) {
          throw new Error(`@electron/rebuild is not installed (npm install): ${err instanceof Error ? err.message : err}`);
        }
        // prebuild-install is found by walking up from the staged module to the repo's
        // node_modules; without a matching prebuilt binary, node-gyp compiles from source.
        try {
          await rebuild({
            buildPath: staging,
            projectRootPath: staging,
            electronVersion: stamp.electron,
            arch: stamp.arch,
            force: true,
            onlyModules: ['better-sqlite3'],
            mode: 'sequential',
          });
        } catch (err) {
          const why = err instanceof Error ? err.message : String(err);
          throw new Error(
            `${why}\n(the first build for an Electron version needs the network: a prebuilt binary, or Electron's headers plus a C++ toolchain)`,
          );
        }

        const stagedBinding = join(staging, relative(target, binding));
        if (!existsSync(stagedBinding)) throw new Error(`the rebuild did not produce ${relative(root, binding)}`);
        const runtime = electronRuntime(root);
        if (runtime.installed) verifyInElectron(runtime.path, stagedBinding);

        writeFileSync(join(staging, 'stamp.json'), JSON.stringify({ ...stamp, builtAt: new Date().toISOString() }, null, 2));
        rmSync(target, { recursive: true, force: true });
        renameSync(staging, target);
      } catch (err) {
        rmSync(staging, { recursive: true, force: true });
        throw err;
      }
      say(`switchboard: better-sqlite3 for Electron is ready (${relative(root, binding)}).`);
      return { rebuilt: true, binding };
    },
    { onWait: () => say('switchboard: waiting for another native build to finish…') },
  );
}

runAsScript(import.meta.url, (args) => ensureElectronNative({ force: args.has('--force'), quiet: args.has('--quiet') }));
