import type { BinaryTargetT, RegistryManifestT, RegistryPlatformT } from '../../../shared/registry';

const OS: Partial<Record<NodeJS.Platform, string>> = { darwin: 'darwin', linux: 'linux', win32: 'windows' };
const ARCH: Partial<Record<string, string>> = { x64: 'x86_64', arm64: 'aarch64' };

/**
 * This machine as the registry names platforms (`linux-x86_64`, `darwin-aarch64`,
 * `windows-x86_64`…): Node's `process.platform` and `process.arch` mapped the way the
 * registry's verifier maps Python's (Darwin/arm64 → darwin-aarch64, Windows/AMD64 →
 * windows-x86_64). Undefined where the registry publishes nothing (FreeBSD, 32-bit, ppc64).
 */
export function registryPlatform(platform: NodeJS.Platform = process.platform, arch: string = process.arch): RegistryPlatformT | undefined {
  const os = OS[platform];
  const cpu = ARCH[arch];
  return os && cpu ? (`${os}-${cpu}` as RegistryPlatformT) : undefined;
}

/** The manifest's download for `platform`, if it has one. */
export function binaryTargetFor(manifest: RegistryManifestT, platform: RegistryPlatformT | undefined): BinaryTargetT | undefined {
  return platform ? manifest.distribution.binary?.[platform] : undefined;
}
