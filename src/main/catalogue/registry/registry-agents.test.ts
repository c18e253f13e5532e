import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RegistryManifest, type RegistryManifestT } from '../../../shared/registry';
import { AgentsRepo } from '../../store/agents.repo';
import { openDatabase, type Db } from '../../store/db';
import { RegistryRepo } from '../../store/registry.repo';
import { tar } from '../../test-support/archive-writer';
import { FakeClock } from '../../test-support/fake-clock';
import { serveBytes, startStandIn, type StandIn } from '../../test-support/http-stand-in';
import { tempDir } from '../../test-support/temp-dir';
import { silentLogger } from '../../util/log';
import { BinaryInstaller } from './binary-installer';
import type { Tools } from './needs';
import { RegistryAgents, suggestAgentId } from './registry-agents';
import { RegistryIndexSource } from './registry-source';
import { bundledSnapshot } from './snapshot';

let server: StandIn;
let clock: FakeClock;
let dir: { path: string; cleanup(): void };
let db: Db;
let agentsRepo: AgentsRepo;
let registryRepo: RegistryRepo;
let tools: Tools;
let changed: string[];
let agentsRoot: string;

beforeEach(async () => {
  server = await startStandIn();
  clock = new FakeClock(Date.parse('2026-03-01T00:00:00Z'));
  dir = tempDir();
  db = openDatabase(join(dir.path, 'switchboard.db'));
  agentsRepo = new AgentsRepo(db);
  registryRepo = new RegistryRepo(db);
  tools = { npx: '/usr/bin/npx' };
  changed = [];
  agentsRoot = join(dir.path, 'agents');
});
afterEach(async () => {
  db.close();
  await server.close();
  dir.cleanup();
});

function service(): RegistryAgents {
  return new RegistryAgents({
    registry: registryRepo,
    agents: agentsRepo,
    installer: new BinaryInstaller({ agentsRoot, clock, log: silentLogger, platform: 'linux' }),
    agentsRoot,
    platform: 'linux-x86_64',
    tools: () => Promise.resolve(tools),
    isReserved: (id) => id === 'demo',
    clock,
    log: silentLogger,
    onDidChange: (id) => changed.push(id),
  });
}

const npxEntry = (version: string) =>
  RegistryManifest.parse({ id: 'gemini', name: 'Gemini CLI', version, description: 'd', distribution: { npx: { package: `@google/gemini-cli@${version}`, args: ['--experimental-acp'] } } });

/** A binary entry whose archive (served now) holds a program printing its version. */
function binaryEntry(version: string, env: Record<string, string> = {}): RegistryManifestT {
  server.route(`/kimi-${version}.tar.gz`, serveBytes(gzipSync(tar([{ name: `kimi-${version}/kimi`, data: `#!/bin/sh\necho ${version}\n` }]))));
  return RegistryManifest.parse({
    id: 'kimi',
    name: 'Kimi CLI',
    version,
    description: 'd',
    distribution: { binary: { 'linux-x86_64': { archive: server.url(`/kimi-${version}.tar.gz`), cmd: './kimi', args: ['acp'], env } } },
  });
}

async function failure(p: Promise<unknown> | (() => unknown)): Promise<{ code: string; message: string }> {
  const promise = typeof p === 'function' ? Promise.resolve().then(p) : p;
  return promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (err: { code: string; message: string }) => err,
  );
}

describe('agents from the registry', () => {
  it('adds an npx entry as its pinned launch, under the registry id or the next free one', async () => {
    const s = service();
    const first = await s.add({ manifest: npxEntry('0.27.3') });
    expect(first.definition).toEqual({ id: 'gemini', name: 'Gemini CLI', command: 'npx', args: ['-y', '@google/gemini-cli@0.27.3', '--experimental-acp'], env: {} });
    expect(first.info).toEqual({ registryId: 'gemini', kind: 'npx', version: '0.27.3', pinned: false });
    expect(agentsRepo.get('gemini')).toMatchObject({ source: 'user', command: 'npx' });
    const second = await s.add({ manifest: npxEntry('0.27.3') });
    expect(second.definition.id).toBe('gemini-2');
    expect(await failure(s.add({ manifest: npxEntry('0.27.3'), agentId: 'gemini' }))).toMatchObject({ code: 'already_exists' });
    expect(suggestAgentId('demo', (id) => id === 'demo')).toBe('demo-2');
    expect(changed).toEqual(['gemini', 'gemini-2']);
  });

  it('adds a binary entry by downloading it, and runs it from its folder', async () => {
    const added = await service().add({ manifest: binaryEntry('1.9.0', { KIMI_NO_UPDATE: '1' }) });
    const exe = join(agentsRoot, 'kimi', '1.9.0', 'kimi-1.9.0', 'kimi');
    expect(added.definition).toEqual({ id: 'kimi', name: 'Kimi CLI', command: exe, args: ['acp'], env: { KIMI_NO_UPDATE: '1' } });
    expect(added.info).toMatchObject({ kind: 'binary', version: '1.9.0', installDir: join(agentsRoot, 'kimi', '1.9.0'), sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(readFileSync(exe, 'utf8')).toContain('echo 1.9.0');
  });

  it('refuses a kind the entry does not offer here, and a binary with no build for this platform', async () => {
    const s = service();
    expect(await failure(s.add({ manifest: npxEntry('1.0.0'), kind: 'binary' }))).toMatchObject({ code: 'unsupported' });
    const darwinOnly = RegistryManifest.parse({ id: 'mac', name: 'Mac', version: '1.0.0', description: 'd', distribution: { binary: { 'darwin-aarch64': { archive: 'https://x/a.zip', cmd: './a' } } } });
    expect(await failure(s.add({ manifest: darwinOnly }))).toMatchObject({ code: 'unsupported', message: expect.stringContaining('No build for linux-x86_64') });
    expect(agentsRepo.list()).toEqual([]);
  });

  it('updates to a newer version, keeping the person\'s environment and the replaced version for roll back', async () => {
    const s = service();
    await s.add({ manifest: binaryEntry('1.9.0', { KIMI_OLD: '1' }) });
    const row = agentsRepo.get('kimi')!;
    agentsRepo.upsert({ ...row, env: { ...row.env, MY_SETTING: 'mine' }, secretNames: ['KIMI_API_KEY'] }, clock.now());
    expect(s.updates(indexOf(binaryEntry('2.0.0')))).toEqual([{ agentId: 'kimi', registryId: 'kimi', current: '1.9.0', latest: '2.0.0', pinned: false }]);

    const updated = await s.update('kimi', binaryEntry('2.0.0', { KIMI_NEW: '1' }));
    expect(updated.definition.command).toBe(join(agentsRoot, 'kimi', '2.0.0', 'kimi-2.0.0', 'kimi'));
    expect(updated.definition.env).toEqual({ MY_SETTING: 'mine', KIMI_NEW: '1' });
    expect(agentsRepo.get('kimi')?.secretNames).toEqual(['KIMI_API_KEY']);
    expect(updated.info).toMatchObject({ version: '2.0.0', previousVersion: '1.9.0', pinned: false });
    expect(existsSync(join(agentsRoot, 'kimi', '1.9.0'))).toBe(true);

    // A third version drops the first (rows and folder): two are kept.
    await s.update('kimi', binaryEntry('2.1.0'));
    expect(registryRepo.versions('kimi').map((v) => v.version)).toEqual(['2.0.0', '2.1.0']);
    expect(existsSync(join(agentsRoot, 'kimi', '1.9.0'))).toBe(false);
    expect(await failure(s.update('kimi', binaryEntry('2.1.0')))).toMatchObject({ code: 'invalid_state', message: expect.stringContaining('already runs 2.1.0') });
  });

  it('rolls back to the kept version without the network and pins there; a pinned agent is not updated', async () => {
    const s = service();
    await s.add({ manifest: npxEntry('0.27.3') });
    const gemini = agentsRepo.get('gemini')!;
    agentsRepo.upsert({ ...gemini, env: { MINE: 'x' } }, clock.now());
    await s.update('gemini', npxEntry('0.28.0'));
    expect(agentsRepo.get('gemini')?.args).toEqual(['-y', '@google/gemini-cli@0.28.0', '--experimental-acp']);

    await server.close();
    const back = s.rollBack('gemini');
    expect(back.definition.args).toEqual(['-y', '@google/gemini-cli@0.27.3', '--experimental-acp']);
    expect(back.definition.env).toEqual({ MINE: 'x' });
    expect(back.info).toEqual({ registryId: 'gemini', kind: 'npx', version: '0.27.3', previousVersion: '0.28.0', pinned: true });
    expect(s.updates(indexOf(npxEntry('0.28.0')))).toEqual([{ agentId: 'gemini', registryId: 'gemini', current: '0.27.3', latest: '0.28.0', pinned: true }]);
    expect(await failure(s.update('gemini', npxEntry('0.28.0')))).toMatchObject({ code: 'invalid_state', message: expect.stringContaining('pinned at 0.27.3') });

    // Unpinned, the same kept version is one roll back (or an update) away.
    expect(s.pin('gemini', false)).toMatchObject({ pinned: false });
    expect(s.rollBack('gemini').info).toMatchObject({ version: '0.28.0', previousVersion: '0.27.3', pinned: true });
    server = await startStandIn();
  });

  it('refuses a roll back with no earlier version, or whose folder is gone', async () => {
    const s = service();
    await s.add({ manifest: binaryEntry('1.9.0') });
    expect(await failure(() => s.rollBack('kimi'))).toMatchObject({ code: 'invalid_state', message: expect.stringContaining('no earlier version') });
    await s.update('kimi', binaryEntry('2.0.0'));
    rmSync(join(agentsRoot, 'kimi', '1.9.0'), { recursive: true });
    expect(await failure(() => s.rollBack('kimi'))).toMatchObject({ code: 'invalid_state', message: expect.stringContaining('is gone') });
    expect(agentsRepo.get('kimi')?.command).toContain('2.0.0');
    expect(await failure(() => s.rollBack('nobody'))).toMatchObject({ code: 'not_found' });
  });

  it('refuses a second download of a version whose file changed upstream since another agent got it', async () => {
    const s = service();
    const m = binaryEntry('1.9.0');
    await s.add({ manifest: m });
    server.route('/kimi-1.9.0.tar.gz', serveBytes(gzipSync(tar([{ name: 'kimi', data: '#!/bin/sh\necho swapped\n' }]))));
    expect(await failure(s.add({ manifest: m, agentId: 'kimi-again' }))).toMatchObject({ code: 'download_refused', message: expect.stringContaining('differs from the one downloaded before') });
    expect(agentsRepo.get('kimi-again')).toBeUndefined();
  });

  it('prunes the folders of an agent removed from the catalogue', async () => {
    const s = service();
    const added = await s.add({ manifest: binaryEntry('1.9.0') });
    agentsRepo.remove('kimi');
    expect(registryRepo.get('kimi')).toBeUndefined();
    expect(await s.prune()).toEqual([added.info.installDir]);
    expect(existsSync(join(agentsRoot, 'kimi'))).toBe(false);
  });

  it('lists the bundled snapshot offline with what each entry needs, and adds from it', async () => {
    const source = new RegistryIndexSource({ url: '', cacheFile: join(dir.path, 'registry-cache.json'), snapshot: bundledSnapshot(), clock, log: silentLogger });
    const s = service();
    const listing = await s.listing(await source.refresh(), bundledSnapshot().origin);
    expect(listing).toMatchObject({ source: 'snapshot', error: 'the registry address is not set', updates: [] });
    const gemini = listing.entries.find((e) => e.manifest.id === 'gemini')!;
    expect(gemini).toMatchObject({ preferred: 'npx', addedAs: [], options: [{ kind: 'npx', need: { tool: 'node', satisfied: true } }] });
    await s.add({ manifest: gemini.manifest });
    const again = await s.listing(await source.refresh(), bundledSnapshot().origin);
    expect(again.entries.find((e) => e.manifest.id === 'gemini')?.addedAs).toEqual(['gemini']);
    // Binary entries offer this platform's download.
    const codex = listing.entries.find((e) => e.manifest.id === 'codex-acp')!;
    expect(codex.options).toEqual([expect.objectContaining({ kind: 'binary', archive: expect.stringContaining('x86_64-unknown-linux-gnu.tar.gz') })]);
  });
});

function indexOf(...agents: RegistryManifestT[]) {
  return { version: '1.0.0', agents, extensions: [] };
}
