import { describe, expect, it } from 'vitest';
import { RegistryManifest, type RegistryManifestInput } from '../../../shared/registry';
import { binaryLaunch, definitionOf, npxLaunch, pinnedSpec, uvxLaunch } from './launch';
import { binaryTargetFor, registryPlatform } from './platform';
import { compareVersions, isNewer } from './versions';

const manifest = (distribution: RegistryManifestInput['distribution'], version = '0.27.3') =>
  RegistryManifest.parse({ id: 'gemini', name: 'Gemini CLI', version, description: 'd', distribution });

describe('registry launches', () => {
  it('starts an npx entry as `npx -y pkg@version args…` with its environment, exactly as the manifest pins it', () => {
    const m = manifest({ npx: { package: '@google/gemini-cli@0.27.3', args: ['--experimental-acp'], env: { NO_UPDATE: '1' } } });
    expect(npxLaunch(m)).toEqual({ command: 'npx', args: ['-y', '@google/gemini-cli@0.27.3', '--experimental-acp'], env: { NO_UPDATE: '1' } });
    expect(definitionOf('gemini-2', m, npxLaunch(m)!)).toEqual({ id: 'gemini-2', name: 'Gemini CLI', command: 'npx', args: ['-y', '@google/gemini-cli@0.27.3', '--experimental-acp'], env: { NO_UPDATE: '1' } });
  });

  it('pins a package the manifest left unversioned to the entry version', () => {
    expect(npxLaunch(manifest({ npx: { package: '@scope/agent' } }))?.args).toEqual(['-y', '@scope/agent@0.27.3']);
    expect(npxLaunch(manifest({ npx: { package: 'agent' } }))?.args).toEqual(['-y', 'agent@0.27.3']);
    expect(pinnedSpec('uvx', 'minion-code', '0.1.5')).toBe('minion-code@0.1.5');
    expect(pinnedSpec('uvx', 'minion-code==0.1.5', '0.1.5')).toBe('minion-code==0.1.5');
  });

  it('starts a uvx entry with uvx, or with `uv tool run` where only uv is installed', () => {
    const m = manifest({ uvx: { package: 'minion-code@0.1.5', args: ['acp'] } }, '0.1.5');
    expect(uvxLaunch(m)).toEqual({ command: 'uvx', args: ['minion-code@0.1.5', 'acp'], env: {} });
    expect(uvxLaunch(m, 'uv')).toEqual({ command: 'uv', args: ['tool', 'run', 'minion-code@0.1.5', 'acp'], env: {} });
  });

  it('starts a binary entry from its installed file with the platform target arguments and environment', () => {
    const m = manifest({
      binary: {
        'linux-x86_64': { archive: 'https://example.com/droid-linux.tar.gz', cmd: './droid', args: ['exec', '--output-format', 'acp'], env: { DROID_DISABLE_AUTO_UPDATE: 'true' } },
      },
    });
    expect(binaryLaunch(m, 'linux-x86_64', '/data/agents/gemini/0.27.3/droid')).toEqual({
      command: '/data/agents/gemini/0.27.3/droid',
      args: ['exec', '--output-format', 'acp'],
      env: { DROID_DISABLE_AUTO_UPDATE: 'true' },
    });
    expect(binaryLaunch(m, 'darwin-aarch64', '/x')).toBeUndefined();
    expect(binaryTargetFor(m, 'linux-x86_64')?.cmd).toBe('./droid');
    expect(binaryTargetFor(m, undefined)).toBeUndefined();
  });

  it('names this machine as the registry does', () => {
    expect(registryPlatform('linux', 'x64')).toBe('linux-x86_64');
    expect(registryPlatform('linux', 'arm64')).toBe('linux-aarch64');
    expect(registryPlatform('darwin', 'arm64')).toBe('darwin-aarch64');
    expect(registryPlatform('darwin', 'x64')).toBe('darwin-x86_64');
    expect(registryPlatform('win32', 'x64')).toBe('windows-x86_64');
    expect(registryPlatform('win32', 'arm64')).toBe('windows-aarch64');
    expect(registryPlatform('linux', 'ia32')).toBeUndefined();
    expect(registryPlatform('freebsd', 'x64')).toBeUndefined();
  });

  it('orders versions as semver does, so only a really newer version is offered', () => {
    expect(isNewer('1.425.0', '1.99.0')).toBe(true);
    expect(isNewer('0.10.0', '0.9.2')).toBe(true);
    expect(isNewer('1.0.0', '1.0.0-rc.1')).toBe(true);
    expect(isNewer('1.0.0-rc.10', '1.0.0-rc.9')).toBe(true);
    expect(isNewer('1.0.0-rc.1', '1.0.0-alpha')).toBe(true);
    expect(isNewer('1.0.0-alpha.1', '1.0.0-alpha')).toBe(true);
    expect(compareVersions('2.0.2+build5', '2.0.2')).toBe(0);
    expect(isNewer('1.0.0', '1.0.0')).toBe(false);
    expect(isNewer('1.2.3.4', '1.2.3')).toBe(false);
    expect(isNewer('1.2.3', '1.2.3.4')).toBe(true);
  });
});
