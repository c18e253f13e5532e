import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { McpServerViewT } from '../../shared/mcp';
import { captureLogger, type LogEntry } from '../test-support/capture-logger';
import { FakeClock } from '../test-support/fake-clock';
import { startHarness, type Harness, type TestWindow } from '../test-support/host-harness';
import { TEST_MCP_TOOLS, portableTestMcpServerCommand } from '../test-support/mcp-test-tools';

let h: Harness | undefined;
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
});

const SECRET = `mcp-secret-${crypto.randomUUID()}`;

/** What the data folder's SQLite files hold, WAL included (recent writes live there until a checkpoint). */
function databaseBytes(harness: Harness): string {
  harness.host.eventLog.flush();
  return [harness.database, `${harness.database}-wal`]
    .filter((f) => existsSync(f))
    .map((f) => readFileSync(f).toString('latin1'))
    .join('');
}

async function start(entries: LogEntry[] = [], extra: Parameters<typeof startHarness>[0] = {}): Promise<{ h: Harness; w: TestWindow }> {
  h = await startHarness({ log: captureLogger(entries), ...extra });
  return { h, w: h.window() };
}

/** A session of `agentId` the window watches, once its agent session is live. */
async function liveSessionOf(harness: Harness, w: TestWindow, agentId = 'demo'): Promise<string> {
  const view = await w.call('sessions:create', { agentId, cwd: harness.dataDir });
  await w.call('sessions:switch', { sessionId: view.id });
  await w.waitForState(view.id, 'ACTIVE');
  return view.id;
}

/** What the demo agent says `/mcp` is: the servers its session/new, load or resume carried. */
async function askMcp(w: TestWindow, sessionId: string): Promise<string> {
  const before = w.agentText(sessionId).length;
  await w.prompt(sessionId, '/mcp');
  return w.agentText(sessionId).slice(before);
}

const stdioServer = (agentIds = ['demo']) => ({
  type: 'stdio' as const,
  name: 'tools',
  ...portableTestMcpServerCommand(),
  env: [
    { name: 'TEST_TOKEN', secret: true, value: SECRET },
    { name: 'MODE', secret: false, value: 'plain' },
  ],
  agentIds,
});

describe('mcp:save, mcp:list and mcp:changed', () => {
  it('keeps a secret out of every window, the log and SQLite, and tells every window of the change', async () => {
    const entries: LogEntry[] = [];
    const { h, w } = await start(entries);
    const other = h.window('other');
    const saved = await w.call('mcp:save', stdioServer());
    expect(saved).toMatchObject({ name: 'tools', type: 'stdio', agentIds: ['demo'] });
    expect(saved.type === 'stdio' && saved.env).toEqual([
      { name: 'TEST_TOKEN', secret: true, set: true },
      { name: 'MODE', secret: false, value: 'plain', set: true },
    ]);
    const pushed = await other.waitFor('mcp:changed', (l) => l.servers.some((s) => s.id === saved.id));
    expect(pushed.servers).toHaveLength(1);
    expect((await w.call('mcp:list', {})).servers.map((s) => s.name)).toEqual(['tools']);

    // Saved again without the value: the stored one is kept.
    const edited = await w.call('mcp:save', { ...stdioServer(), id: saved.id, env: [{ name: 'TEST_TOKEN', secret: true }] });
    expect(edited.type === 'stdio' && edited.env).toEqual([{ name: 'TEST_TOKEN', secret: true, set: true }]);

    const sessionId = await liveSessionOf(h, w);
    expect(await askMcp(w, sessionId)).toContain('- tools (stdio):');
    expect(JSON.stringify(w.events)).not.toContain(SECRET);
    expect(JSON.stringify(other.events)).not.toContain(SECRET);
    expect(JSON.stringify(entries)).not.toContain(SECRET);
    expect(databaseBytes(h)).not.toContain(SECRET);
  });

  it('refuses bad input before anything is stored', async () => {
    const { w } = await start();
    await expect(w.call('mcp:save', { ...stdioServer(), name: '  ' })).rejects.toMatchObject({ code: 'invalid_request' });
    await expect(w.call('mcp:save', { type: 'http', name: 'web', url: 'ftp://example.com/mcp', agentIds: [] })).rejects.toMatchObject({ code: 'invalid_request' });
    await expect(w.call('mcp:save', { type: 'http', name: 'web', url: 'https://example.com/mcp', headers: [{ name: 'X\r\nY', value: 'v' }] })).rejects.toMatchObject({
      code: 'invalid_request',
    });
    await expect(w.call('mcp:save', { type: 'http', name: 'web', url: 'https://example.com/mcp', headers: [{ name: 'Authorization', secret: true }] })).rejects.toMatchObject({
      code: 'invalid_request',
    });
    await expect(w.call('mcp:save', stdioServer(['no-such-agent']))).rejects.toMatchObject({ code: 'not_found' });
    expect((await w.call('mcp:list', {})).servers).toEqual([]);
    await w.call('mcp:save', stdioServer());
    await expect(w.call('mcp:save', { ...stdioServer(), name: 'TOOLS' })).rejects.toMatchObject({ code: 'already_exists' });
    await expect(w.call('mcp:remove', { serverId: 'nope' })).rejects.toMatchObject({ code: 'not_found' });
    await expect(w.call('mcp:enable', { serverId: 'nope', agentId: 'demo', enabled: true })).rejects.toMatchObject({ code: 'not_found' });
    await expect(w.call('mcp:test', { serverId: 'nope' })).rejects.toMatchObject({ code: 'not_found' });
    await expect(w.call('mcp:import', { keys: [] })).rejects.toMatchObject({ code: 'invalid_request' });
  });
});

describe('what a session is given', () => {
  it('gives a new session the servers turned on for its agent, shows them in its view and transcript, and again when it resumes', async () => {
    const { h, w } = await start();
    await w.call('mcp:save', stdioServer());
    const sessionId = await liveSessionOf(h, w);
    const view = await w.waitFor('session:updated', (v) => v.id === sessionId && v.mcpServers !== undefined);
    expect(view.mcpServers).toEqual([{ name: 'tools', type: 'stdio', target: expect.stringContaining('mcp-test-server.ts') as string }]);
    expect(h.stored(sessionId).filter((e) => e.kind === 'notice' && e.payload.kind === 'mcp_servers').map((e) => e.kind === 'notice' && e.payload.text)).toEqual([
      'MCP servers given to Demo agent: tools (stdio).',
    ]);
    expect(await askMcp(w, sessionId)).toMatch(/This session was given 1 MCP server \(values not shown\):\n- tools \(stdio\): .*mcp-test-server\.ts; environment: TEST_TOKEN, MODE/);

    // Closed, then woken by a prompt: the agent process is new and resumes the session with them.
    await w.call('sessions:close', { sessionId });
    expect(await askMcp(w, sessionId)).toContain('This session was given 1 MCP server');
    // The same list twice in one run is said once.
    expect(h.stored(sessionId).filter((e) => e.kind === 'notice' && e.payload.kind === 'mcp_servers')).toHaveLength(1);
  });

  it('gives HTTP and SSE servers only to agents that take them, and says why the others were skipped', async () => {
    const { h, w } = await start([], { demoAgentArgs: ['--mcp', 'stdio'] });
    await w.call('mcp:save', stdioServer());
    await w.call('mcp:save', { type: 'http', name: 'web', url: 'https://mcp.example.com/mcp?key=url-secret', headers: [{ name: 'Authorization', secret: true, value: `Bearer ${SECRET}` }], agentIds: ['demo'] });
    await w.call('mcp:save', { type: 'sse', name: 'events', url: 'http://127.0.0.1:9/sse', agentIds: ['demo'] });
    const sessionId = await liveSessionOf(h, w);
    const view = await w.waitFor('session:updated', (v) => v.id === sessionId && v.mcpServers !== undefined);
    expect(view.mcpServers).toEqual([
      expect.objectContaining({ name: 'tools', type: 'stdio' }),
      { name: 'web', type: 'http', target: 'https://mcp.example.com/mcp', skipped: 'The agent does not take MCP servers over HTTP.' },
      { name: 'events', type: 'sse', target: 'http://127.0.0.1:9/sse', skipped: 'The agent does not take MCP servers over SSE.' },
    ]);
    const said = await askMcp(w, sessionId);
    expect(said).toContain('This session was given 1 MCP server');
    expect(said).not.toContain('web');
    const notice = h.stored(sessionId).find((e) => e.kind === 'notice' && e.payload.kind === 'mcp_servers');
    expect(notice?.kind === 'notice' && notice.payload.text).toBe(
      'MCP servers given to Demo agent: tools (stdio). Skipped web (http): The agent does not take MCP servers over HTTP. Skipped events (sse): The agent does not take MCP servers over SSE.',
    );
    // The header's secret never reaches a window; the address's query (which may carry a token)
    // is left out of what the session shows, though Settings shows the address as it was typed.
    expect(JSON.stringify(w.events)).not.toContain(SECRET);
    expect(JSON.stringify(w.events.filter((e) => e.event.startsWith('session:')))).not.toContain('url-secret');
  });

  it('gives a session nothing once the server is turned off for its agent, and nothing to other agents', async () => {
    const { h, w } = await start();
    const saved = await w.call('mcp:save', stdioServer());
    const off = await w.call('mcp:enable', { serverId: saved.id, agentId: 'demo', enabled: false });
    expect(off.agentIds).toEqual([]);
    const sessionId = await liveSessionOf(h, w);
    expect(await askMcp(w, sessionId)).toBe('This session was given no MCP servers.');
    expect(h.stored(sessionId).some((e) => e.kind === 'notice' && e.payload.kind === 'mcp_servers')).toBe(false);
    await expect(w.call('mcp:enable', { serverId: saved.id, agentId: 'ghost', enabled: true })).rejects.toMatchObject({ code: 'not_found' });
  });

  it('forgets an agent that leaves the catalogue', async () => {
    const { w } = await start();
    await w.call('agents:save', { id: 'extra', name: 'Extra', command: 'extra-agent', create: true });
    const saved = await w.call('mcp:save', stdioServer(['demo', 'extra']));
    expect(saved.agentIds).toEqual(['demo', 'extra']);
    await w.call('agents:remove', { agentId: 'extra' });
    const after = await w.waitFor('mcp:changed', (l) => l.servers[0]?.agentIds.length === 1);
    expect(after.servers[0]?.agentIds).toEqual(['demo']);
  });
});

describe('mcp:test', () => {
  it('lists the tools with progress to the asking window only, and keeps the result with the server', async () => {
    const { h, w } = await start([], { settings: { defaultCwd: '/' } });
    const other = h.window('other');
    const saved = await w.call('mcp:save', stdioServer());
    const result = await w.call('mcp:test', { serverId: saved.id });
    expect(result.ok && result.tools.map((t) => t.name)).toEqual([...TEST_MCP_TOOLS]);
    expect(w.events.filter((e) => e.event === 'mcp:progress').map((e) => (e.payload as { step: string }).step)).toEqual(['starting', 'listing', 'done']);
    expect(other.events.some((e) => e.event === 'mcp:progress')).toBe(false);
    const pushed = await other.waitFor('mcp:changed', (l) => l.servers[0]?.lastTest !== undefined);
    expect(pushed.servers[0]?.lastTest).toEqual(result);
    // The server's own view of its secret is fine; the window never sees it.
    expect(JSON.stringify(w.events)).not.toContain(SECRET);
  });

  it('says why a server that cannot start failed, and stops one that never answers at the deadline', async () => {
    const clock = new FakeClock();
    const { w } = await start([], { clock, mcpTestTimeoutMs: 5_000 });
    const missing = await w.call('mcp:save', { type: 'stdio', name: 'missing', command: 'no-such-mcp-server-command', agentIds: [] });
    const failed = await w.call('mcp:test', { serverId: missing.id });
    expect(failed).toMatchObject({ ok: false, reason: 'spawn_failed', message: 'Could not start `no-such-mcp-server-command`: the command was not found.' });

    const hanging = await w.call('mcp:save', { type: 'stdio', name: 'hangs', ...portableTestMcpServerCommand('--hang'), agentIds: [] });
    const testing = w.call('mcp:test', { serverId: hanging.id });
    await w.waitFor('mcp:progress', (p) => p.serverId === hanging.id && p.step === 'starting');
    await clock.advance(5_000);
    expect(await testing).toMatchObject({ ok: false, reason: 'timeout', message: 'hangs did not answer within 5 s; it was stopped.' });
    const list = await w.call('mcp:list', {});
    expect(list.servers.find((s) => s.id === hanging.id)?.lastTest).toMatchObject({ reason: 'timeout' });
  });
});

describe('mcp:scan and mcp:import', () => {
  function claudeCodeFile(home: string): void {
    writeFileSync(
      join(home, '.claude.json'),
      JSON.stringify({
        mcpServers: {
          github: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-github'], env: { GITHUB_TOKEN: SECRET } },
          tools: { command: 'tools-server' },
        },
      }),
    );
  }

  it('shows what it found with its source file and no secret value, then adds the chosen ones, secrets in the secret box', async () => {
    const entries: LogEntry[] = [];
    const { h: first } = await start(entries);
    const home = join(first.dataDir, 'home');
    mkdirSync(home);
    claudeCodeFile(home);
    await first.restart({ mcpImportHome: home, log: captureLogger(entries) });
    const w = first.window();
    await w.call('mcp:save', { type: 'stdio', name: 'tools', command: 'mine', agentIds: [] });

    const report = await w.call('mcp:scan', {});
    const github = report.candidates.find((c) => c.server.name === 'github');
    expect(github).toMatchObject({ source: 'claude-code', file: join(home, '.claude.json'), scope: 'user' });
    expect(github?.server.type === 'stdio' && github.server.env).toEqual([{ name: 'GITHUB_TOKEN', secret: true, set: true }]);
    expect(report.searched).toContain(join(home, '.claude.json'));
    expect(JSON.stringify(report)).not.toContain(SECRET);

    const keys = report.candidates.map((c) => c.key);
    const result = await w.call('mcp:import', { keys: [...keys, 'gone'], agentIds: ['demo'] });
    expect(result.missing).toEqual(['gone']);
    expect(result.added.map((s: McpServerViewT) => s.name)).toEqual(['github', 'tools (2)']);
    expect(result.added.every((s) => s.agentIds.join() === 'demo')).toBe(true);
    const sessionId = await liveSessionOf(first, w);
    expect(await askMcp(w, sessionId)).toContain('- github (stdio): npx -y @modelcontextprotocol/server-github; environment: GITHUB_TOKEN');
    expect(JSON.stringify(w.events)).not.toContain(SECRET);
    expect(JSON.stringify(entries)).not.toContain(SECRET);
    expect(databaseBytes(first)).not.toContain(SECRET);
  });
});
