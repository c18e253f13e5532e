import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RegistryManifest, type RegistryInstallProgressT } from '../../../shared/registry';
import { tar, zip } from '../../test-support/archive-writer';
import { FakeClock } from '../../test-support/fake-clock';
import { hang, serveBytes, startStandIn, type StandIn } from '../../test-support/http-stand-in';
import { tempDir } from '../../test-support/temp-dir';
import { silentLogger } from '../../util/log';
import { BinaryInstaller, type InstallerOptions } from './binary-installer';

let server: StandIn;
let clock: FakeClock;
let data: { path: string; cleanup(): void };
let agentsRoot: string;
beforeEach(async () => {
  server = await startStandIn();
  clock = new FakeClock();
  data = tempDir();
  agentsRoot = join(data.path, 'agents');
});
afterEach(async () => {
  await server.close();
  data.cleanup();
});

const PROGRAM = '#!/bin/sh\necho agent\n';
const sha = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

function manifest(archivePath: string, extra: { cmd?: string; sha256?: string; version?: string } = {}) {
  return RegistryManifest.parse({
    id: 'kimi',
    name: 'Kimi CLI',
    version: extra.version ?? '1.9.0',
    description: 'd',
    distribution: {
      binary: {
        'linux-x86_64': { archive: server.url(archivePath), cmd: extra.cmd ?? './kimi', args: ['acp'], ...(extra.sha256 ? { sha256: extra.sha256 } : {}) },
      },
    },
  });
}

const installer = (o: Partial<InstallerOptions> = {}) => new BinaryInstaller({ agentsRoot, clock, log: silentLogger, platform: 'linux', ...o });

/** Everything under the agents root, relative; proves a failure left nothing behind. */
function leftovers(): string[] {
  if (!existsSync(agentsRoot)) return [];
  return readdirSync(agentsRoot, { recursive: true }).map(String).sort();
}

async function failure(p: Promise<unknown>): Promise<{ code: string; message: string }> {
  return p.then(
    () => {
      throw new Error('expected a failure');
    },
    (err: { code: string; message: string }) => err,
  );
}

describe.skipIf(process.platform === 'win32')('binary install', () => {
  it('downloads a tar.gz, finds the program in its wrapping folder, makes it executable and reports progress', async () => {
    const archive = gzipSync(tar([{ name: 'kimi-1.9/', type: '5' }, { name: 'kimi-1.9/kimi', data: PROGRAM, mode: 0o644 }, { name: 'kimi-1.9/LICENSE', data: 'MIT' }]));
    server.route('/kimi.tar.gz', serveBytes(archive));
    const progress: RegistryInstallProgressT[] = [];
    const got = await installer().install({ manifest: manifest('/kimi.tar.gz'), platform: 'linux-x86_64', onProgress: (p) => progress.push(p) });
    expect(got).toMatchObject({
      dir: join(agentsRoot, 'kimi', '1.9.0'),
      executable: join(agentsRoot, 'kimi', '1.9.0', 'kimi-1.9', 'kimi'),
      sha256: sha(archive),
      verified: 'first-seen',
      bytes: archive.length,
    });
    expect(readFileSync(got.executable, 'utf8')).toBe(PROGRAM);
    expect(statSync(got.executable).mode & 0o755).toBe(0o755);
    expect(progress.map((p) => p.phase)).toEqual([...progress.filter((p) => p.phase === 'downloading').map(() => 'downloading'), 'verifying', 'extracting', 'done']);
    expect(progress.find((p) => p.phase === 'downloading')).toMatchObject({ registryId: 'kimi', version: '1.9.0', total: archive.length });
    expect(leftovers()).toEqual(['kimi', 'kimi/1.9.0', 'kimi/1.9.0/kimi-1.9', 'kimi/1.9.0/kimi-1.9/LICENSE', 'kimi/1.9.0/kimi-1.9/kimi']);
  });

  it('installs a plain program download under the command name, and a zip', async () => {
    server.route('/kimi-linux-amd64', serveBytes(PROGRAM));
    const raw = await installer().install({ manifest: manifest('/kimi-linux-amd64'), platform: 'linux-x86_64' });
    expect(raw.executable).toBe(join(agentsRoot, 'kimi', '1.9.0', 'kimi'));
    expect(statSync(raw.executable).mode & 0o111).toBe(0o111);
    server.route('/kimi.zip', serveBytes(zip([{ name: 'bin/kimi', data: PROGRAM, deflate: true, mode: 0o100755 }])));
    const zipped = await installer().install({ manifest: manifest('/kimi.zip', { cmd: './bin/kimi', version: '2.0.0' }), platform: 'linux-x86_64' });
    expect(readFileSync(zipped.executable, 'utf8')).toBe(PROGRAM);
  });

  it('verifies the entry checksum when it has one, and refuses and deletes a download that does not match', async () => {
    server.route('/kimi', serveBytes(PROGRAM));
    const ok = await installer().install({ manifest: manifest('/kimi', { sha256: sha(PROGRAM) }), platform: 'linux-x86_64' });
    expect(ok.verified).toBe('manifest');
    const bad = await failure(installer().install({ manifest: manifest('/kimi', { sha256: sha('something else'), version: '2.0.0' }), platform: 'linux-x86_64' }));
    expect(bad).toMatchObject({ code: 'download_refused', message: expect.stringContaining("is not the registry's") });
    expect(leftovers().filter((p) => p.includes('2.0.0') || p.includes('.tmp-'))).toEqual([]);
  });

  it('refuses a second download of a version whose file changed since it was first seen', async () => {
    server.route('/kimi', serveBytes('#!/bin/sh\necho swapped\n'));
    const err = await failure(installer().install({ manifest: manifest('/kimi'), platform: 'linux-x86_64', knownSha256: sha(PROGRAM) }));
    expect(err).toMatchObject({ code: 'download_refused', message: expect.stringContaining('differs from the one downloaded before') });
    expect(leftovers()).toEqual(['kimi']);
    server.route('/kimi', serveBytes(PROGRAM));
    expect((await installer().install({ manifest: manifest('/kimi'), platform: 'linux-x86_64', knownSha256: sha(PROGRAM) })).verified).toBe('previous');
  });

  const hostile: [string, Buffer, RegExp][] = [
    ['a ../ entry', gzipSync(tar([{ name: 'kimi', data: PROGRAM }, { name: '../../escaped', data: 'x' }])), /climbs out/],
    ['an absolute path', gzipSync(tar([{ name: '/tmp/escaped', data: 'x' }])), /absolute path/],
    ['a symlink out', gzipSync(tar([{ name: 'kimi', type: '2', linkname: '../../../escaped' }])), /outside its folder/],
    ['a zip bomb', gzipSync(tar([{ name: 'kimi', data: Buffer.alloc(4 * 1024 * 1024) }])), /possible bomb|more than/],
  ];
  for (const [what, archive, message] of hostile) {
    it(`refuses an archive with ${what} and leaves nothing`, async () => {
      server.route('/kimi.tar.gz', serveBytes(archive));
      const err = await failure(installer({ extractLimits: { maxBytes: 1024 * 1024, maxEntries: 100 } }).install({ manifest: manifest('/kimi.tar.gz'), platform: 'linux-x86_64' }));
      expect(err).toMatchObject({ code: 'download_refused', message: expect.stringMatching(message) });
      expect(leftovers()).toEqual(['kimi']);
      expect(readdirSync(data.path)).toEqual(['agents']);
    });
  }

  it('refuses a download over the size cap and leaves nothing', async () => {
    server.route('/kimi', serveBytes(Buffer.alloc(2048), {}, { chunked: true }));
    const err = await failure(installer({ maxDownloadBytes: 1024 }).install({ manifest: manifest('/kimi'), platform: 'linux-x86_64' }));
    expect(err).toMatchObject({ code: 'download_refused', message: expect.stringContaining('limit') });
    expect(leftovers()).toEqual(['kimi']);
  });

  it('gives up on a silent host after the idle timeout and leaves nothing', async () => {
    server.route('/kimi', hang);
    const pending = failure(installer({ idleTimeoutMs: 10_000 }).install({ manifest: manifest('/kimi'), platform: 'linux-x86_64' }));
    await server.requested('/kimi');
    await clock.advance(10_000);
    expect(await pending).toMatchObject({ code: 'download_failed', message: expect.stringContaining('sent nothing') });
    expect(leftovers()).toEqual(['kimi']);
  });

  it('refuses an archive without the entry command, a compression it cannot read, and a platform with no build', async () => {
    server.route('/kimi.tar.gz', serveBytes(gzipSync(tar([{ name: 'other', data: PROGRAM }]))));
    expect(await failure(installer().install({ manifest: manifest('/kimi.tar.gz'), platform: 'linux-x86_64' }))).toMatchObject({ code: 'download_refused', message: expect.stringContaining('has no ./kimi') });
    expect(await failure(installer().install({ manifest: manifest('/kimi.tar.bz2'), platform: 'linux-x86_64' }))).toMatchObject({ code: 'download_refused', message: expect.stringContaining('.tar.bz2') });
    expect(await failure(installer().install({ manifest: manifest('/kimi'), platform: 'darwin-aarch64' }))).toMatchObject({ code: 'unsupported' });
    expect(server.log).toEqual(['GET /kimi.tar.gz']);
    expect(leftovers()).toEqual(['kimi']);
  });

  it('replaces a reinstalled version whole, and downloads once for two installs of one version at a time', async () => {
    server.route('/kimi', serveBytes(PROGRAM));
    const i = installer();
    const [a, b] = await Promise.all([i.install({ manifest: manifest('/kimi'), platform: 'linux-x86_64' }), i.install({ manifest: manifest('/kimi'), platform: 'linux-x86_64' })]);
    expect(a).toBe(b);
    expect(server.log).toEqual(['GET /kimi']);
    writeFileSync(join(a.dir, 'stray'), 'left by someone');
    await i.install({ manifest: manifest('/kimi'), platform: 'linux-x86_64' });
    expect(readdirSync(a.dir)).toEqual(['kimi']);
  });

  it('sweeps interrupted installs and version folders nothing keeps', async () => {
    server.route('/kimi', serveBytes(PROGRAM));
    const kept = await installer().install({ manifest: manifest('/kimi'), platform: 'linux-x86_64' });
    const dropped = await installer().install({ manifest: manifest('/kimi', { version: '2.0.0' }), platform: 'linux-x86_64' });
    mkdirSync(join(agentsRoot, 'kimi', '.tmp-3.0.0-abcd', 'root'), { recursive: true });
    mkdirSync(join(agentsRoot, 'gone', '1.0.0'), { recursive: true });
    const removed = await installer().sweep(new Set([kept.dir]));
    expect(removed.sort()).toEqual([dropped.dir, join(agentsRoot, 'gone', '1.0.0'), join(agentsRoot, 'kimi', '.tmp-3.0.0-abcd')].sort());
    expect(leftovers()).toEqual(['kimi', 'kimi/1.9.0', 'kimi/1.9.0/kimi']);
  });
});
