import { chmodSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RegistrySnapshot } from '../../../shared/registry';
import { AgentsRepo } from '../../store/agents.repo';
import { openDatabase, type Db } from '../../store/db';
import { RegistryRepo } from '../../store/registry.repo';
import { FakeClock } from '../../test-support/fake-clock';
import { hang, serveBytes, startStandIn, type StandIn } from '../../test-support/http-stand-in';
import { tempDir } from '../../test-support/temp-dir';
import { silentLogger } from '../../util/log';
import { AcpRegistry, type RegistryChange } from './acp-registry';

let server: StandIn;
let clock: FakeClock;
let dir: { path: string; cleanup(): void };
let db: Db;
let bin: string;
beforeEach(async () => {
  server = await startStandIn();
  clock = new FakeClock(Date.parse('2026-03-01T00:00:00Z'));
  dir = tempDir();
  db = openDatabase(join(dir.path, 'switchboard.db'));
  bin = join(dir.path, 'bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'npx'), '#!/bin/sh\n');
  chmodSync(join(bin, 'npx'), 0o755);
});
afterEach(async () => {
  db.close();
  await server.close();
  dir.cleanup();
});

const SNAPSHOT = RegistrySnapshot.parse({
  origin: { repository: 'agentclientprotocol/registry', commit: 'b'.repeat(40), date: '2026-01-01T00:00:00Z' },
  index: { version: '1.0.0', agents: [{ id: 'gemini', name: 'Gemini CLI', version: '0.27.3', description: 'd', distribution: { npx: { package: '@google/gemini-cli@0.27.3' } } }], extensions: [] },
});

function registry(url = server.url('/registry.json')): AcpRegistry {
  return new AcpRegistry({
    dataDir: dir.path,
    url,
    agents: new AgentsRepo(db),
    registry: new RegistryRepo(db),
    clock,
    log: silentLogger,
    env: { PATH: bin, HOME: dir.path },
    platform: 'linux',
    arch: 'x64',
    snapshot: SNAPSHOT,
  });
}

describe.skipIf(process.platform === 'win32')('the ACP registry for the host', () => {
  it('lists the snapshot offline, then the fetched index after a refresh, announcing it, with the newer version of an added agent', async () => {
    server.route('/registry.json', serveBytes('offline', {}, { status: 503 }));
    const r = registry();
    const changes: RegistryChange[] = [];
    r.onDidChange((c) => changes.push(c));
    await r.start();
    const before = await r.list();
    expect(before).toMatchObject({ source: 'snapshot', snapshot: { commit: 'b'.repeat(40) } });
    const added = await r.add({ registryId: 'gemini' });
    expect(added.definition.args).toEqual(['-y', '@google/gemini-cli@0.27.3']);
    expect(changes).toEqual([{ kind: 'agent', agentId: 'gemini' }]);

    server.route('/registry.json', serveBytes(JSON.stringify({ version: '1.0.0', agents: [{ ...SNAPSHOT.index.agents[0], version: '0.28.0', distribution: { npx: { package: '@google/gemini-cli@0.28.0' } } }] })));
    const after = await r.list(true);
    expect(after).toMatchObject({ source: 'network', updates: [{ agentId: 'gemini', current: '0.27.3', latest: '0.28.0', pinned: false }] });
    expect(changes.at(-1)).toEqual({ kind: 'listing' });
    expect(r.info('gemini')).toMatchObject({ version: '0.27.3', latestVersion: '0.28.0' });

    expect((await r.update('gemini')).info).toMatchObject({ version: '0.28.0', previousVersion: '0.27.3' });
    expect(r.rollBack('gemini').info).toMatchObject({ version: '0.27.3', pinned: true });
    expect(await r.add({ registryId: 'nothing' }).catch((e: { code: string }) => e.code)).toBe('not_found');
  });

  it('shares one fetch among concurrent refreshes', async () => {
    server.route('/registry.json', serveBytes(JSON.stringify({ version: '1.0.0', agents: [] })));
    const r = registry();
    const [a, b] = await Promise.all([r.refresh(), r.refresh()]);
    expect(a).toBe(b);
    expect(server.log).toEqual(['GET /registry.json']);
  });

  it('cancels a download in flight when disposed, leaving nothing', async () => {
    server.route('/kimi.tar.gz', hang);
    server.route(
      '/registry.json',
      serveBytes(
        JSON.stringify({
          version: '1.0.0',
          agents: [{ id: 'kimi', name: 'Kimi', version: '1.9.0', description: 'd', distribution: { binary: { 'linux-x86_64': { archive: server.url('/kimi.tar.gz'), cmd: './kimi' } } } }],
        }),
      ),
    );
    const r = registry();
    await r.refresh();
    const pending = r.add({ registryId: 'kimi' }).catch((e: { code: string; message: string }) => e);
    await server.requested('/kimi.tar.gz');
    r.dispose();
    expect(await pending).toMatchObject({ code: 'download_failed', message: 'the download was cancelled' });
    expect(readdirSync(join(dir.path, 'agents', 'kimi'))).toEqual([]);
    expect(existsSync(join(dir.path, 'agents', 'kimi', '1.9.0'))).toBe(false);
  });
});
