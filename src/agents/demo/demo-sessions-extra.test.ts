import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as acp from '@agentclientprotocol/sdk';
import type { McpServer } from '@agentclientprotocol/sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DemoAgentProcess } from '../test-support/demo-agent-process';
import { AGENT_METHOD_ID, NOT_LOGGED_IN } from './auth';

/** The tiny MCP server the host's tests use too (a separate process: named by path, not imported). */
const TEST_MCP_SERVER = fileURLToPath(new URL('../../main/test-support/mcp-test-server.ts', import.meta.url));
/** `--import tsx` resolves from the working folder: the session runs in the repository. */
const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** Live processes whose command line holds `marker` (Linux /proc; zombies do not count). */
function processesWith(marker: string): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        const state = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0];
        return state !== 'Z' && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker);
      } catch {
        return false; // gone meanwhile
      }
    })
    .map(Number);
}

let dataDir: string;
const started: DemoAgentProcess[] = [];

function startAgent(args: string[] = []): DemoAgentProcess {
  const agent = new DemoAgentProcess(dataDir, args);
  started.push(agent);
  return agent;
}

async function startInitialized(args: string[] = []): Promise<DemoAgentProcess> {
  const agent = startAgent(args);
  await agent.initialize();
  return agent;
}

const said = (agent: DemoAgentProcess, sessionId: string): string => agent.textOf(sessionId, 'agent_message_chunk');

const SERVERS: McpServer[] = [
  { name: 'test-mcp', command: process.execPath, args: ['--import', 'tsx', TEST_MCP_SERVER], env: [{ name: 'TEST_TOKEN', value: 'tok-stdio-secret' }] },
  { type: 'http', name: 'docs', url: 'https://user:pw@mcp.example.com/mcp?key=url-secret', headers: [{ name: 'Authorization', value: 'Bearer header-secret' }] },
  { type: 'sse', name: 'events', url: 'http://127.0.0.1:9/sse', headers: [] },
];

beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'demo-extra-test-'));
});

afterEach(async () => {
  await Promise.all(started.splice(0).map((a) => a.kill()));
  rmSync(dataDir, { recursive: true, force: true });
});

describe('demo agent: capabilities it advertises', () => {
  it('takes MCP servers of every kind, forks sessions, and offers logout only with a sign-in', async () => {
    const plain = await startAgent().initialize();
    expect(plain.agentCapabilities?.mcpCapabilities).toEqual({ http: true, sse: true });
    expect(plain.agentCapabilities?.sessionCapabilities).toMatchObject({ fork: {} });
    expect(plain.agentCapabilities?.auth).toBeUndefined();
    const local = await startAgent(['--mcp', 'stdio', '--auth', 'status']).initialize();
    expect(local.agentCapabilities?.mcpCapabilities).toEqual({ http: false, sse: false });
    expect(local.agentCapabilities?.auth).toEqual({ logout: {} });
  });
});

describe('/mcp', () => {
  it('reports the servers session/new gave it by name, kind and command or address, never a secret value', async () => {
    const agent = await startInitialized();
    const sessionId = await agent.newSession('/tmp/project-a', SERVERS);
    await agent.prompt(sessionId, '/mcp');
    const text = said(agent, sessionId);
    expect(text).toBe(
      [
        'This session was given 3 MCP servers (values not shown):',
        `- test-mcp (stdio): ${process.execPath} --import tsx ${TEST_MCP_SERVER}; environment: TEST_TOKEN`,
        '- docs (http): https://mcp.example.com/mcp; headers: Authorization',
        '- events (sse): http://127.0.0.1:9/sse',
      ].join('\n'),
    );
    expect(text).not.toMatch(/secret|pw@/);
  });

  it('reports the servers of the latest load or resume, which replace the earlier ones', async () => {
    const first = await startInitialized();
    const sessionId = await first.newSession('/tmp/project-a', SERVERS);
    await first.kill();
    const second = await startInitialized();
    await second.agent.request(acp.methods.agent.session.resume, { sessionId, cwd: '/tmp/project-a', mcpServers: [SERVERS[2] as McpServer] });
    await second.prompt(sessionId, '/mcp');
    await second.agent.request(acp.methods.agent.session.load, { sessionId, cwd: '/tmp/project-a', mcpServers: [] });
    await second.prompt(sessionId, '/mcp');
    const text = said(second, sessionId);
    expect(text).toContain('This session was given 1 MCP server (values not shown):\n- events (sse): http://127.0.0.1:9/sse');
    expect(text.endsWith('This session was given no MCP servers.')).toBe(true);
  });

  it('/mcp tools starts a stdio server with the MCP SDK client, lists its tools and stops it', async () => {
    const agent = await startInitialized();
    // The server ignores the marker; it names this test's server process among all others.
    const marker = `--marker=${randomUUID()}`;
    const [stdio, ...rest] = SERVERS;
    const sessionId = await agent.newSession(REPO_ROOT, [{ ...(stdio as Extract<McpServer, { command: string }>), args: [...(stdio as Extract<McpServer, { command: string }>).args, marker] }, ...rest]);
    expect((await agent.prompt(sessionId, '/mcp tools')).stopReason).toBe('end_turn');
    expect(said(agent, sessionId)).toBe('test-mcp has 3 tools: echo, env, add');
    expect(processesWith(marker)).toEqual([]);
    const updates = agent.updatesFor(sessionId).map((u) => u.update);
    expect(updates.find((u) => u.sessionUpdate === 'tool_call')).toMatchObject({ title: 'List the tools of test-mcp', kind: 'fetch' });
    expect(updates.filter((u) => u.sessionUpdate === 'tool_call_update').at(-1)).toMatchObject({ status: 'completed' });
  }, 60_000);

  it('/mcp tools NAME says when a server cannot be reached, and when there is no such server', async () => {
    const agent = await startInitialized();
    const sessionId = await agent.newSession('/tmp/project-a', SERVERS);
    await agent.prompt(sessionId, '/mcp tools events');
    await agent.prompt(sessionId, '/mcp tools nope');
    const text = said(agent, sessionId);
    expect(text).toMatch(/^Could not list the tools of events: /);
    expect(text.endsWith('This session was given no MCP server named nope.')).toBe(true);
  });
});

describe('session/fork and /fork', () => {
  const fork = (agent: DemoAgentProcess, params: Record<string, unknown>) =>
    agent.agent.request<{ sessionId: string; modes?: unknown }>('session/fork', { cwd: '/tmp/project-b', mcpServers: [], ...params });

  it('makes a new session with the whole history, which reports its parent', async () => {
    const agent = await startInitialized();
    const source = await agent.newSession('/tmp/project-a');
    await agent.prompt(source, 'one');
    await agent.prompt(source, 'two');
    const answer = await fork(agent, { sessionId: source, mcpServers: [SERVERS[2]] });
    expect(answer.sessionId).not.toBe(source);
    expect(answer.modes).toBeDefined();
    // Announced like a new session, with no replay: the client has the transcript already.
    expect(agent.updatesFor(answer.sessionId).map((u) => u.update.sessionUpdate)).toEqual(['available_commands_update', 'session_info_update']);
    await agent.prompt(answer.sessionId, '/fork');
    await agent.prompt(answer.sessionId, '/history');
    await agent.prompt(answer.sessionId, '/mcp');
    expect(said(agent, answer.sessionId)).toBe(
      `This session is a fork of ${source}, with its first 2 prompts.History: 3 earlier prompts` + 'This session was given 1 MCP server (values not shown):\n- events (sse): http://127.0.0.1:9/sse',
    );
    await agent.prompt(source, '/fork');
    expect(said(agent, source)).toContain('This session is not a fork.');
    const { sessions } = await agent.agent.request(acp.methods.agent.session.list, {});
    expect(sessions.find((s) => s.sessionId === answer.sessionId)?.cwd).toBe('/tmp/project-b');
  });

  it('copies the history up to a prompt (_meta.upToPrompt), which a new process replays on load', async () => {
    const first = await startInitialized();
    const source = await first.newSession('/tmp/project-a');
    for (const text of ['one', 'two', 'three']) await first.prompt(source, text);
    const { sessionId } = await fork(first, { sessionId: source, _meta: { upToPrompt: 1 } });
    await first.kill();
    const second = await startInitialized();
    await second.agent.request(acp.methods.agent.session.load, { sessionId, cwd: '/tmp/project-b', mcpServers: [] });
    expect(second.textOf(sessionId, 'user_message_chunk')).toBe('one');
    expect(second.textOf(sessionId, 'agent_message_chunk')).toBe('Echo: one');
    // The source is untouched.
    await second.agent.request(acp.methods.agent.session.load, { sessionId: source, cwd: '/tmp/project-a', mcpServers: [] });
    expect(second.textOf(source, 'user_message_chunk')).toBe('onetwothree');
  });

  it('refuses an unknown session and bad parameters', async () => {
    const agent = await startInitialized();
    const source = await agent.newSession('/tmp/project-a');
    await expect(fork(agent, { sessionId: 'no-such-session' })).rejects.toMatchObject({ code: -32002 });
    await expect(fork(agent, { sessionId: source, cwd: 'relative' })).rejects.toMatchObject({ code: -32602 });
    await expect(fork(agent, { sessionId: source, _meta: { upToPrompt: -1 } })).rejects.toMatchObject({ code: -32602 });
  });
});

describe('logout and /logout', () => {
  it('logout signs the agent out: the next prompt needs a sign-in, authenticate signs it in again', async () => {
    const agent = await startInitialized(['--auth', 'required']);
    await agent.agent.request(acp.methods.agent.authenticate, { methodId: AGENT_METHOD_ID });
    const sessionId = await agent.newSession('/tmp/project-a');
    expect((await agent.prompt(sessionId, 'hello')).stopReason).toBe('end_turn');
    await agent.agent.request(acp.methods.agent.logout, {});
    await expect(agent.prompt(sessionId, 'again')).rejects.toMatchObject({ code: -32000, message: expect.stringContaining(NOT_LOGGED_IN) });
    await expect(agent.agent.request(acp.methods.agent.session.new, { cwd: '/tmp/project-a', mcpServers: [] })).rejects.toMatchObject({ code: -32000 });
    await agent.agent.request(acp.methods.agent.authenticate, { methodId: AGENT_METHOD_ID });
    expect((await agent.prompt(sessionId, 'back')).stopReason).toBe('end_turn');
  });

  it('/logout signs out from the agent side', async () => {
    const agent = await startInitialized(['--auth', 'status']);
    await agent.agent.request(acp.methods.agent.authenticate, { methodId: AGENT_METHOD_ID });
    const sessionId = await agent.newSession('/tmp/project-a');
    await agent.prompt(sessionId, '/logout');
    expect(said(agent, sessionId)).toContain('Signed out. The next prompt needs a sign-in.');
    await expect(agent.prompt(sessionId, 'after')).rejects.toMatchObject({ code: -32000 });
  });

  it('has nothing to sign out of without --auth: logout is unknown, /logout says so', async () => {
    const agent = await startInitialized();
    await expect(agent.agent.request(acp.methods.agent.logout, {})).rejects.toMatchObject({ code: -32601 });
    const sessionId = await agent.newSession('/tmp/project-a');
    await agent.prompt(sessionId, '/logout');
    expect(said(agent, sessionId)).toBe('Nothing to sign out of: this demo agent was started without --auth.');
  });
});
