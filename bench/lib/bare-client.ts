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
  /** Runs one prompt; resolves with the ms until its answer and the updates received. */
  prompt(text: string): Promise<{ ms: number; updates: number }>;
  stop(): Promise<void>;
}

export async function startBareClient(): Promise<BareClient> {
  const dir = tempDataDir();
  const child = spawn(process.execPath, [DEMO_AGENT, '--data-dir', join(dir.path, 'demo-agent')], { stdio: ['pipe', 'pipe', 'ignore'] });
  let updates = 0;
  const conn = acp
    .client({ name: 'bench-bare' })
    .onNotification(acp.methods.client.session.update, () => {
      updates++;
    })
    .onNotification('*', () => {})
    .connect(acp.ndJsonStream(Writable.toWeb(child.stdin) as WritableStream<Uint8Array>, Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>));
  await conn.agent.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
  const { sessionId } = await conn.agent.request(acp.methods.agent.session.new, { cwd: dir.path, mcpServers: [] });
  return {
    pid: child.pid!,
    async prompt(text) {
      const before = updates;
      const start = performance.now();
      await conn.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text }] });
      return { ms: performance.now() - start, updates: updates - before };
    },
    async stop() {
      conn.close();
      child.stdin.end();
      const exited = new Promise((r) => child.once('exit', r));
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
      dir.cleanup();
    },
  };
}
