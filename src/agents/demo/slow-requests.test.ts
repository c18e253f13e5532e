import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as acp from '@agentclientprotocol/sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DemoAgentProcess, untilWithdrawn } from '../test-support/demo-agent-process';
import { cancelledLine, parseSlow } from './slow-requests';

let dataDir: string;
const started: DemoAgentProcess[] = [];

function start(args: string[]): DemoAgentProcess {
  const agent = new DemoAgentProcess(dataDir, args);
  started.push(agent);
  return agent;
}

/** Resolves once the agent's stderr holds `text` (it is written as the cancel arrives). */
async function stderrSays(agent: DemoAgentProcess, text: string): Promise<void> {
  const until = Date.now() + 10_000;
  while (!agent.stderr.includes(text)) {
    if (Date.now() > until) throw new Error(`stderr never said ${text}:\n${agent.stderr}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'demo-slow-test-'));
});

afterEach(async () => {
  await Promise.all(started.splice(0).map((a) => a.kill()));
  rmSync(dataDir, { recursive: true, force: true });
});

describe('--slow', () => {
  it('reads METHOD=MS pairs and refuses unknown methods and bad numbers', () => {
    expect([...parseSlow('initialize=50, session/new=0')]).toEqual([
      ['initialize', 50],
      ['session/new', 0],
    ]);
    expect(parseSlow(undefined).size).toBe(0);
    expect(() => parseSlow('session/prompt=5')).toThrow(/unknown method/);
    expect(() => parseSlow('initialize=soon')).toThrow(/whole number/);
  });

  it('answers a slow session/new -32800 at once when the client cancels it, and says so on stderr', async () => {
    const agent = start(['--slow', 'session/new=60000']);
    await agent.initialize();
    const cancel = new AbortController();
    const asked = agent.agent.request(acp.methods.agent.session.new, { cwd: '/tmp', mcpServers: [] }, { cancellationSignal: cancel.signal });
    setTimeout(() => cancel.abort(), 50);
    const started = Date.now();
    await expect(asked).rejects.toMatchObject({ code: -32800 });
    expect(Date.now() - started).toBeLessThan(5_000);
    await stderrSays(agent, cancelledLine('session/new'));
  });

  it('reports a cancelled initialize too', async () => {
    const agent = start(['--slow', 'initialize=60000']);
    const cancel = new AbortController();
    const asked = agent.agent.request(
      acp.methods.agent.initialize,
      { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} },
      { cancellationSignal: cancel.signal, stopWaitingOnCancel: true },
    );
    cancel.abort();
    await expect(asked).rejects.toMatchObject({ code: -32800 });
    await stderrSays(agent, cancelledLine('initialize'));
  });
});

describe('/cancel-request terminal', () => {
  // 0 ms withdraws the wait as it is sent: the client sees the request already cancelled.
  it.each([0, 20])('stops waiting for a terminal with $/cancel_request after %i ms, reports the -32800 answer, and kills and releases it', async (ms) => {
    const agent = start([]);
    await agent.initialize({ terminal: true });
    const sessionId = await agent.newSession('/tmp');
    const calls: string[] = [];
    agent.terminalHandler = async (method, _params, signal) => {
      calls.push(method);
      if (method === 'terminal/create') return { terminalId: 't1' };
      if (method === 'terminal/wait_for_exit') {
        await untilWithdrawn(signal);
      }
      return {};
    };
    await agent.prompt(sessionId, `/cancel-request terminal ${ms}`);
    expect(agent.textOf(sessionId, 'agent_message_chunk')).toMatch(/^Withdrew the terminal request with \$\/cancel_request; the client answered error -32800/);
    expect(calls).toEqual(['terminal/create', 'terminal/wait_for_exit', 'terminal/kill', 'terminal/release']);
  });
});

describe('/terminal and Stop', () => {
  it('kills the terminal when Stop came while it was starting (before the agent listened for it), then releases it', async () => {
    const agent = start([]);
    await agent.initialize({ terminal: true });
    const sessionId = await agent.newSession('/tmp');
    const calls: string[] = [];
    let killed!: () => void;
    const kill = new Promise<void>((resolve) => (killed = resolve));
    agent.terminalHandler = async (method) => {
      calls.push(method);
      // The cancel goes out before the answer to create: the turn is cancelled before it waits.
      if (method === 'terminal/create') {
        await agent.cancel(sessionId);
        return { terminalId: 't1' };
      }
      if (method === 'terminal/kill') killed();
      if (method === 'terminal/wait_for_exit') {
        await kill;
        return { exitCode: null, signal: 'SIGKILL' };
      }
      if (method === 'terminal/output') return { output: '', truncated: false };
      return {};
    };
    const answer = await agent.prompt(sessionId, '/terminal sleep 30');
    expect(answer.stopReason).toBe('cancelled');
    expect(calls).toEqual(['terminal/create', 'terminal/kill', 'terminal/wait_for_exit', 'terminal/output', 'terminal/release']);
  });
});
