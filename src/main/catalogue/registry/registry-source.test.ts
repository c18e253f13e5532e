import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RegistrySnapshot, type RegistrySnapshotT } from '../../../shared/registry';
import { FakeClock } from '../../test-support/fake-clock';
import { hang, serveBytes, startStandIn, type StandIn } from '../../test-support/http-stand-in';
import { tempDir } from '../../test-support/temp-dir';
import { silentLogger } from '../../util/log';
import { RegistryIndexSource, type RegistrySourceOptions } from './registry-source';
import { bundledSnapshot } from './snapshot';

const agent = (id: string, version = '1.0.0') => ({ id, name: id, version, description: 'd', distribution: { npx: { package: `${id}@${version}` } } });
const index = (...agents: unknown[]) => JSON.stringify({ version: '1.0.0', agents, extensions: [] });

const SNAPSHOT: RegistrySnapshotT = RegistrySnapshot.parse({
  origin: { repository: 'agentclientprotocol/registry', commit: 'a'.repeat(40), date: '2026-01-01T00:00:00Z' },
  index: { version: '1.0.0', agents: [agent('from-snapshot')], extensions: [] },
});

let server: StandIn;
let clock: FakeClock;
let dir: { path: string; cleanup(): void };
beforeEach(async () => {
  server = await startStandIn();
  // After the snapshot's date, so a cache fetched now is the newer copy.
  clock = new FakeClock(Date.parse('2026-03-01T00:00:00Z'));
  dir = tempDir();
});
afterEach(async () => {
  await server.close();
  dir.cleanup();
});

const source = (o: Partial<RegistrySourceOptions> = {}) =>
  new RegistryIndexSource({ url: server.url('/registry.json'), cacheFile: join(dir.path, 'registry-cache.json'), snapshot: SNAPSHOT, clock, log: silentLogger, ...o });
const ids = (load: { index: { agents: { id: string }[] } }) => load.index.agents.map((a) => a.id);

describe('registry index source', () => {
  it('fetches a valid index, caches it, then falls back to the cache and then the snapshot when offline', async () => {
    server.route('/registry.json', serveBytes(index(agent('gemini', '0.27.3'), agent('qwen-code'))));
    const online = await source().refresh();
    expect(online).toMatchObject({ source: 'network', asOf: '2026-03-01T00:00:00.000Z', skipped: [] });
    expect(online.error).toBeUndefined();
    expect(ids(online)).toEqual(['gemini', 'qwen-code']);
    expect(existsSync(join(dir.path, 'registry-cache.json'))).toBe(true);

    server.route('/registry.json', serveBytes('down', {}, { status: 503 }));
    const cached = await source().refresh();
    expect(cached).toMatchObject({ source: 'cache', asOf: '2026-03-01T00:00:00.000Z', error: expect.stringContaining('503') });
    expect(ids(cached)).toEqual(['gemini', 'qwen-code']);

    rmSync(join(dir.path, 'registry-cache.json'));
    const offline = await source({ url: 'http://127.0.0.1:1/registry.json' }).refresh();
    expect(offline).toMatchObject({ source: 'snapshot', asOf: '2026-01-01T00:00:00Z', error: expect.stringContaining('could not reach') });
    expect(ids(offline)).toEqual(['from-snapshot']);
  });

  it('lists the valid entries of a partly invalid index and names the ones left out', async () => {
    server.route('/registry.json', serveBytes(index(agent('good'), { ...agent('bad'), distribution: { npx: { package: '--evil' } } }, agent('good'))));
    const load = await source().refresh();
    expect(load.source).toBe('network');
    expect(ids(load)).toEqual(['good']);
    expect(load.skipped).toEqual([
      { id: 'bad', reason: expect.stringContaining('distribution.npx.package') },
      { id: 'good', reason: 'listed twice; the first entry is used' },
    ]);
  });

  const hostile: [string, () => void, RegExp][] = [
    ['bad JSON', () => server.route('/registry.json', serveBytes('{"version": "1.0.0", "agents": [')), /not JSON/],
    ['wrong types', () => server.route('/registry.json', serveBytes(JSON.stringify({ version: 1, agents: 'all of them' }))), /invalid/],
    ['a huge file', () => server.route('/registry.json', serveBytes(Buffer.alloc(5 * 1024 * 1024, 0x20), {}, { chunked: true })), /limit/],
    ['a huge file it announces', () => server.route('/registry.json', serveBytes(Buffer.alloc(5 * 1024 * 1024, 0x20))), /over the 4 MiB limit/],
  ];
  for (const [what, serve, error] of hostile) {
    it(`keeps the last good index over ${what}, and says why`, async () => {
      server.route('/registry.json', serveBytes(index(agent('known-good'))));
      await source().refresh();
      serve();
      const load = await source().refresh();
      expect(load).toMatchObject({ source: 'cache', error: expect.stringMatching(error) });
      expect(ids(load)).toEqual(['known-good']);
      // The cache still holds the good index.
      expect(JSON.parse(readFileSync(join(dir.path, 'registry-cache.json'), 'utf8')).index.agents[0].id).toBe('known-good');
    });
  }

  it('gives up on a registry that does not answer, on the fake clock, and uses the snapshot', async () => {
    server.route('/registry.json', hang);
    const pending = source().refresh();
    await server.requested('/registry.json');
    await clock.advance(10_000);
    const load = await pending;
    expect(load).toMatchObject({ source: 'snapshot', error: expect.stringContaining('sent nothing for 10 s') });
  });

  it('revalidates the cache with its ETag: a 304 keeps the cached index as fresh', async () => {
    let requests = 0;
    server.route('/registry.json', (req, res) => {
      requests++;
      if (req.headers['if-none-match'] === '"v1"') return void res.writeHead(304).end();
      res.writeHead(200, { etag: '"v1"', 'content-type': 'application/json' }).end(index(agent('gemini')));
    });
    await source().refresh();
    await clock.advance(60_000);
    const again = await source().refresh();
    expect(requests).toBe(2);
    expect(again).toMatchObject({ source: 'network', asOf: '2026-03-01T00:01:00.000Z' });
    expect(ids(again)).toEqual(['gemini']);
  });

  it('prefers a bundled snapshot newer than the cache, ignores a cache of another address or a damaged one', async () => {
    server.route('/registry.json', serveBytes(index(agent('cached'))));
    const early = new FakeClock(Date.parse('2025-12-01T00:00:00Z'));
    await source({ clock: early }).refresh();
    expect(ids(await source({ clock: early }).local())).toEqual(['from-snapshot']);

    await source().refresh();
    expect(ids(await source().local())).toEqual(['cached']);
    expect(ids(await source({ url: server.url('/other.json') }).local())).toEqual(['from-snapshot']);

    writeFileSync(join(dir.path, 'registry-cache.json'), '{"url": 5');
    expect(await source().local()).toMatchObject({ source: 'snapshot' });
  });

  it('never fetches when the address is turned off', async () => {
    const load = await source({ url: '' }).refresh();
    expect(load).toMatchObject({ source: 'snapshot', error: 'the registry address is not set' });
    expect(server.log).toEqual([]);
  });

  it('bundles a snapshot of the public registry that parses, to itself (it is used unparsed)', () => {
    const s = bundledSnapshot();
    expect(RegistrySnapshot.parse(s)).toEqual(s);
    expect(s.origin.repository).toBe('agentclientprotocol/registry');
    expect(s.index.agents.map((a) => a.id)).toContain('gemini');
  });
});
