#!/usr/bin/env node
// `npm start [-- args]`: the desktop app where Electron can run, the headless host elsewhere.
//
// 1. Is the Electron runtime (the binary) installed? If not, try once to install it (electron's
//    own installer; offline it fails within a second). A failure is remembered for an hour so
//    every start does not wait on the network again (SWITCHBOARD_INSTALL_ELECTRON=1 retries now,
//    =0 never tries).
// 2. With the runtime: fresh build, better-sqlite3 for Electron's ABI, then `electron .` with the
//    terminal attached; its exit code is ours.
// 3. Without it: one line saying so, fresh build, then `switchboard serve [args]` in this process.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { constants } from 'node:os';
import { join } from 'node:path';
import { ensureBuilt, ROOT } from './ensure-built.mjs';
import { ensureElectronNative } from './electron-native.mjs';
import { electronRuntime, installElectronRuntime, withoutRunAsNode } from './electron-runtime.mjs';

const RETRY_AFTER_MS = 60 * 60 * 1000;
const memoPath = join(ROOT, '.tmp', 'electron-install.json');

function rememberedFailure(version) {
  try {
    const memo = JSON.parse(readFileSync(memoPath, 'utf8'));
    if (memo.version === version && Date.now() - memo.failedAt < RETRY_AFTER_MS) return memo.reason;
  } catch {
    // nothing remembered
  }
  return undefined;
}

function rememberFailure(version, reason) {
  try {
    mkdirSync(join(ROOT, '.tmp'), { recursive: true });
    writeFileSync(memoPath, JSON.stringify({ version, failedAt: Date.now(), reason }));
  } catch {
    // best effort
  }
}

async function findOrInstallRuntime() {
  const found = electronRuntime(ROOT);
  if (found.installed) return found;
  const mode = process.env.SWITCHBOARD_INSTALL_ELECTRON;
  if (mode === '0') return found;
  const version = JSON.parse(readFileSync(join(ROOT, 'node_modules', 'electron', 'package.json'), 'utf8')).version;
  const remembered = mode === '1' ? undefined : rememberedFailure(version);
  if (remembered) return { installed: false, reason: `${remembered}; not retried for an hour` };
  const attempt = await installElectronRuntime(ROOT, {
    onSlow: () => process.stderr.write('switchboard: downloading the Electron runtime…\n'),
    verbose: process.env.SWITCHBOARD_DEBUG === '1',
  });
  const after = electronRuntime(ROOT);
  if (after.installed) return after;
  rememberFailure(version, attempt.reason);
  return { installed: false, reason: attempt.reason };
}

function exitCodeOf(code, signal) {
  if (code !== null) return code;
  return signal ? 128 + (constants.signals[signal] ?? 1) : 1;
}

async function launchElectron(binary, args) {
  await ensureBuilt();
  await ensureElectronNative();
  const electronArgs = ['.', ...args];
  if (process.platform === 'linux' && process.getuid?.() === 0 && !args.includes('--no-sandbox')) {
    // Chromium refuses to start as root with its OS sandbox on (containers, CI).
    process.stderr.write('switchboard: running as root, so Chromium runs with --no-sandbox.\n');
    electronArgs.push('--no-sandbox');
  }
  const child = spawn(binary, electronArgs, { cwd: ROOT, stdio: 'inherit', env: withoutRunAsNode(process.env) });
  // Electron treats a repeated signal as the same quit request, so forwarding a Ctrl+C it also
  // got from the terminal is harmless.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(signal, () => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    });
  }
  return new Promise((resolve) => {
    child.on('error', (err) => {
      process.stderr.write(`switchboard: could not launch Electron: ${err.message}\n`);
      resolve(1);
    });
    child.on('exit', (code, signal) => resolve(exitCodeOf(code, signal)));
  });
}

async function runHeadless(reason, args) {
  process.stderr.write(`Electron runtime is not installed on this machine (${reason}); starting the headless host instead.\n`);
  await ensureBuilt();
  const { run } = await import('../bin/switchboard.mjs');
  return run(['serve', ...args]);
}

async function main() {
  const args = process.argv.slice(2);
  const runtime = await findOrInstallRuntime();
  return runtime.installed ? launchElectron(runtime.path, args) : runHeadless(runtime.reason, args);
}

main().then(
  (code) => {
    process.exitCode = code;
    // `serve` ran in this process: if anything still holds the event loop after it stopped,
    // do not hang the terminal.
    setTimeout(() => process.exit(code), 2000).unref();
  },
  (err) => {
    process.stderr.write(`switchboard: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
