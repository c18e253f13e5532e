import type { AgentDefinition } from '../../brokers/agent-definition';
import type { DistributionKindT, RegistryManifestT, RegistryPlatformT } from '../../../shared/registry';

/** How a registry entry starts: a command, its arguments and the entry's environment. */
export interface Launch {
  command: string;
  args: string[];
  env: Record<string, string>;
}

/** The registry facts a catalogue agent added from an entry carries beside its definition. */
export interface RegistryLaunchMeta {
  registryId: string;
  version: string;
  kind: DistributionKindT;
  /** Binary: the platform downloaded, the folder and the sha256 of the download. */
  platform?: RegistryPlatformT;
  installDir?: string;
  sha256?: string;
}

/** Whether an npm spec names a version (`@scope/x@1.2.3`, `x@1.2.3`): an `@` past the first character. */
function npmPinned(spec: string): boolean {
  return spec.indexOf('@', 1) !== -1;
}

/** Whether a PyPI spec names a version (`x==1.2.3`, `x@1.2.3`). */
function pypiPinned(spec: string): boolean {
  return spec.includes('==') || spec.includes('@');
}

/**
 * The package spec, always pinned: the registry's specs carry the entry's version
 * (`@google/gemini-cli@0.27.3`, `minion-code@0.1.5`); one that doesn't gets `@<version>`, so what
 * starts never changes under the person's feet (npx and uvx both read `name@version`).
 */
export function pinnedSpec(kind: 'npx' | 'uvx', spec: string, version: string): string {
  const pinned = kind === 'npx' ? npmPinned(spec) : pypiPinned(spec);
  return pinned ? spec : `${spec}@${version}`;
}

/** `npx -y <pkg@version> args…`: `-y` so npx never waits on a prompt no one sees. */
export function npxLaunch(m: RegistryManifestT): Launch | undefined {
  const d = m.distribution.npx;
  if (!d) return undefined;
  return { command: 'npx', args: ['-y', pinnedSpec('npx', d.package, m.version), ...(d.args ?? [])], env: { ...d.env } };
}

/**
 * `uvx <pkg@version> args…`; where only `uv` is installed, `uv tool run` (what `uvx` is an alias
 * of) with the same arguments.
 */
export function uvxLaunch(m: RegistryManifestT, via: 'uvx' | 'uv' = 'uvx'): Launch | undefined {
  const d = m.distribution.uvx;
  if (!d) return undefined;
  const spec = pinnedSpec('uvx', d.package, m.version);
  const args = [spec, ...(d.args ?? [])];
  return via === 'uvx' ? { command: 'uvx', args, env: { ...d.env } } : { command: 'uv', args: ['tool', 'run', ...args], env: { ...d.env } };
}

/** A downloaded binary: its installed file (absolute) with the platform's arguments and environment. */
export function binaryLaunch(m: RegistryManifestT, platform: RegistryPlatformT, executable: string): Launch | undefined {
  const t = m.distribution.binary?.[platform];
  if (!t) return undefined;
  return { command: executable, args: [...(t.args ?? [])], env: { ...t.env } };
}

/** The catalogue definition for `agentId` from an entry's launch. */
export function definitionOf(agentId: string, m: RegistryManifestT, launch: Launch): AgentDefinition {
  return { id: agentId, name: m.name, command: launch.command, args: [...launch.args], env: { ...launch.env } };
}
