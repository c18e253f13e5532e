import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RegistrySnapshot, type RegistryInstallProgressT, type RegistryManifestInput } from '../../shared/registry';
import { registryPlatform } from '../catalogue/registry/platform';
import { tar } from '../test-support/archive-writer';
import { startHarness, type Harness, type TestWindow } from '../test-support/host-harness';
import { serveBytes, startStandIn, type StandIn } from '../test-support/http-stand-in';
import { REPO_ROOT } from '../test-support/mcp-test-tools';
import { waitUntil } from '../test-support/processes';

const PLATFORM = registryPlatform();
const sha = (b: Buffer | string): string => createHash('sha256').update(b).digest('hex');

/** The bundled copy these hosts start from: one npx agent. */
const SNAPSHOT = RegistrySnapshot.parse({
  origin: { repository: 'agentclientprotocol/registry', commit: 'c'.repeat(40), date: '2026-01-01T00:00:00Z' },
  index: {
    version: '1.0.0',
    agents: [{ id: 'gemini', name: 'Gemini CLI', version: '0.27.3', description: 'Google’s agent', license: 'Apache-2.0', distribution: { npx: { package: '@google/gemini-cli@0.27.3' } } }],
    extensions: [],
  },
});

/** An archive holding a launcher that runs the real demo agent: a binary registry agent that answers. */
function demoArchive(): Buffer {
  const loader = pathToFileURL(join(REPO_ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;
  const script = `#!/bin/sh\nexec "${process.execPath}" --import "${loader}" "${join(REPO_ROOT, 'src/agents/demo/demo-agent.ts')}" "$@"\n`;
  return gzipSync(tar([{ name: 'demo-1.0/', type: '5' }, { name: 'demo-1.0/demo', data: script, mode: 0o755 }]));
}

function binaryEntry(version: string, archivePath: string, sha256?: string): RegistryManifestInput {
  return {
    id: 'demo-bin',
    name: 'Demo binary',
    version,
    description: 'The demo agent as a download',
    license: 'MIT',
    distribution: { binary: { [PLATFORM ?? 'linux-x86_64']: { archive: server.url(archivePath), cmd: './demo-1.0/demo', ...(sha256 ? { sha256 } : {}) } } },
  };
}

let server: StandIn;
let h: Harness | undefined;
let bin: string;
beforeEach(async () => {
  server = await startStandIn();
});
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
  await server.close();
});

async function start(extra: Parameters<typeof startHarness>[0] = {}): Promise<{ h: Harness; w: TestWindow }> {
  h = await startHarness({ registrySnapshot: SNAPSHOT, settings: { registryUrl: server.url('/registry.json') }, ...extra });
  // npx "installed" here, so an npx entry can be added; no uv.
  bin = join(h.dataDir, 'bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'npx'), '#!/bin/sh\n');
  chmodSync(join(bin, 'npx'), 0o755);
  await h.restart({ detectionEnv: { PATH: bin, HOME: h.dataDir } });
  return { h, w: h.window() };
}

const serveIndex = (agents: RegistryManifestInput[]) => server.route('/registry.json', serveBytes(JSON.stringify({ version: '1.0.0', agents })));

describe.skipIf(process.platform === 'win32' || PLATFORM === undefined)('the ACP registry through the contract', () => {
  it('lists the bundled copy without fetching (headless), and adds an npx agent with its pinned launch', async () => {
    const { w } = await start();
    const listing = await w.call('registry:list', {});
    expect(listing).toMatchObject({ source: 'snapshot', snapshot: { commit: 'c'.repeat(40) } });
    expect(server.log).toEqual([]);
    expect(listing.entries[0]).toMatchObject({ manifest: { id: 'gemini', license: 'Apache-2.0' }, preferred: 'npx', options: [{ kind: 'npx', need: { tool: 'node', satisfied: true } }] });

    const added = await w.call('registry:add', { registryId: 'gemini' });
    expect(added).toEqual({ agentId: 'gemini', name: 'Gemini CLI', info: { registryId: 'gemini', kind: 'npx', version: '0.27.3', pinned: false } });
    const list = await w.waitFor('agents:changed', (l) => l.agents.some((a) => a.id === 'gemini'));
    expect(list.agents.find((a) => a.id === 'gemini')).toMatchObject({ command: 'npx', args: ['-y', '@google/gemini-cli@0.27.3'], registry: { version: '0.27.3' } });
    expect(await w.call('registry:info', { agentId: 'gemini' })).toMatchObject({ version: '0.27.3', pinned: false });
    expect((await w.call('registry:list', {})).entries[0]?.addedAs).toEqual(['gemini']);
  });

  it('downloads a binary agent with progress to the asking window only, verifies it, and the agent runs', async () => {
    const archive = demoArchive();
    server.route('/demo.tar.gz', serveBytes(archive));
    serveIndex([binaryEntry('1.0.0', '/demo.tar.gz', sha(archive))]);
    const { h, w } = await start();
    const other = h.window('other');
    expect((await w.call('registry:list', { refresh: true })).source).toBe('network');

    const added = await w.call('registry:add', { registryId: 'demo-bin' });
    expect(added.info).toMatchObject({ kind: 'binary', version: '1.0.0', sha256: sha(archive) });
    const phases = w.events.filter((e) => e.event === 'registry:progress').map((e) => (e.payload as RegistryInstallProgressT).phase);
    expect(phases[0]).toBe('downloading');
    expect(phases.at(-1)).toBe('done');
    expect(phases).toContain('verifying');
    expect(other.events.some((e) => e.event === 'registry:progress')).toBe(false);
    expect(added.info.installDir?.startsWith(join(h.dataDir, 'agents', 'demo-bin'))).toBe(true);

    const tested = await w.call('agents:test', { agentId: 'demo-bin' });
    expect(tested).toMatchObject({ ok: true, agentName: 'demo-agent' });
  });

  it('refuses a download whose checksum does not match, and leaves no agent and no folder', async () => {
    server.route('/demo.tar.gz', serveBytes(demoArchive()));
    serveIndex([binaryEntry('1.0.0', '/demo.tar.gz', sha('something else'))]);
    const { h, w } = await start();
    await w.call('registry:list', { refresh: true });
    await expect(w.call('registry:add', { registryId: 'demo-bin' })).rejects.toMatchObject({ code: 'download_refused', message: expect.stringMatching(/sha256|checksum/i) as string });
    expect((await w.call('agents:list', {})).agents.map((a) => a.id)).toEqual(['demo']);
    expect(existsSync(join(h.dataDir, 'agents', 'demo-bin', '1.0.0'))).toBe(false);
  });

  it('falls back to the bundled copy when the index is invalid, hostile, unreachable or turned off, saying why', async () => {
    const { w } = await start();
    server.route('/registry.json', serveBytes('{ not json'));
    expect(await w.call('registry:list', { refresh: true })).toMatchObject({ source: 'snapshot', error: expect.stringContaining('not JSON') as string });

    // One hostile entry (an option slipped to npx, a path out of its folder) costs that entry only.
    serveIndex([
      { id: 'evil', name: 'Evil', version: '1.0.0', description: 'd', distribution: { npx: { package: '--registry=http://evil.example' } } },
      { id: 'climb', name: 'Climb', version: '1.0.0', description: 'd', distribution: { binary: { [PLATFORM ?? 'linux-x86_64']: { archive: server.url('/x.tar.gz'), cmd: '../../bin/sh' } } } },
      { ...SNAPSHOT.index.agents[0]!, version: '0.28.0', distribution: { npx: { package: '@google/gemini-cli@0.28.0' } } },
    ]);
    const hostile = await w.call('registry:list', { refresh: true });
    expect(hostile.source).toBe('network');
    expect(hostile.entries.map((e) => e.manifest.id)).toEqual(['gemini']);
    expect(hostile.skipped.map((s) => s.id)).toEqual(['evil', 'climb']);

    // Offline: the cache of the last good fetch.
    server.route('/registry.json', serveBytes('gone', {}, { status: 503 }));
    expect(await w.call('registry:list', { refresh: true })).toMatchObject({ source: 'cache', error: expect.stringContaining('503') as string });

    await w.call('settings:update', { registryUrl: '' });
    expect(await w.call('registry:list', { refresh: true })).toMatchObject({ source: 'snapshot', error: 'the registry address is not set' });
    await expect(w.call('settings:update', { registryUrl: 'ftp://example.com/registry.json' })).rejects.toMatchObject({ code: 'invalid_request' });
    await expect(w.call('settings:update', { registryUrl: 'not an address' })).rejects.toMatchObject({ code: 'invalid_request' });
  });

  it('shows a newer version, updates, rolls back and pins, and refuses an update while pinned', async () => {
    const { h, w } = await start();
    const other = h.window('other');
    await w.call('registry:add', { registryId: 'gemini' });
    serveIndex([{ ...SNAPSHOT.index.agents[0]!, version: '0.28.0', distribution: { npx: { package: '@google/gemini-cli@0.28.0' } } }]);
    const refreshed = await w.call('registry:list', { refresh: true });
    expect(refreshed.updates).toEqual([{ agentId: 'gemini', registryId: 'gemini', current: '0.27.3', latest: '0.28.0', pinned: false }]);
    await other.waitFor('registry:changed', (c) => c.source === 'network');
    await w.waitFor('agents:changed', (l) => l.agents.find((a) => a.id === 'gemini')?.registry?.latestVersion === '0.28.0');

    expect((await w.call('registry:update', { agentId: 'gemini' })).info).toMatchObject({ version: '0.28.0', previousVersion: '0.27.3' });
    const rolled = await w.call('registry:rollback', { agentId: 'gemini' });
    expect(rolled.info).toMatchObject({ version: '0.27.3', previousVersion: '0.28.0', pinned: true, latestVersion: '0.28.0' });
    expect((await w.call('agents:list', {})).agents.find((a) => a.id === 'gemini')?.args).toEqual(['-y', '@google/gemini-cli@0.27.3']);
    await expect(w.call('registry:update', { agentId: 'gemini' })).rejects.toMatchObject({ code: 'invalid_state' });
    expect(await w.call('registry:pin', { agentId: 'gemini', pinned: false })).toMatchObject({ pinned: false });
    expect((await w.call('registry:update', { agentId: 'gemini' })).info.version).toBe('0.28.0');
  });

  it('refuses bad requests: unknown entries and agents, malformed ids', async () => {
    const { w } = await start();
    await expect(w.call('registry:add', { registryId: 'nothing' })).rejects.toMatchObject({ code: 'not_found' });
    await expect(w.call('registry:add', { registryId: 'Not-An-Id' })).rejects.toMatchObject({ code: 'invalid_request' });
    await expect(w.call('registry:add', { registryId: 'gemini', kind: 'uvx' })).rejects.toMatchObject({ code: 'unsupported' });
    await expect(w.call('registry:info', { agentId: 'demo' })).rejects.toMatchObject({ code: 'not_found' });
    await expect(w.call('registry:rollback', { agentId: 'demo' })).rejects.toMatchObject({ code: 'not_found' });
    await w.call('registry:add', { registryId: 'gemini' });
    await expect(w.call('registry:add', { registryId: 'gemini', agentId: 'gemini' })).rejects.toMatchObject({ code: 'already_exists' });
    await expect(w.call('registry:rollback', { agentId: 'gemini' })).rejects.toMatchObject({ code: 'invalid_state' });
  });

  it('prunes a removed agent’s registry rows and its download', async () => {
    const archive = demoArchive();
    server.route('/demo.tar.gz', serveBytes(archive));
    serveIndex([binaryEntry('1.0.0', '/demo.tar.gz', sha(archive))]);
    const { h, w } = await start();
    await w.call('registry:list', { refresh: true });
    const added = await w.call('registry:add', { registryId: 'demo-bin' });
    const dir = added.info.installDir ?? '';
    expect(existsSync(dir)).toBe(true);
    await w.call('agents:remove', { agentId: 'demo-bin' });
    await expect(w.call('registry:info', { agentId: 'demo-bin' })).rejects.toMatchObject({ code: 'not_found' });
    expect(h.host.store.registry.list()).toEqual([]);
    await waitUntil(() => !existsSync(dir), 'the download folder removed');
  });
});

describe.skipIf(process.platform === 'win32')('the desktop app refreshes the registry in the background', () => {
  it('fetches the index after start without delaying it, and tells every window', async () => {
    let answer!: () => void;
    const allowed = new Promise<void>((resolve) => (answer = resolve));
    server.route('/registry.json', (_req, res) => {
      void allowed.then(() => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ version: '1.0.0', agents: [] })));
    });
    h = await startHarness({ registrySnapshot: SNAPSHOT, settings: { registryUrl: server.url('/registry.json') }, refreshRegistry: true });
    const w = h.window();
    await server.requested('/registry.json');
    answer();
    expect(await w.waitFor('registry:changed', () => true)).toMatchObject({ source: 'network' });
    expect((await w.call('registry:list', {})).source).toBe('network');
  });
});
