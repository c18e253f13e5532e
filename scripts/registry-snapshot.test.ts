import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../src/main/test-support/temp-dir';
import { RegistrySnapshot } from '../src/shared/registry';
import { buildSnapshot, readRegistryTree, snapshotText } from './registry-snapshot';

const dirs: { cleanup(): void }[] = [];
afterEach(() => dirs.splice(0).forEach((d) => d.cleanup()));

const GIT_ENV = { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t', GIT_COMMITTER_DATE: '2026-02-07T18:22:39Z', GIT_AUTHOR_DATE: '2026-02-07T18:22:39Z' };

/** A registry repository in a temp dir, one commit holding `files`. */
function registryRepo(files: Record<string, unknown>): string {
  const dir = tempDir('registry-repo-');
  dirs.push(dir);
  const git = (...args: string[]) => execFileSync('git', ['-C', dir.path, ...args], { env: GIT_ENV, encoding: 'utf8' });
  git('init', '-q', '-b', 'main');
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(dir.path, path, '..'), { recursive: true });
    writeFileSync(join(dir.path, path), typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  }
  git('add', '-A');
  git('commit', '-q', '-m', 'registry');
  return dir.path;
}

const npxAgent = (id: string, version = '1.2.3') => ({
  id,
  name: `Agent ${id}`,
  version,
  description: 'An agent',
  license: 'MIT',
  distribution: { npx: { package: `@acme/${id}@${version}`, args: ['--acp'], env: { Z_VAR: '1', A_VAR: '2' } } },
});

const binaryAgent = {
  id: 'zeta',
  name: 'Zeta',
  version: '0.9.2',
  description: 'A binary agent',
  distribution: {
    binary: {
      'linux-x86_64': { archive: 'https://example.com/v0.9.2/zeta-linux.tar.gz', cmd: './zeta', args: ['acp'] },
      'darwin-aarch64': { archive: 'https://example.com/v0.9.2/zeta-darwin.zip', cmd: './zeta' },
      'windows-x86_64': { archive: 'https://example.com/v0.9.2/zeta.zip', cmd: './zeta.exe' },
    },
  },
};

describe('registry snapshot script', () => {
  it('aggregates every agent folder of the commit, sorted by id, with the commit and its date, skipping folders that hold no entry', () => {
    const repo = registryRepo({
      'zeta/agent.json': binaryAgent,
      'alpha/agent.json': npxAgent('alpha'),
      'alpha/icon.svg': '<svg/>',
      '_not_yet_unsupported/beta/agent.json': npxAgent('beta'),
      '.github/workflows/build_registry.py': 'print("not read")',
      'README.md': '# registry',
    });
    const tree = readRegistryTree(repo);
    const result = buildSnapshot(tree);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const { origin, index } = result.snapshot;
    expect(origin.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(origin.date).toBe('2026-02-07T18:22:39+00:00');
    expect(index.agents.map((a) => a.id)).toEqual(['alpha', 'zeta']);
    expect(index.agents[0]?.icon).toBe('https://cdn.agentclientprotocol.com/registry/v1/latest/alpha.svg');
    expect(Object.keys(index.agents[0]?.distribution.npx?.env ?? {})).toEqual(['A_VAR', 'Z_VAR']);
    expect(Object.keys(index.agents[1]?.distribution.binary ?? {})).toEqual(['darwin-aarch64', 'linux-x86_64', 'windows-x86_64']);
    // Stable: the same tree gives the same bytes, and they read back as a snapshot.
    const text = snapshotText(result.snapshot);
    const again = buildSnapshot(readRegistryTree(repo));
    expect(again.ok && snapshotText(again.snapshot)).toBe(text);
    expect(RegistrySnapshot.parse(JSON.parse(text))).toEqual(result.snapshot);
  });

  it('refuses the whole snapshot, naming each failure, when a manifest breaks the schema or the registry rules', () => {
    const repo = registryRepo({
      'good/agent.json': npxAgent('good'),
      'wrong-dir/agent.json': npxAgent('other'),
      'stale/agent.json': { ...npxAgent('stale', '2.0.0'), version: '2.0.1' },
      'broken/agent.json': '{ not json',
      'hostile/agent.json': { ...npxAgent('hostile'), distribution: { npx: { package: '--call=rm -rf ~' } } },
      'escape/agent.json': { ...binaryAgent, id: 'escape', distribution: { binary: { 'linux-x86_64': { archive: 'https://x/a.zip', cmd: '../../bin/sh' } } } },
      'plan9/agent.json': { ...binaryAgent, id: 'plan9', distribution: { binary: { 'plan9-mips': { archive: 'https://x/a.zip', cmd: './a' }, 'linux-x86_64': { archive: 'https://x/a.zip', cmd: './a' } } } },
    });
    const result = buildSnapshot(readRegistryTree(repo));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const text = result.errors.join('\n');
    expect(text).toContain('wrong-dir/agent.json: id "other" must match its folder "wrong-dir"');
    expect(text).toContain('stale/agent.json: npx package @acme/stale@2.0.0 is not version 2.0.1');
    expect(text).toContain('broken/agent.json: invalid JSON');
    expect(text).toMatch(/hostile\/agent.json: distribution.npx.package: an npm package/);
    expect(text).toMatch(/escape\/agent.json: distribution.binary.linux-x86_64.cmd: a path inside the unpacked archive/);
    expect(text).toContain('plan9/agent.json: unknown platform "plan9-mips"');
    expect(text).not.toContain('good/');
  });

  it('reads a bare git directory and a named ref, as the fetched mirror is', () => {
    const repo = registryRepo({ 'alpha/agent.json': npxAgent('alpha') });
    const bare = tempDir('registry-bare-');
    dirs.push(bare);
    execFileSync('git', ['clone', '-q', '--bare', repo, join(bare.path, 'r.git')], { env: GIT_ENV });
    const tree = readRegistryTree(join(bare.path, 'r.git'), 'main');
    expect(tree.folders.map((f) => f.name)).toEqual(['alpha']);
    expect(buildSnapshot(tree).ok).toBe(true);
  });

  it('the bundled snapshot is a valid snapshot of the public registry', () => {
    const bundled = RegistrySnapshot.parse(JSON.parse(readFileSync(join(import.meta.dirname, '..', 'src', 'main', 'catalogue', 'registry', 'snapshot.json'), 'utf8')));
    expect(bundled.origin.repository).toBe('agentclientprotocol/registry');
    expect(bundled.index.agents.length).toBeGreaterThan(5);
    expect(bundled.index.agents.map((a) => a.id)).toEqual([...bundled.index.agents.map((a) => a.id)].sort());
  });
});
