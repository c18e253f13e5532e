import { constants } from 'node:fs';
import { copyFile, lstat, mkdir, open, realpath, symlink, type FileHandle } from 'node:fs/promises';
import { dirname, join, posix } from 'node:path';
import { AppError } from '../../../shared/errors';
import { isInside } from '../../util/inside-folder';
import { mib } from './http-get';

/** Limits on what an archive may unpack to. */
export interface ExtractLimits {
  /** Total bytes written (and, for tar, decompressed): past it the archive is refused as a bomb. */
  maxBytes: number;
  maxEntries: number;
}

export const DEFAULT_EXTRACT_LIMITS: ExtractLimits = { maxBytes: 2 * 1024 ** 3, maxEntries: 20_000 };

export function refuse(message: string): AppError {
  return new AppError('download_refused', message);
}

/**
 * An archive entry's name as a path relative to the folder it unpacks into, or why it is
 * refused: absolute (`/x`, `C:\x`, `\\host\x`), climbing (`..` anywhere), NUL, or `:` (a
 * Windows stream or drive). Backslashes count as separators, as they would on Windows.
 * `''` is the folder itself (`./`), which needs nothing written.
 */
export function entryPath(name: string): { path: string } | { error: string } {
  if (name.includes('\0')) return { error: 'a name with a NUL byte' };
  if (name.length > 4096) return { error: 'a name longer than 4096 characters' };
  const slashed = name.replace(/\\/g, '/');
  if (slashed.startsWith('/') || /^[A-Za-z]:/.test(slashed)) return { error: `an absolute path (${name})` };
  const parts = slashed.split('/').filter((p) => p !== '' && p !== '.');
  if (parts.includes('..')) return { error: `a path that climbs out (${name})` };
  if (parts.some((p) => p.includes(':'))) return { error: `a name with ":" (${name})` };
  return { path: parts.join('/') };
}

/** One file being unpacked. `abort` closes it after a failure (the whole folder is removed then). */
export interface EntryWriter {
  write(chunk: Uint8Array): Promise<void>;
  close(): Promise<void>;
  abort(): Promise<void>;
}

/**
 * The folder an archive unpacks into, which every write goes through: names are checked
 * (`entryPath`) before anything is created, bytes and entries are counted against the
 * limits, and links are held to the folder. Symbolic links are made last, after every file
 * is written, so no write can pass through one; each is then resolved on disk and the whole
 * archive is refused if one leads out (however links chain). A hard link becomes a copy of a
 * file already unpacked.
 */
export class ExtractTarget {
  private bytes = 0;
  private entries = 0;
  private readonly files = new Set<string>();
  private readonly links: { path: string; target: string }[] = [];

  constructor(
    readonly root: string,
    readonly limits: ExtractLimits,
  ) {}

  async directory(name: string): Promise<void> {
    const rel = this.check(name);
    if (rel === '') return;
    await this.makeParents(rel);
    await mkdir(join(this.root, rel), { recursive: true });
  }

  /**
   * Opens a regular file for writing `size` bytes (refused at once when that would pass the
   * limit); `write` counts what really arrives, so a lying size is caught too.
   */
  async file(name: string, size: number, mode: number): Promise<EntryWriter> {
    const rel = this.check(name);
    if (rel === '') throw refuse('an archive file entry with no name');
    this.reserve(size);
    await this.makeParents(rel);
    const file = join(this.root, rel);
    await this.assertReplaceable(file);
    const handle: FileHandle = await open(file, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | (constants.O_NOFOLLOW ?? 0), safeMode(mode));
    this.files.add(rel);
    let written = 0;
    return {
      write: async (chunk) => {
        written += chunk.byteLength;
        if (written > size) throw refuse(`${name} holds more than the ${size} bytes its header says`);
        await handle.write(chunk);
      },
      close: async () => {
        await handle.close();
        if (written !== size) throw refuse(`${name} is truncated (${written} of ${size} bytes)`);
      },
      abort: () => handle.close(),
    };
  }

  /** Remembered, made in `finish()`; refused now when its target is absolute or climbs out lexically. */
  symlink(name: string, target: string): void {
    const rel = this.check(name);
    if (rel === '') throw refuse('a symbolic link with no name');
    if (target === '' || target.includes('\0') || /^([/\\]|[A-Za-z]:)/.test(target)) throw refuse(`${name} links to an absolute path (${target})`);
    const resolved = posix.normalize(posix.join(posix.dirname(rel), target.replace(/\\/g, '/')));
    if (resolved === '..' || resolved.startsWith('../')) throw refuse(`${name} links outside its folder (${target})`);
    this.links.push({ path: rel, target });
  }

  /** A hard link to an earlier entry: a copy of that file, counted like any other. */
  async hardlink(name: string, target: string): Promise<void> {
    const rel = this.check(name);
    const from = entryPath(target);
    if ('error' in from) throw refuse(`${name} is a hard link to ${from.error}`);
    if (!this.files.has(from.path)) throw refuse(`${name} is a hard link to ${target}, which is not a file unpacked before it`);
    const source = join(this.root, from.path);
    this.reserve((await lstat(source)).size);
    await this.makeParents(rel);
    await this.assertReplaceable(join(this.root, rel));
    await copyFile(source, join(this.root, rel));
    this.files.add(rel);
  }

  /** Makes the symbolic links, then refuses the archive if any resolves outside the folder. */
  async finish(): Promise<void> {
    for (const l of this.links) {
      await this.makeParents(l.path);
      try {
        await symlink(l.target, join(this.root, l.path));
      } catch (err) {
        throw refuse(`could not make the link ${l.path}: ${(err as Error).message}`);
      }
    }
    const root = await realpath(this.root);
    for (const l of this.links) {
      let real: string;
      try {
        real = await realpath(join(this.root, l.path));
      } catch {
        throw refuse(`${l.path} links to ${l.target}, which is not in the archive`);
      }
      if (!isInside(root, real)) throw refuse(`${l.path} links outside its folder (${l.target})`);
    }
  }

  private check(name: string): string {
    if (++this.entries > this.limits.maxEntries) throw refuse(`the archive has more than ${this.limits.maxEntries} entries: refused`);
    const p = entryPath(name);
    if ('error' in p) throw refuse(`the archive holds ${p.error}: refused`);
    return p.path;
  }

  private reserve(size: number): void {
    this.bytes += size;
    if (this.bytes > this.limits.maxBytes) throw refuse(`the archive unpacks to more than ${mib(this.limits.maxBytes)}: refused as a possible zip bomb`);
  }

  /** Parents are made as real folders; a file or link already in the way is refused. */
  private async makeParents(rel: string): Promise<void> {
    const parent = dirname(join(this.root, rel));
    await mkdir(parent, { recursive: true });
    const st = await lstat(parent);
    if (!st.isDirectory()) throw refuse(`${rel} would be written through something that is not a folder`);
  }

  private async assertReplaceable(file: string): Promise<void> {
    const st = await lstat(file).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return undefined;
      throw err;
    });
    if (st && !st.isFile()) throw refuse(`${file} is in the archive twice, once not as a file`);
  }
}

/** An archive's permission bits without setuid, setgid, sticky or write for others. */
export function safeMode(mode: number): number {
  return (mode & 0o777 & ~0o022) | 0o600;
}
