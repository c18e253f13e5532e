/**
 * The baseline for ingest: the built demo agent read by a bare ACP SDK client that stores
 * nothing and shows nothing — what the SDK alone reaches on this machine.
 */
import * as acp from '@agentclientprotocol/sdk';
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { tempDataDir } from '../../e2e/support/serve';

const DEMO_AGENT = resolve(import.meta.dirname, '../../out/main/demo-agent.js');

export interface BareClient {
  /** The demo agent's pid. */
  pid: number;
  /** Its sessions (`sessions` of `startBareClient`, one by default). */
  sessionIds: string[];
  /** Runs one prompt (in the first session, or `sessionId`); resolves with the ms until its answer and the updates received (of every session meanwhile). */
  prompt(text: string, sessionId?: string): Promise<{ ms: number; updates: number }>;
  /** Ends the agent's input and waits for it to exit (it writes what it must, a CPU profile included). */
  stop(): Promise<void>;
}

/** `sessions`: how many sessions to open on the agent; `env`: added to the agent's environment. */
export async function startBareClient(options: { sessions?: number; env?: NodeJS.ProcessEnv } = {}): Promise<BareClient> {
  const dir = tempDataDir();
  const child = spawn(process.execPath, [DEMO_AGENT, '--data-dir', join(dir.path, 'demo-agent')], {
    stdio: ['pipe', 'pipe', 'ignore'],
    env: { ...process.env, ...options.env },
  });
  let updates = 0;
  const conn = acp
    .client({ name: 'bench-bare' })
    .onNotification(acp.methods.client.session.update, () => {
      updates++;
    })
    .onNotification('*', () => {})
    .connect(acp.ndJsonStream(Writable.toWeb(child.stdin) as WritableStream<Uint8Array>, Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>));
  await conn.agent.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
  const sessionIds: string[] = [];
  for (let i = 0; i < (options.sessions ?? 1); i++) sessionIds.push((await conn.agent.request(acp.methods.agent.session.new, { cwd: dir.path, mcpServers: [] })).sessionId);
  return {
    pid: child.pid!,
    sessionIds,
    async prompt(text, sessionId = sessionIds[0]!) {
      const before = updates;
      const start = performance.now();
      await conn.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text }] });
      return { ms: performance.now() - start, updates: updates - before };
    },
    async stop() {
      const exited = new Promise((r) => child.once('exit', r));
      conn.close();
      // The agent exits once its input ends; one that does not is ended after a grace.
      child.stdin.end();
      const killer = setTimeout(() => child.kill('SIGTERM'), 3000);
      if (child.exitCode === null) await exited;
      clearTimeout(killer);
      dir.cleanup();
    },
  };
}
