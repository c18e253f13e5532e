// Is the Electron runtime (the binary, not just the npm package) installed?
//
// `require('electron')` answers with the binary's path, but when the binary is missing it
// starts a download in the foreground and prints a stack trace; this module reads the same
// files (`path.txt`, `dist/`) without side effects, and installs it only when asked to.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** @returns {{ dir: string, version: string } | undefined} */
export function electronPackage(root) {
  try {
    const require = createRequire(join(root, 'package.json'));
    const pkgPath = require.resolve('electron/package.json');
    return { dir: dirname(pkgPath), version: JSON.parse(readFileSync(pkgPath, 'utf8')).version };
  } catch {
    return undefined;
  }
}

/**
 * Mirrors node_modules/electron/index.js (binary path) and install.js (installed check).
 * @returns {{ installed: true, path: string, version: string } | { installed: false, reason: string }}
 */
export function electronRuntime(root) {
  const pkg = electronPackage(root);
  if (!pkg) return { installed: false, reason: 'the electron package is not in node_modules' };
  let executable;
  try {
    executable = readFileSync(join(pkg.dir, 'path.txt'), 'utf8');
  } catch {
    return { installed: false, reason: `the Electron ${pkg.version} binary was never downloaded` };
  }
  const override = process.env.ELECTRON_OVERRIDE_DIST_PATH;
  const binary = override ? join(override, executable || 'electron') : join(pkg.dir, 'dist', executable);
  if (!existsSync(binary)) return { installed: false, reason: `${binary} is missing` };
  if (!override) {
    try {
      const installed = readFileSync(join(pkg.dir, 'dist', 'version'), 'utf8').trim().replace(/^v/, '');
      if (installed !== pkg.version) {
        return { installed: false, reason: `the installed binary is Electron ${installed}, package.json wants ${pkg.version}` };
      }
    } catch {
      // Older layouts have no dist/version; the binary exists, which is what matters.
    }
  }
  return { installed: true, path: binary, version: pkg.version };
}

/** The environment for an Electron child: ELECTRON_RUN_AS_NODE would turn it into plain Node. */
export function withoutRunAsNode(env) {
  const copy = { ...env };
  delete copy.ELECTRON_RUN_AS_NODE;
  return copy;
}

/**
 * Runs electron's own installer once (it downloads the binary; offline it fails within a
 * second). Output is kept unless it fails and `verbose` is set.
 * @returns {Promise<{ ok: boolean, reason: string }>}
 */
export function installElectronRuntime(root, { timeoutMs = 180_000, onSlow, verbose = false } = {}) {
  const pkg = electronPackage(root);
  if (!pkg) return Promise.resolve({ ok: false, reason: 'the electron package is not in node_modules' });
  return new Promise((resolvePromise) => {
    const child = spawn(process.execPath, [join(pkg.dir, 'install.js')], {
      cwd: pkg.dir,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: withoutRunAsNode(process.env),
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const slow = setTimeout(() => onSlow?.(), 3000);
    const timeout = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    const finish = (ok, reason) => {
      clearTimeout(slow);
      clearTimeout(timeout);
      if (!ok && verbose) process.stderr.write(output);
      resolvePromise({ ok, reason });
    };
    child.on('error', (err) => finish(false, err.message));
    child.on('exit', (code, signal) => {
      if (code === 0 && electronRuntime(root).installed) return finish(true, 'installed');
      const firstLine = output.split('\n').find((line) => line.trim() !== '')?.trim();
      const why = signal === 'SIGKILL' ? `no answer within ${Math.round(timeoutMs / 1000)} s` : (firstLine ?? `exit ${code}`);
      finish(false, `download failed: ${why}`);
    });
  });
}
