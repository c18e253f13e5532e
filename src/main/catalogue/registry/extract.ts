import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { AppError } from '../../../shared/errors';
import { ExtractTarget, refuse, type ExtractLimits } from './extract-target';
import { extractTar } from './tar';
import { extractZip } from './zip';

/** What a download is, as the registry's archives come: zip, gzipped tar, tar, or the program itself. */
export type ArchiveKind = 'zip' | 'tar.gz' | 'tar' | 'raw';

/**
 * The kind from the address's file name, as the registry's own verifier decides it
 * (`.zip`, `.tar.gz`/`.tgz`, `.tar`; anything else is the program itself, e.g.
 * `cagent-linux-amd64`, `x.exe`). Compressions Node can't read without a library
 * (`.tar.bz2`, `.tar.xz`, `.tar.zst`) are refused by name rather than run as a program.
 */
export function archiveKind(url: string): ArchiveKind | { unsupported: string } {
  const name = new URL(url).pathname.split('/').pop()?.toLowerCase() ?? '';
  if (name.endsWith('.zip')) return 'zip';
  if (name.endsWith('.tar.gz') || name.endsWith('.tgz')) return 'tar.gz';
  if (name.endsWith('.tar')) return 'tar';
  const other = /\.(tar\.bz2|tbz2?|tar\.xz|txz|tar\.zst|tzst|7z|rar|gz|bz2|xz|zst)$/.exec(name);
  if (other) return { unsupported: other[1]! };
  return 'raw';
}

const MAGIC: Record<Exclude<ArchiveKind, 'raw' | 'tar'>, { bytes: number[]; what: string }[]> = {
  zip: [
    { bytes: [0x50, 0x4b, 0x03, 0x04], what: 'zip' },
    { bytes: [0x50, 0x4b, 0x05, 0x06], what: 'empty zip' },
  ],
  'tar.gz': [{ bytes: [0x1f, 0x8b], what: 'gzip' }],
};

/** Refuses a file whose first bytes are not what its name says (an HTML error page saved as .zip). */
async function assertMagic(file: string, kind: ArchiveKind): Promise<void> {
  if (kind === 'raw' || kind === 'tar') return;
  const fh = await open(file, 'r');
  const head = Buffer.alloc(4);
  try {
    await fh.read(head, 0, 4, 0);
  } finally {
    await fh.close();
  }
  if (!MAGIC[kind].some((m) => m.bytes.every((b, i) => head[i] === b))) throw refuse(`the download is not a ${kind} archive`);
}

/**
 * Unpacks `file` (an archive of `kind`) into the empty folder `root`; see `ExtractTarget` for
 * what is refused. A failure of the file system or of decompression part-way is reported as
 * a refused download; the caller removes the half-made folder.
 */
export async function extractArchive(file: string, kind: Exclude<ArchiveKind, 'raw'>, root: string, limits: ExtractLimits): Promise<void> {
  const target = new ExtractTarget(root, limits);
  try {
    await assertMagic(file, kind);
    if (kind === 'zip') await extractZip(file, target);
    else if (kind === 'tar') await extractTar(createReadStream(file), target);
    else await pipeline(createReadStream(file), createGunzip(), (source: AsyncIterable<Uint8Array>) => extractTar(source, target));
    await target.finish();
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw refuse(`could not unpack the download: ${(err as Error).message}`);
  }
}
