import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../test-support/temp-dir';
import { AgentDetector, detectLaunch, findOnPath, pinnedNpxPackage } from './agent-detection';

const dirs: { cleanup(): void }[] = [];
afterEach(() => dirs.splice(0).forEach((d) => d.cleanup()));

function fakeMachine() {
  const dir = tempDir();
  dirs.push(dir);
  const bin = join(dir.path, 'bin');
  const other = join(dir.path, 'other');
  const cache = join(dir.path, 'npm-cache');
  mkdirSync(bin);
  mkdirSync(other);
  const exe = (folder: string, name: string, mode = 0o755) => {
    const file = join(folder, name);
    writeFileSync(file, '#!/bin/sh\n');
    chmodSync(file, mode);
    return file;
  };
  const cachePackage = (name: string, version: string) => {
    const folder = join(cache, '_npx', 'abc123', 'node_modules', name);
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'package.json'), JSON.stringify({ name, version }));
  };
  return { root: dir.path, bin, other, cache, exe, cachePackage, env: { PATH: [other, bin].join(':'), npm_config_cache: cache, HOME: dir.path } };
}

// Windows only: its PATH lookup goes by PATHEXT, not the execute bit these fake commands use (runs here, on Linux).
describe.skipIf(process.platform === 'win32')('agent detection', () => {
  it('finds a command in PATH order without a shell', async () => {
    const m = fakeMachine();
    const found = m.exe(m.bin, 'gemini');
    expect(await findOnPath('gemini', m.env)).toBe(found);
    expect(await detectLaunch('gemini', ['--acp'], m.env)).toEqual({ status: 'installed', detail: `Found ${found}` });
  });

  it('skips files that are not executable and folders', async () => {
    const m = fakeMachine();
    m.exe(m.other, 'qwen', 0o644);
    mkdirSync(join(m.other, 'goose'));
    expect(await findOnPath('qwen', m.env)).toBeUndefined();
    expect(await findOnPath('goose', m.env)).toBeUndefined();
    expect((await detectLaunch('qwen', [], m.env)).status).toBe('missing');
  });

  it('checks an absolute command as a file', async () => {
    const m = fakeMachine();
    const file = m.exe(m.root, 'agent');
    expect((await detectLaunch(file, [], { PATH: '' })).status).toBe('installed');
    expect((await detectLaunch(join(m.root, 'nope'), [], { PATH: '' })).status).toBe('missing');
  });

  it('says a pinned npx package is installed when that version is in the npx cache', async () => {
    const m = fakeMachine();
    m.exe(m.bin, 'npx');
    m.cachePackage('@agentclientprotocol/claude-agent-acp', '0.101.0');
    const a = await detectLaunch('npx', ['-y', '@agentclientprotocol/claude-agent-acp@0.101.0'], m.env);
    expect(a.status).toBe('installed');
    expect(a.detail).toContain('@agentclientprotocol/claude-agent-acp@0.101.0');
  });

  it('says another cached version means a download', async () => {
    const m = fakeMachine();
    m.exe(m.bin, 'npx');
    m.cachePackage('@agentclientprotocol/claude-agent-acp', '0.100.0');
    const a = await detectLaunch('npx', ['-y', '@agentclientprotocol/claude-agent-acp@0.101.0'], m.env);
    expect(a).toEqual({ status: 'download', detail: 'npx downloads @agentclientprotocol/claude-agent-acp@0.101.0 on first start (needs the network)' });
  });

  it('finds a global install next to npx', async () => {
    const m = fakeMachine();
    m.exe(m.bin, 'npx');
    const folder = join(m.root, 'lib', 'node_modules', 'pi-acp');
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'package.json'), JSON.stringify({ name: 'pi-acp', version: '0.0.34' }));
    expect((await detectLaunch('npx', ['-y', 'pi-acp@0.0.34'], m.env)).status).toBe('installed');
  });

  it('says npx agents are missing when npx is', async () => {
    const m = fakeMachine();
    expect((await detectLaunch('npx', ['-y', 'pi-acp@0.0.34'], m.env)).status).toBe('missing');
  });

  it('reads pinned package specs, scoped or not', () => {
    expect(pinnedNpxPackage(['-y', '@google/gemini-cli@0.61.0', '--acp'])).toEqual({ name: '@google/gemini-cli', version: '0.61.0' });
    expect(pinnedNpxPackage(['-y', 'opencode-ai@1.18.33', 'acp'])).toEqual({ name: 'opencode-ai', version: '1.18.33' });
    expect(pinnedNpxPackage(['-y', '@google/gemini-cli'])).toBeUndefined();
  });

  it('caches results until refresh', async () => {
    const m = fakeMachine();
    const detector = new AgentDetector(m.env);
    expect((await detector.check('copilot', ['--acp'])).status).toBe('missing');
    m.exe(m.bin, 'copilot');
    expect((await detector.check('copilot', ['--acp'])).status).toBe('missing');
    detector.refresh();
    expect((await detector.check('copilot', ['--acp'])).status).toBe('installed');
  });
});
