import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { tar, zip } from '../../test-support/archive-writer';
import { tempDir } from '../../test-support/temp-dir';
import { archiveKind, extractArchive } from './extract';
import { entryPath, type ExtractLimits } from './extract-target';

const dirs: { cleanup(): void }[] = [];
afterEach(() => dirs.splice(0).forEach((d) => d.cleanup()));

const LIMITS: ExtractLimits = { maxBytes: 1024 * 1024, maxEntries: 100 };

/** A temp dir with `out/` (the folder to unpack into, inside `box/`) and `archive` written. */
function setup(archive: Buffer, name = 'a.bin') {
  const dir = tempDir();
  dirs.push(dir);
  const box = join(dir.path, 'box');
  const out = join(box, 'out');
  mkdirSync(out, { recursive: true });
  const file = join(dir.path, name);
  writeFileSync(file, archive);
  return { root: dir.path, box, out, file };
}

/** Every path under `dir`, relative, sorted. */
function tree(dir: string, prefix = ''): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((d) => {
      const rel = prefix + d.name;
      return d.isDirectory() && !d.isSymbolicLink() ? [`${rel}/`, ...tree(join(dir, d.name), `${rel}/`)] : [rel];
    })
    .sort();
}

async function refused(p: Promise<void>): Promise<string> {
  const err = (await p.then(
    () => undefined,
    (e: unknown) => e,
  )) as { code?: string; message?: string } | undefined;
  expect(err, 'the archive was accepted').toBeDefined();
  expect(err?.code).toBe('download_refused');
  return err?.message ?? '';
}

describe('archive entry names', () => {
  it('keeps names inside the folder and refuses absolute, climbing, NUL and drive or stream names', () => {
    expect(entryPath('./bin/agent')).toEqual({ path: 'bin/agent' });
    expect(entryPath('dir//x/./y')).toEqual({ path: 'dir/x/y' });
    expect(entryPath('..foo/bar')).toEqual({ path: '..foo/bar' });
    expect(entryPath('./')).toEqual({ path: '' });
    for (const bad of ['/etc/passwd', '../x', 'a/../../x', 'a/..', '..\\x', 'C:\\x', 'c:x', '\\\\host\\share\\x', 'a\0b', 'file.txt:stream']) {
      expect(entryPath(bad), bad).toHaveProperty('error');
    }
  });

  it('tells the kind from the address as the registry does, refusing compressions it can not read', () => {
    expect(archiveKind('https://x/v1/codex-acp-0.9.2-x86_64-unknown-linux-gnu.tar.gz')).toBe('tar.gz');
    expect(archiveKind('https://x/opencode-linux-x64.TGZ')).toBe('tar.gz');
    expect(archiveKind('https://x/vibe-acp-linux-x86_64-2.0.2.zip?x=1')).toBe('zip');
    expect(archiveKind('https://x/cagent-linux-amd64')).toBe('raw');
    expect(archiveKind('https://x/cagent-windows-amd64.exe')).toBe('raw');
    expect(archiveKind('https://x/goose-x86_64-unknown-linux-gnu.tar.bz2')).toEqual({ unsupported: 'tar.bz2' });
  });
});

describe.skipIf(process.platform === 'win32')('unpacking', () => {
  it('unpacks a tar.gz made by the system tar: folders, files, modes and a link that stays inside', async () => {
    const src = tempDir();
    dirs.push(src);
    mkdirSync(join(src.path, 'pkg', 'bin'), { recursive: true });
    writeFileSync(join(src.path, 'pkg', 'bin', 'agent'), '#!/bin/sh\necho hi\n');
    chmodSync(join(src.path, 'pkg', 'bin', 'agent'), 0o755);
    writeFileSync(join(src.path, 'pkg', 'README'), 'read me');
    symlinkSync('bin/agent', join(src.path, 'pkg', 'agent'));
    const archive = execFileSync('tar', ['-czf', '-', '-C', src.path, 'pkg']);
    const s = setup(archive, 'x.tar.gz');
    await extractArchive(s.file, 'tar.gz', s.out, LIMITS);
    expect(tree(s.out)).toEqual(['pkg/', 'pkg/README', 'pkg/agent', 'pkg/bin/', 'pkg/bin/agent']);
    expect(statSync(join(s.out, 'pkg', 'bin', 'agent')).mode & 0o777).toBe(0o755);
    expect(readlinkSync(join(s.out, 'pkg', 'agent'))).toBe('bin/agent');
    expect(readFileSync(join(s.out, 'pkg', 'agent'), 'utf8')).toContain('echo hi');
  });

  it('unpacks a zip made by the system zip, deflated, with its modes and an inside link', async () => {
    const src = tempDir();
    dirs.push(src);
    mkdirSync(join(src.path, 'bin'));
    writeFileSync(join(src.path, 'bin', 'agent'), 'x'.repeat(10_000));
    chmodSync(join(src.path, 'bin', 'agent'), 0o755);
    symlinkSync('bin/agent', join(src.path, 'agent'));
    execFileSync('zip', ['-q', '-r', '-y', join(src.path, 'a.zip'), 'bin', 'agent'], { cwd: src.path });
    const s = setup(readFileSync(join(src.path, 'a.zip')), 'a.zip');
    await extractArchive(s.file, 'zip', s.out, LIMITS);
    expect(tree(s.out)).toEqual(['agent', 'bin/', 'bin/agent']);
    expect(readFileSync(join(s.out, 'bin', 'agent'), 'utf8')).toBe('x'.repeat(10_000));
    expect(statSync(join(s.out, 'bin', 'agent')).mode & 0o777).toBe(0o755);
    expect(lstatSync(join(s.out, 'agent')).isSymbolicLink()).toBe(true);
  });

  it('reads GNU long names, pax paths and hard links to earlier files', async () => {
    const long = `${'d'.repeat(120)}/${'f'.repeat(120)}`;
    const archive = tar([
      { name: 'x', pax: { path: long }, data: 'long' },
      { name: 'a.txt', data: 'aaa' },
      { name: 'b.txt', type: '1', linkname: 'a.txt' },
      { name: 'old-style-dir/', data: '' },
    ]);
    const s = setup(archive);
    await extractArchive(s.file, 'tar', s.out, LIMITS);
    expect(readFileSync(join(s.out, long), 'utf8')).toBe('long');
    expect(readFileSync(join(s.out, 'b.txt'), 'utf8')).toBe('aaa');
    expect(statSync(join(s.out, 'old-style-dir')).isDirectory()).toBe(true);
    const gnu = execFileSync('tar', ['--format=gnu', '-cf', '-', '-C', s.out, 'd'.repeat(120)]);
    const g = setup(gnu);
    await extractArchive(g.file, 'tar', g.out, LIMITS);
    expect(readFileSync(join(g.out, long), 'utf8')).toBe('long');
  });

  const hostileTars: [string, Buffer, RegExp][] = [
    ['a ../ entry', tar([{ name: 'ok', data: 'ok' }, { name: '../evil', data: 'x' }]), /climbs out/],
    ['a nested ../ entry', tar([{ name: 'a/../../evil', data: 'x' }]), /climbs out/],
    ['an absolute path', tar([{ name: '/tmp/evil', data: 'x' }]), /absolute path/],
    ['a pax path climbing out', tar([{ name: 'innocent', pax: { path: '../evil' }, data: 'x' }]), /climbs out/],
    ['a symlink to an absolute path', tar([{ name: 'link', type: '2', linkname: '/etc' }]), /absolute path/],
    ['a symlink climbing out', tar([{ name: 'a/link', type: '2', linkname: '../../evil' }]), /outside its folder/],
    [
      'a symlink chain that leads out',
      tar([
        { name: 'sub', type: '5' },
        { name: 'sub/up', type: '2', linkname: '..' },
        { name: 'out', type: '2', linkname: 'sub/up/..' },
      ]),
      /outside its folder/,
    ],
    ['a hard link to a file outside', tar([{ name: 'h', type: '1', linkname: '../../etc/passwd' }]), /hard link/],
    ['a hard link to a file not unpacked', tar([{ name: 'h', type: '1', linkname: 'nothing' }]), /not a file unpacked before it/],
    ['a character device', tar([{ name: 'dev', type: '3' }]), /device file/],
    ['a FIFO', tar([{ name: 'fifo', type: '6' }]), /device file/],
  ];
  for (const [what, archive, message] of hostileTars) {
    it(`refuses a tar with ${what}, writing nothing outside its folder`, async () => {
      const s = setup(archive);
      expect(await refused(extractArchive(s.file, 'tar', s.out, LIMITS))).toMatch(message);
      expect(readdirSync(s.box)).toEqual(['out']);
      expect(existsSync(join(s.root, 'evil'))).toBe(false);
    });
  }

  it('refuses a gzip bomb by counting what it inflates to, whatever the tar claims', async () => {
    // 8 MiB of zeros in one file gzip to a few kilobytes; the limit is 1 MiB.
    const archive = gzipSync(tar([{ name: 'zeros', data: Buffer.alloc(8 * 1024 * 1024) }]));
    expect(archive.length).toBeLessThan(64 * 1024);
    const s = setup(archive);
    expect(await refused(extractArchive(s.file, 'tar.gz', s.out, LIMITS))).toMatch(/more than 1 MiB/);
  });

  it('refuses a tar that declares more than it holds, and one past the entry limit', async () => {
    const lying = tar([{ name: 'f', data: 'abc', declaredSize: 5000 }]);
    const s = setup(lying);
    expect(await refused(extractArchive(s.file, 'tar', s.out, LIMITS))).toMatch(/truncated/);
    const many = tar(Array.from({ length: 101 }, (_, i) => ({ name: `f${i}`, data: '' })));
    const m = setup(many);
    expect(await refused(extractArchive(m.file, 'tar', m.out, LIMITS))).toMatch(/more than 100 entries/);
  });

  it('refuses a download that is not the archive its name says', async () => {
    const s = setup(Buffer.from('<html>Not Found</html>'));
    expect(await refused(extractArchive(s.file, 'zip', s.out, LIMITS))).toMatch(/not a zip archive/);
    expect(await refused(extractArchive(s.file, 'tar.gz', s.out, LIMITS))).toMatch(/not a tar.gz archive/);
    expect(await refused(extractArchive(s.file, 'tar', s.out, LIMITS))).toMatch(/not a tar archive|truncated/);
  });

  const hostileZips: [string, Buffer, RegExp][] = [
    ['a ../ entry', zip([{ name: 'ok', data: 'ok' }, { name: '../evil', data: 'x' }]), /climbs out/],
    ['an absolute path', zip([{ name: '/tmp/evil', data: 'x' }]), /absolute path/],
    ['a Windows drive path', zip([{ name: 'C:\\evil', data: 'x' }]), /absolute path/],
    ['a backslash climb', zip([{ name: '..\\evil', data: 'x' }]), /climbs out/],
    ['a symlink out', zip([{ name: 'link', data: '../../evil', mode: 0o120777 }]), /outside its folder/],
    ['a symlink to an absolute path', zip([{ name: 'link', data: '/etc', mode: 0o120777 }]), /absolute path/],
    ['a device file', zip([{ name: 'dev', mode: 0o020644 }]), /device file/],
    ['an encrypted entry', zip([{ name: 'x', data: 'x', encrypted: true }]), /encrypted/],
    ['a wrong CRC', zip([{ name: 'x', data: 'hello', declaredCrc: 1234 }]), /CRC-32/],
    ['an entry inflating past its declared size', zip([{ name: 'x', data: Buffer.alloc(100_000), deflate: true, declaredSize: 1000 }]), /more than the 1000 bytes/],
    ['declared sizes past the limit (a zip bomb)', zip(Array.from({ length: 3 }, (_, i) => ({ name: `z${i}`, data: Buffer.alloc(400 * 1024), deflate: true }))), /zip bomb/],
  ];
  for (const [what, archive, message] of hostileZips) {
    it(`refuses a zip with ${what}, writing nothing outside its folder`, async () => {
      const s = setup(archive);
      expect(await refused(extractArchive(s.file, 'zip', s.out, LIMITS))).toMatch(message);
      expect(readdirSync(s.box)).toEqual(['out']);
      expect(existsSync(join(s.root, 'evil'))).toBe(false);
    });
  }

  it('judges a whole zip before writing: a bad entry last means nothing is written', async () => {
    const s = setup(zip([{ name: 'first', data: 'x' }, { name: '../evil', data: 'x' }]));
    await refused(extractArchive(s.file, 'zip', s.out, LIMITS));
    expect(readdirSync(s.out)).toEqual([]);
  });
});
