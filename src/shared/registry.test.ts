import { describe, expect, it } from 'vitest';
import { parseRegistryIndex, RegistryManifest } from './registry';

const good = (id: string) => ({ id, name: id, version: '1.0.0', description: 'd', distribution: { npx: { package: `${id}@1.0.0` } } });

describe('registry index', () => {
  it('keeps every valid entry and names each one it leaves out, with the first of a duplicated id', () => {
    const r = parseRegistryIndex({
      version: '1.0.0',
      agents: [good('a'), { ...good('b'), version: 'latest' }, 42, { ...good('a'), name: 'second a' }, good('c')],
      extensions: [],
      futureField: true,
    });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.index.agents.map((a) => [a.id, a.name])).toEqual([
      ['a', 'a'],
      ['c', 'c'],
    ]);
    expect(r.skipped).toEqual([
      { id: 'b', reason: expect.stringContaining('version') },
      { reason: expect.any(String) },
      { id: 'a', reason: 'listed twice; the first entry is used' },
    ]);
  });

  it('refuses an index whose envelope is wrong rather than guessing', () => {
    expect(parseRegistryIndex(null)).toMatchObject({ ok: false });
    expect(parseRegistryIndex({ version: '1.0.0', agents: {} })).toMatchObject({ ok: false, error: expect.stringContaining('agents') });
    expect(parseRegistryIndex({ agents: [] })).toMatchObject({ ok: false, error: expect.stringContaining('version') });
    expect(parseRegistryIndex({ version: '1.0.0', agents: Array.from({ length: 2001 }, () => ({})) })).toMatchObject({ ok: false });
  });

  it('refuses values that would become a path, an option or a foreign address', () => {
    const bad = [
      { ...good('x'), id: '../etc' },
      { ...good('x'), version: '1.0.0/../../x' },
      { ...good('x'), distribution: { npx: { package: '-y' } } },
      { ...good('x'), distribution: { npx: { package: '--registry=http://evil' } } },
      { ...good('x'), distribution: { uvx: { package: '--with=evil' } } },
      { ...good('x'), distribution: { binary: { 'linux-x86_64': { archive: 'file:///etc/passwd', cmd: './x' } } } },
      { ...good('x'), distribution: { binary: { 'linux-x86_64': { archive: 'https://x/a.zip', cmd: '/bin/sh' } } } },
      { ...good('x'), distribution: { binary: { 'linux-x86_64': { archive: 'https://x/a.zip', cmd: 'a/../../b' } } } },
      { ...good('x'), distribution: { binary: { 'windows-x86_64': { archive: 'https://x/a.zip', cmd: 'C:\\x.exe' } } } },
      { ...good('x'), distribution: { npx: { package: 'x@1.0.0', env: { 'BAD NAME': '1' } } } },
      { ...good('x'), distribution: {} },
      { ...good('x'), description: 'x'.repeat(5000) },
    ];
    for (const entry of bad) expect(RegistryManifest.safeParse(entry).success, JSON.stringify(entry).slice(0, 200)).toBe(false);
  });

  it('reads a target checksum when an entry has one, and drops platforms and kinds it does not know', () => {
    const m = RegistryManifest.parse({
      ...good('x'),
      distribution: {
        binary: {
          'linux-x86_64': { archive: 'https://x/a.tar.gz', cmd: './x', sha256: 'AB'.repeat(32) },
          'plan9-mips': { archive: 'https://x/a.tar.gz', cmd: './x' },
        },
        docker: { image: 'x' },
      },
    });
    expect(m.distribution).toEqual({ binary: { 'linux-x86_64': { archive: 'https://x/a.tar.gz', cmd: './x', sha256: 'ab'.repeat(32) } } });
  });
});
