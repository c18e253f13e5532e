/**
 * `switchboard serve` (the built `out/`) with bench/lib/loop-probe.mjs preloaded: the host as a
 * person runs it, plus an IPC channel that reads Node's event-loop delay histogram inside it.
 * Nothing in the host is changed for it; its agents and watchdog do not get the probe.
 */
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import type { ServeProcess } from '../../e2e/support/serve';

const root = resolve(import.meta.dirname, '../..');
const PROBE = pathToFileURL(join(import.meta.dirname, 'loop-probe.mjs')).href;

export interface LoopFigures {
  /** Samples (one per ms the loop was free to run the probe's timer). */
  count: number;
  p50: number;
  p99: number;
  max: number;
  mean: number;
}

export interface LoopProbe {
  reset(): Promise<void>;
  read(): Promise<LoopFigures>;
  /**
   * Blocks the host's loop for `ms` and checks that the histogram saw it; throws if it did not.
   * Resets the histogram afterwards.
   */
  prove(ms?: number): Promise<void>;
}

export interface ProbedServe extends ServeProcess {
  loop: LoopProbe;
}

export function startProbedServe(dataDir: string, extraArgs: string[] = [], nodeArgs: string[] = [], env: NodeJS.ProcessEnv = {}): Promise<ProbedServe> {
  const child = spawn(process.execPath, [...nodeArgs, '--import', PROBE, join(root, 'bin/switchboard.mjs'), 'serve', '--port', '0', '--data-dir', dataDir, ...extraArgs], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    env: { ...process.env, SWITCHBOARD_LOG: process.env.SWITCHBOARD_LOG ?? 'warn', ...env },
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  let nextId = 1;
  const pending = new Map<number, (body: Record<string, unknown>) => void>();
  child.on('message', (m: { type?: string; id?: number }) => {
    if (m?.type !== 'loop-probe' || m.id === undefined) return;
    pending.get(m.id)?.(m as Record<string, unknown>);
    pending.delete(m.id);
  });
  const ask = (op: string, extra: Record<string, unknown> = {}): Promise<Record<string, unknown>> =>
    new Promise((resolveAsk, reject) => {
      const id = nextId++;
      const timer = setTimeout(() => reject(new Error(`the host's loop probe did not answer ${op}`)), 30_000);
      pending.set(id, (body) => {
        clearTimeout(timer);
        resolveAsk(body);
      });
      child.send({ type: 'loop-probe', op, id, ...extra });
    });
  const loop: LoopProbe = {
    reset: async () => void (await ask('reset')),
    read: async () => (await ask('read')) as unknown as LoopFigures,
    async prove(ms = 60) {
      await ask('reset');
      const seen = (await ask('block', { ms })) as unknown as LoopFigures;
      if (!(seen.max >= ms)) throw new Error(`the host's event-loop probe missed a deliberate ${ms} ms block (max ${seen.max} ms): loop figures cannot be trusted`);
      await ask('reset');
    },
  };
  return new Promise((resolveServe, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not become ready:\n${stderr}`)), 120_000);
    void exited.then((code) => reject(new Error(`serve exited with ${code} before it was ready:\n${stderr}`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const match = /^Switchboard ready: (http:\/\/[^/]+)\/\?token=(\S+)$/.exec(line);
      if (!match) return;
      clearTimeout(timer);
      resolveServe({
        url: `${match[1]}/?token=${match[2]}`,
        origin: match[1]!,
        token: decodeURIComponent(match[2]!),
        child,
        stderr: () => stderr,
        stop: async (signal = 'SIGTERM') => {
          if (child.exitCode === null && child.signalCode === null) child.kill(signal);
          return exited;
        },
        loop,
      });
    });
  });
}
