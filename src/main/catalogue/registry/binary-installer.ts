import { createHash, randomUUID } from 'node:crypto';
import { chmod, lstat, mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join, relative } from 'node:path';
import { AppError } from '../../../shared/errors';
import type { RegistryInstallProgressT, RegistryManifestT, RegistryPlatformT } from '../../../shared/registry';
import type { Clock } from '../../util/clock';
import { isInside, realPathInside } from '../../util/inside-folder';
import type { Logger } from '../../util/log';
import { archiveKind, extractArchive } from './extract';
import { DEFAULT_EXTRACT_LIMITS, entryPath, refuse, type ExtractLimits } from './extract-target';
import { httpGet } from './http-get';
import { installDirOf } from './needs';
import { binaryTargetFor } from './platform';

export interface InstallerOptions {
  /** `<data dir>/agents`: versions go to `<id>/<version>/`, work in progress to `<id>/.tmp-*`. */
  agentsRoot: string;
  clock: Clock;
  log: Logger;
  /** Largest download accepted (default 512 MiB; agent binaries are tens of MiB). */
  maxDownloadBytes?: number;
  extractLimits?: ExtractLimits;
  /** No byte for this long aborts (default 60 s). */
  idleTimeoutMs?: number;
  /** The whole download (default 30 min). */
  totalTimeoutMs?: number;
  /** Where the executable bit means nothing (win32), it is not set. */
  platform?: NodeJS.Platform;
}

export interface InstallRequest {
  manifest: RegistryManifestT;
  platform: RegistryPlatformT;
  /** The sha256 recorded when this same version was downloaded before: a different file is refused. */
  knownSha256?: string;
  onProgress?(p: RegistryInstallProgressT): void;
  signal?: AbortSignal;
}

export interface InstalledBinary {
  registryId: string;
  version: string;
  platform: RegistryPlatformT;
  /** `<agents root>/<id>/<version>`. */
  dir: string;
  /** The program to start, inside `dir`. */
  executable: string;
  sha256: string;
  /** How the download was checked: the entry's checksum, the one seen before, or only recorded now. */
  verified: 'manifest' | 'previous' | 'first-seen';
  bytes: number;
  archive: string;
}

const TMP_PREFIX = '.tmp-';

/**
 * Downloads an entry's build for a platform into `<agents root>/<id>/<version>/`. Everything
 * happens in a temporary folder beside it (same file system): the download (streamed to disk
 * through sha256 and the size cap), the check against the entry's checksum or the one seen
 * for this version before (mismatch: refused and deleted), the unpacking (see
 * `extractArchive`), finding the entry's `cmd` and setting its executable bit. Only then is
 * the folder renamed into place, so a failure at any step leaves no version folder and no
 * partial files; `sweep()` removes what a crash left. Two installs of one version share one run.
 */
export class BinaryInstaller {
  private readonly inFlight = new Map<string, Promise<InstalledBinary>>();

  constructor(private readonly o: InstallerOptions) {}

  install(req: InstallRequest): Promise<InstalledBinary> {
    const key = `${req.manifest.id}@${req.manifest.version}/${req.platform}`;
    let run = this.inFlight.get(key);
    if (!run) {
      run = this.run(req).finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, run);
    }
    return run;
  }

  private async run(req: InstallRequest): Promise<InstalledBinary> {
    const { manifest: m, platform } = req;
    const target = binaryTargetFor(m, platform);
    if (!target) throw new AppError('unsupported', `${m.name} ${m.version} has no download for ${platform}`);
    const kind = archiveKind(target.archive);
    if (typeof kind === 'object') throw refuse(`${m.name} is packed as .${kind.unsupported}, which Switchboard can't unpack`);
    const cmd = entryPath(target.cmd);
    if ('error' in cmd || cmd.path === '') throw refuse(`${m.name}'s command is not a path inside its folder`);
    const log = this.o.log.child('registry-install');
    const progress = (phase: RegistryInstallProgressT['phase'], bytes: number, total?: number) =>
      req.onProgress?.({ registryId: m.id, version: m.version, phase, bytes, ...(total !== undefined ? { total } : {}) });

    const idDir = join(this.o.agentsRoot, m.id);
    await mkdir(idDir, { recursive: true });
    const work = join(idDir, `${TMP_PREFIX}${m.version}-${randomUUID().slice(0, 8)}`);
    await mkdir(work);
    try {
      const download = join(work, 'download');
      const hash = createHash('sha256');
      const fh = await open(download, 'wx', 0o600);
      let got: { bytes: number };
      try {
        got = await httpGet(
          target.archive,
          {
            clock: this.o.clock,
            idleTimeoutMs: this.o.idleTimeoutMs ?? 60_000,
            totalTimeoutMs: this.o.totalTimeoutMs ?? 30 * 60_000,
            maxBytes: this.o.maxDownloadBytes ?? 512 * 1024 * 1024,
            onProgress: (bytes, total) => progress('downloading', bytes, total),
            ...(req.signal ? { signal: req.signal } : {}),
          },
          async (chunk) => {
            hash.update(chunk);
            await fh.write(chunk);
          },
        );
      } finally {
        await fh.close();
      }
      progress('verifying', got.bytes);
      const sha256 = hash.digest('hex');
      const expected = target.sha256 ?? req.knownSha256;
      if (expected && expected !== sha256) {
        throw refuse(
          target.sha256
            ? `${m.name} ${m.version}: the download's sha256 (${sha256}) is not the registry's (${expected}); refused and deleted`
            : `${m.name} ${m.version}: the download's sha256 (${sha256}) differs from the one downloaded before (${expected}); the file changed upstream, refused and deleted`,
        );
      }
      progress('extracting', got.bytes);
      const root = join(work, 'root');
      await mkdir(root);
      if (kind === 'raw') {
        await mkdir(dirname(join(root, cmd.path)), { recursive: true });
        await rename(download, join(root, cmd.path));
      } else {
        await extractArchive(download, kind, root, this.o.extractLimits ?? DEFAULT_EXTRACT_LIMITS);
        await rm(download, { force: true });
      }
      const found = await locate(root, cmd.path);
      if (!found) throw refuse(`${m.name} ${m.version}: the download has no ${target.cmd}`);
      if ((this.o.platform ?? process.platform) !== 'win32') {
        const real = realPathInside(root, found)!;
        await chmod(real, ((await stat(real)).mode & 0o777) | 0o755);
      }
      const dir = installDirOf(this.o.agentsRoot, m.id, m.version);
      await moveIntoPlace(root, dir, work);
      progress('done', got.bytes);
      const verified = target.sha256 ? 'manifest' : req.knownSha256 ? 'previous' : 'first-seen';
      log.info('registry agent installed', { registryId: m.id, version: m.version, platform, bytes: got.bytes, sha256, verified });
      return { registryId: m.id, version: m.version, platform, dir, executable: join(dir, relative(root, found)), sha256, verified, bytes: got.bytes, archive: target.archive };
    } catch (err) {
      log.warn('registry agent install failed', { registryId: m.id, version: m.version, platform, error: (err as Error).message });
      throw err;
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  }

  /** Deletes an installed version's folder (nothing outside the agents root). */
  async remove(dir: string): Promise<void> {
    if (!isInside(this.o.agentsRoot, dir) || dir === this.o.agentsRoot) throw new AppError('invalid_request', `${dir} is not an installed agent folder`);
    await rm(dir, { recursive: true, force: true });
  }

  /**
   * Removes what interrupted installs left (`<id>/.tmp-*`) and version folders no kept version
   * names (`keep`): rolled-over versions and agents removed from the catalogue. Returns what
   * was removed. Run at start, when no install is in flight.
   */
  async sweep(keep: ReadonlySet<string>): Promise<string[]> {
    const removed: string[] = [];
    let ids: string[];
    try {
      ids = await readdir(this.o.agentsRoot);
    } catch {
      return removed; // Nothing installed yet.
    }
    for (const id of ids) {
      const idDir = join(this.o.agentsRoot, id);
      if (!(await lstat(idDir)).isDirectory()) continue;
      for (const entry of await readdir(idDir)) {
        const path = join(idDir, entry);
        if (entry.startsWith(TMP_PREFIX) || !keep.has(path)) {
          await rm(path, { recursive: true, force: true });
          removed.push(path);
        }
      }
      if ((await readdir(idDir)).length === 0) await rm(idDir, { recursive: true, force: true });
    }
    if (removed.length) this.o.log.info('registry folders removed', { removed });
    return removed;
  }
}

/**
 * The entry's `cmd` in the unpacked folder: at its path if that is a file (or a link to one
 * inside), else the first file of that name below (archives often wrap their program in a
 * folder, `codex-acp-0.9.2/codex-acp`), breadth first in name order, links not followed.
 */
async function locate(root: string, cmd: string): Promise<string | undefined> {
  const direct = join(root, cmd);
  const real = realPathInside(root, direct);
  if (real && (await stat(real)).isFile()) return direct;
  const name = basename(cmd);
  let level = [root];
  for (let depth = 0; depth < 8 && level.length; depth++) {
    const next: string[] = [];
    for (const dir of level) {
      const entries = (await readdir(dir, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : 1));
      const hit = entries.find((e) => e.isFile() && e.name === name);
      if (hit) return join(dir, hit.name);
      next.push(...entries.filter((e) => e.isDirectory()).map((e) => join(dir, e.name)));
    }
    level = next;
  }
  return undefined;
}

/**
 * Renames the finished folder to `dir`. A folder already there (a reinstall of the same
 * version) is first moved into the work folder, and put back if the second rename fails.
 */
async function moveIntoPlace(root: string, dir: string, work: string): Promise<void> {
  const old = join(work, 'replaced');
  let moved = false;
  try {
    await rename(dir, old);
    moved = true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  try {
    await rename(root, dir);
  } catch (err) {
    if (moved) await rename(old, dir);
    throw err;
  }
}
