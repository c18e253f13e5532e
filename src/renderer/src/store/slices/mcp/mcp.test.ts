import { describe, expect, it } from 'vitest';
import type { McpServerViewT, McpTestResultT } from '../../../../../shared/contract';
import { deferred, flush } from '../../../test-support/fake-api';
import { boundStore, ok } from '../../../test-support/store-fixtures';
import { mcpSelectors } from './selectors';

const server = (over: Partial<McpServerViewT> = {}): McpServerViewT =>
  ({ id: 's1', name: 'tools', type: 'stdio', command: 'tools', args: [], env: [], agentIds: ['demo'], createdAt: 1, updatedAt: 1, ...over }) as McpServerViewT;
const passed: McpTestResultT = { ok: true, at: 2, durationMs: 300, tools: [{ name: 'echo' }] };

describe('mcp slice', () => {
  it('loads the servers and follows what any window changes', async () => {
    const { fake, store } = boundStore();
    fake.handle('mcp:list', () => ok({ servers: [server()] }));
    expect(await store.getState().loadMcpServers()).toBeUndefined();
    expect(mcpSelectors.servers(store.getState()).map((s) => s.name)).toEqual(['tools']);
    fake.emit('mcp:changed', { servers: [server(), server({ id: 's2', name: 'web' })] });
    await flush();
    expect(store.getState().mcpServers.map((s) => s.id)).toEqual(['s1', 's2']);
  });

  it('adds or replaces a saved server, and hands a refusal back to the form', async () => {
    const { fake, store } = boundStore();
    fake.handle('mcp:save', (req) => (req.name === 'bad' ? { ok: false, error: { code: 'invalid_request', message: 'name is taken' } } : ok(server({ id: req.id ?? 'new', name: req.name }))));
    expect(await store.getState().saveMcpServer({ type: 'stdio', name: 'bad', command: 'x' })).toMatchObject({ message: 'name is taken' });
    expect(store.getState().mcpServers).toEqual([]);
    await store.getState().saveMcpServer({ type: 'stdio', name: 'tools', command: 'x' });
    await store.getState().saveMcpServer({ type: 'stdio', id: 'new', name: 'renamed', command: 'x' });
    expect(store.getState().mcpServers.map((s) => s.name)).toEqual(['renamed']);
  });

  it('turns a server on or off for an agent, and removes it only when the host agreed', async () => {
    const { fake, store } = boundStore();
    store.setState({ mcpServers: [server()] });
    fake.handle('mcp:enable', (req) => ok(server({ agentIds: req.enabled ? ['demo', req.agentId] : [] })));
    await store.getState().setMcpEnabled('s1', 'qwen', true);
    expect(store.getState().mcpServers[0]?.agentIds).toEqual(['demo', 'qwen']);
    fake.handle('mcp:remove', () => ({ ok: false, error: { code: 'not_found', message: 'gone' } }));
    expect(await store.getState().removeMcpServer('s1')).toMatchObject({ code: 'not_found' });
    expect(store.getState().mcpServers).toHaveLength(1);
    fake.handle('mcp:remove', () => ok({ ok: true as const }));
    await store.getState().removeMcpServer('s1');
    expect(store.getState().mcpServers).toEqual([]);
  });

  it('shows a Test as running with its steps, then its result; ignores progress of tests it did not start', async () => {
    const { fake, store } = boundStore();
    store.setState({ mcpServers: [server()] });
    fake.emit('mcp:progress', { serverId: 'other', step: 'listing', elapsedMs: 1 });
    expect(store.getState().mcpTests.size).toBe(0);
    const answer = deferred<ReturnType<typeof ok<McpTestResultT>>>();
    fake.handle('mcp:test', () => answer.promise);
    const running = store.getState().testMcpServer('s1');
    expect(mcpSelectors.testProgress('s1')(store.getState())?.step).toBe('starting');
    fake.emit('mcp:progress', { serverId: 's1', step: 'listing', elapsedMs: 120 });
    expect(mcpSelectors.testProgress('s1')(store.getState())).toEqual({ serverId: 's1', step: 'listing', elapsedMs: 120 });
    answer.resolve(ok(passed));
    expect(await running).toBeUndefined();
    expect(mcpSelectors.testProgress('s1')(store.getState())).toBeUndefined();
    expect(store.getState().mcpServers[0]?.lastTest).toEqual(passed);
  });

  it('scans, then adds the chosen candidates and closes the Import panel', async () => {
    const { fake, store } = boundStore();
    fake.handle('mcp:scan', () => ok({ candidates: [], problems: [], searched: ['/home/me/.claude.json'] }));
    await store.getState().scanMcpImports();
    expect(mcpSelectors.importReport(store.getState())?.searched).toEqual(['/home/me/.claude.json']);
    fake.handle('mcp:import', (req) => ok({ added: [server({ id: 'i1', agentIds: req.agentIds ?? [] })], missing: ['gone'] }));
    expect(await store.getState().importMcpServers(['k1', 'gone'], ['demo'])).toEqual({ ok: true, added: 1, missing: 1 });
    expect(fake.calls.find((c) => c.command === 'mcp:import')?.req).toEqual({ keys: ['k1', 'gone'], agentIds: ['demo'] });
    expect(store.getState().mcpServers.map((s) => s.id)).toEqual(['i1']);
    expect(store.getState().mcpImport).toBeUndefined();
  });
});
