import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';

const root = resolve(import.meta.dirname, '../..');

export interface ServeProcess {
  url: string;
  origin: string;
  token: string;
  child: ChildProcess;
  stderr(): string;
  /** SIGTERM and wait for exit; resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts the built `switchboard serve` and resolves once it printed its ready line. `env` adds to the environment. */
export function startServe(dataDir: string, extraArgs: string[] = [], env: NodeJS.ProcessEnv = {}): Promise<ServeProcess> {
  const child = spawn(process.execPath, [join(root, 'bin/switchboard.mjs'), 'serve', '--port', '0', '--data-dir', dataDir, ...extraArgs], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, SWITCHBOARD_LOG: process.env.SWITCHBOARD_LOG ?? 'warn', ...env },
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not become ready:\n${stderr}`)), 30_000);
    void exited.then((code) => reject(new Error(`serve exited with ${code} before it was ready:\n${stderr}`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const match = /^Switchboard ready: (http:\/\/[^/]+)\/\?token=(\S+)$/.exec(line);
      if (!match) return;
      clearTimeout(timer);
      resolvePromise({
        url: `${match[1]}/?token=${match[2]}`,
        origin: match[1]!,
        token: decodeURIComponent(match[2]!),
        child,
        stderr: () => stderr,
        stop: async (signal = 'SIGTERM') => {
          if (child.exitCode === null && child.signalCode === null) child.kill(signal);
          return exited;
        },
      });
    });
  });
}

export function tempDataDir(): { path: string; cleanup(): void } {
  const path = mkdtempSync(join(tmpdir(), 'switchboard-e2e-'));
  return { path, cleanup: () => rmSync(path, { recursive: true, force: true }) };
}
