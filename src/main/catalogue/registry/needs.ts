import { join } from 'node:path';
import type { DistributionKindT, RegistryEntryViewT, RegistryManifestT, RegistryOptionT, RegistryPlatformT } from '../../../shared/registry';
import { findOnPath, type DetectionEnv } from '../agent-detection';
import { binaryLaunch, npxLaunch, uvxLaunch } from './launch';
import { binaryTargetFor } from './platform';

/** The launchers found on PATH (absolute paths), looked up without a shell as spawn would. */
export interface Tools {
  npx?: string;
  uvx?: string;
  uv?: string;
}

export async function findTools(env: DetectionEnv = process.env, platform: NodeJS.Platform = process.platform): Promise<Tools> {
  const [npx, uvx, uv] = await Promise.all(['npx', 'uvx', 'uv'].map((c) => findOnPath(c, env, platform)));
  return { ...(npx ? { npx } : {}), ...(uvx ? { uvx } : {}), ...(uv ? { uv } : {}) };
}

/** Where a version of an entry is (or would be) installed: `<agents root>/<id>/<version>`. */
export function installDirOf(agentsRoot: string, registryId: string, version: string): string {
  return join(agentsRoot, registryId, version);
}

/**
 * The ways an entry can be added on this machine and what each needs: Node (npx) or uv (uvx)
 * on PATH, or a download for this platform. A binary entry with no build for this platform
 * has no option, and says why. The preferred option is one whose tool is already here (no
 * download Switchboard has to manage), else the download, else the first (whose need the
 * window then shows as missing).
 */
export function registryOptions(
  m: RegistryManifestT,
  tools: Tools,
  platform: RegistryPlatformT | undefined,
  agentsRoot: string,
): Pick<RegistryEntryViewT, 'options' | 'preferred' | 'unavailable'> {
  const options: RegistryOptionT[] = [];
  const npx = npxLaunch(m);
  if (npx) {
    options.push({
      kind: 'npx',
      command: npx.command,
      args: npx.args,
      need: tools.npx
        ? { tool: 'node', satisfied: true, detail: `Node.js: npx found at ${tools.npx}; the package downloads on first start` }
        : { tool: 'node', satisfied: false, detail: 'Needs Node.js: npx is not on PATH (install Node.js from nodejs.org)' },
    });
  }
  const uvx = uvxLaunch(m, tools.uvx || !tools.uv ? 'uvx' : 'uv');
  if (uvx) {
    const found = tools.uvx ?? tools.uv;
    options.push({
      kind: 'uvx',
      command: uvx.command,
      args: uvx.args,
      need: found
        ? { tool: 'uv', satisfied: true, detail: `uv: ${tools.uvx ? 'uvx' : 'uv'} found at ${found}; the package downloads on first start` }
        : { tool: 'uv', satisfied: false, detail: 'Needs uv: uvx is not on PATH (install uv from docs.astral.sh/uv)' },
    });
  }
  const target = binaryTargetFor(m, platform);
  let unavailable: string | undefined;
  if (target && platform) {
    const host = new URL(target.archive).host;
    const launch = binaryLaunch(m, platform, join(installDirOf(agentsRoot, m.id, m.version), target.cmd));
    options.push({
      kind: 'binary',
      command: launch!.command,
      args: launch!.args,
      archive: target.archive,
      need: { tool: 'download', satisfied: true, detail: `Downloads ${m.name} ${m.version} for ${platform} from ${host}${target.sha256 ? ' (checksum verified)' : ''}` },
    });
  } else if (m.distribution.binary && options.length === 0) {
    const has = Object.keys(m.distribution.binary).join(', ');
    unavailable = platform ? `No build for ${platform} (the registry has ${has})` : `No build for this platform (${process.platform}-${process.arch}); the registry has ${has}`;
  }
  const satisfied = options.find((o) => o.need.satisfied && o.kind !== 'binary') ?? options.find((o) => o.kind === 'binary') ?? options[0];
  return { options, ...(satisfied ? { preferred: satisfied.kind as DistributionKindT } : {}), ...(unavailable ? { unavailable } : {}) };
}
