import { constants } from 'node:fs';
import { access, readFile, readdir, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { delimiter, dirname, isAbsolute, join } from 'node:path';
import type { AvailabilityT } from '../../shared/catalogue';

/** What detection reads of the environment; tests pass a fake PATH and npm cache. */
export interface DetectionEnv {
  PATH?: string;
  PATHEXT?: string;
  HOME?: string;
  /** npm's cache folder (`npm_config_cache`), default ~/.npm (%LocalAppData%\npm-cache). */
  npm_config_cache?: string;
  LOCALAPPDATA?: string;
}

async function isExecutableFile(file: string, platform: NodeJS.Platform): Promise<boolean> {
  try {
    if (!(await stat(file)).isFile()) return false;
    if (platform !== 'win32') await access(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Finds `command` the way spawn (no shell) would: an absolute or relative path as is, else the
 * first executable file of that name in PATH (with PATHEXT on Windows). No shell, no `which`.
 */
export async function findOnPath(command: string, env: DetectionEnv, platform: NodeJS.Platform = process.platform): Promise<string | undefined> {
  if (isAbsolute(command) || command.includes('/') || (platform === 'win32' && command.includes('\\'))) {
    return (await isExecutableFile(command, platform)) ? command : undefined;
  }
  const exts = platform === 'win32' ? ['', ...(env.PATHEXT ?? '.COM;.EXE;.BAT;.CMD').split(';').filter(Boolean)] : [''];
  for (const dir of (env.PATH ?? '').split(platform === 'win32' ? ';' : delimiter)) {
    if (!dir) continue;
    for (const ext of exts) {
      const file = join(dir, command + ext);
      if (await isExecutableFile(file, platform)) return file;
    }
  }
  return undefined;
}

/** `pkg@version` as npx is given it (`-y @scope/pkg@1.2.3`), split; undefined when unpinned. */
export function pinnedNpxPackage(args: readonly string[]): { name: string; version: string } | undefined {
  const spec = args.find((a) => !a.startsWith('-'));
  const m = spec ? /^(@[^/@\s]+\/[^@\s]+|[^@\s]+)@(\d+\.\d+\.\d+[^\s]*)$/.exec(spec) : null;
  return m ? { name: m[1]!, version: m[2]! } : undefined;
}

async function installedVersion(packageJson: string): Promise<string | undefined> {
  try {
    return (JSON.parse(await readFile(packageJson, 'utf8')) as { version?: string }).version;
  } catch {
    return undefined;
  }
}

function npmCacheDir(env: DetectionEnv, platform: NodeJS.Platform): string {
  if (env.npm_config_cache) return env.npm_config_cache;
  if (platform === 'win32' && env.LOCALAPPDATA) return join(env.LOCALAPPDATA, 'npm-cache');
  return join(env.HOME ?? homedir(), '.npm');
}

/**
 * Where an exact package version sits ready for `npx` without the network: in npx's own cache
 * (`<npm cache>/_npx/<hash>/node_modules/<pkg>`), or installed globally next to the `npx` found
 * on PATH (`<prefix>/lib/node_modules/<pkg>`).
 */
async function findNpxPackage(
  pkg: { name: string; version: string },
  npx: string,
  env: DetectionEnv,
  platform: NodeJS.Platform,
): Promise<string | undefined> {
  const root = join(npmCacheDir(env, platform), '_npx');
  let entries: string[] = [];
  try {
    entries = await readdir(root);
  } catch {
    // No npx cache yet.
  }
  const prefix = dirname(dirname(npx));
  const candidates = [
    ...entries.map((e) => join(root, e, 'node_modules', pkg.name)),
    join(prefix, 'lib', 'node_modules', pkg.name),
    join(dirname(npx), 'node_modules', pkg.name),
  ];
  for (const dir of candidates) {
    if ((await installedVersion(join(dir, 'package.json'))) === pkg.version) return dir;
  }
  return undefined;
}

/**
 * Whether `command args` can start here, without starting it: see `Availability`. Cheap and
 * honest: file-system reads only, so it can run for every agent and preset on each refresh.
 */
export async function detectLaunch(
  command: string,
  args: readonly string[],
  env: DetectionEnv,
  platform: NodeJS.Platform = process.platform,
): Promise<AvailabilityT> {
  const found = await findOnPath(command, env, platform);
  if (!found) return { status: 'missing', detail: `${command} is not on PATH` };
  if (!/^npx(\.cmd)?$/i.test(command.split(/[\\/]/).pop() ?? '')) return { status: 'installed', detail: `Found ${found}` };
  const pkg = pinnedNpxPackage(args);
  if (!pkg) return { status: 'download', detail: 'Runs through npx with no pinned version: it may download on every start' };
  const dir = await findNpxPackage(pkg, found, env, platform);
  if (dir) return { status: 'installed', detail: `${pkg.name}@${pkg.version} is ready for npx in ${dir}` };
  return { status: 'download', detail: `npx downloads ${pkg.name}@${pkg.version} on first start (needs the network)` };
}

/**
 * Cached detection: each launch is checked once until `refresh()`; checks run in the
 * background, so nothing waits on them at start-up, and a caller that wants the answer awaits it.
 */
export class AgentDetector {
  private readonly cache = new Map<string, Promise<AvailabilityT>>();

  constructor(
    private readonly env: DetectionEnv = process.env,
    private readonly platform: NodeJS.Platform = process.platform,
  ) {}

  check(command: string, args: readonly string[]): Promise<AvailabilityT> {
    const key = JSON.stringify([command, args]);
    let result = this.cache.get(key);
    if (!result) {
      result = detectLaunch(command, args, this.env, this.platform).catch((err: unknown) => ({
        status: 'missing' as const,
        detail: `Could not check: ${(err as Error).message}`,
      }));
      this.cache.set(key, result);
    }
    return result;
  }

  refresh(): void {
    this.cache.clear();
  }
}
