/**
 * The headless host as the benchmarks drive it: the built `switchboard serve` in its own
 * process (so the host's CPU is not shared with the client measuring it), and sessions on it.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { startServe, tempDataDir, type ServeProcess } from '../../e2e/support/serve';
import type { SessionViewT } from '../../src/shared/contract';
import { startProbedServe, type LoopProbe } from './probed-serve';
import { BenchClient } from './ws-client';

export interface BenchHost {
  serve: ServeProcess;
  /** The host's event-loop delay (only with `{ loopProbe: true }`). */
  loop: LoopProbe | undefined;
  client: BenchClient;
  dataDir: string;
  /** Resident memory of the host process, in bytes (Linux /proc). */
  rss(): number;
  stop(): Promise<void>;
}

/**
 * Starts `serve` on `dataDir` (a new temp dir if omitted) and connects one client. With
 * `loopProbe`, the host runs with bench/lib/loop-probe.mjs preloaded (proved before use);
 * `env` is added to the host's environment (git's config for the git fixtures).
 */
export async function startHost(extraArgs: string[] = [], dataDir?: string, options: { loopProbe?: boolean; env?: NodeJS.ProcessEnv } = {}): Promise<BenchHost> {
  const dir = dataDir ? undefined : tempDataDir();
  const path = dataDir ?? dir!.path;
  const probed = options.loopProbe ? await startProbedServe(path, extraArgs, [], options.env) : undefined;
  const serve = probed ?? (await startServe(path, extraArgs, options.env));
  if (probed) await probed.loop.prove();
  const client = await BenchClient.connect(serve.url);
  return {
    serve,
    loop: probed?.loop,
    client,
    dataDir: path,
    rss: () => rssOf(serve.child.pid!),
    async stop() {
      client.close();
      await serve.stop();
      dir?.cleanup();
    },
  };
}

export function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = /VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1];
  return Number(kb ?? 0) * 1024;
}

/** Creates a session on the demo agent, watched by `client`, and waits until it is live. */
export async function liveSession(client: BenchClient): Promise<string> {
  const id = randomUUID();
  const active = client.next('session:updated', (v: SessionViewT) => v.id === id && v.state === 'ACTIVE', 60_000);
  await client.call('sessions:create', { id });
  await client.call('sessions:switch', { sessionId: id });
  await active;
  return id;
}

/** Sends a prompt and resolves with the time (ms) until its turn_ended reached the client. */
export async function promptTurn(client: BenchClient, sessionId: string, text: string): Promise<number> {
  const clientMessageId = randomUUID();
  const ended = client.turnEnded(sessionId, clientMessageId);
  const start = performance.now();
  await client.call('prompt:send', { sessionId, clientMessageId, text });
  await ended;
  return performance.now() - start;
}
