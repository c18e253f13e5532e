import { createReadStream } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { createInflateRaw, crc32 } from 'node:zlib';
import { entryPath, refuse, type ExtractTarget } from './extract-target';
import { mib } from './http-get';

interface ZipEntry {
  name: string;
  method: number;
  flags: number;
  crc: number;
  compressedSize: number;
  size: number;
  localOffset: number;
  kind: 'file' | 'directory' | 'symlink';
  mode: number;
}

const EOCD = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_EOCD = 0x06064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
/** The central directory is read whole; a real one for a few files is kilobytes. */
const MAX_CENTRAL_DIRECTORY = 64 * 1024 * 1024;
const MAX_LINK_TARGET = 4096;

async function readAt(fh: FileHandle, position: number, length: number): Promise<Buffer> {
  const buf = Buffer.alloc(length);
  const { bytesRead } = await fh.read(buf, 0, length, position);
  if (bytesRead !== length) throw refuse('the zip archive is truncated');
  return buf;
}

function u64(b: Buffer, at: number): number {
  const n = b.readBigUInt64LE(at);
  if (n > BigInt(Number.MAX_SAFE_INTEGER)) throw refuse('a zip size too large');
  return Number(n);
}

/** Where the central directory is and how many entries it has (zip64 where the classic fields overflow). */
async function findCentralDirectory(fh: FileHandle, size: number): Promise<{ offset: number; size: number; count: number }> {
  const tail = Math.min(size, 22 + 0xffff);
  const buf = await readAt(fh, size - tail, tail);
  let at = -1;
  for (let i = buf.length - 22; i >= 0; i--) {
    if (buf.readUInt32LE(i) === EOCD) {
      at = i;
      break;
    }
  }
  if (at === -1) throw refuse('not a zip archive (no end of central directory)');
  if (buf.readUInt16LE(at + 4) !== 0 || buf.readUInt16LE(at + 6) !== 0) throw refuse('a multi-part zip archive');
  let count = buf.readUInt16LE(at + 10);
  let cdSize = buf.readUInt32LE(at + 12);
  let cdOffset = buf.readUInt32LE(at + 16);
  if (count === 0xffff || cdSize === 0xffffffff || cdOffset === 0xffffffff) {
    const eocdPos = size - tail + at;
    if (eocdPos < 20) throw refuse('a damaged zip64 archive');
    const locator = await readAt(fh, eocdPos - 20, 20);
    if (locator.readUInt32LE(0) !== ZIP64_LOCATOR) throw refuse('a damaged zip64 archive (no locator)');
    const rec = await readAt(fh, u64(locator, 8), 56);
    if (rec.readUInt32LE(0) !== ZIP64_EOCD) throw refuse('a damaged zip64 archive (no zip64 end record)');
    count = u64(rec, 32);
    cdSize = u64(rec, 40);
    cdOffset = u64(rec, 48);
  }
  if (cdOffset + cdSize > size) throw refuse('a damaged zip archive (central directory past the end)');
  if (cdSize > MAX_CENTRAL_DIRECTORY) throw refuse('a zip central directory larger than 64 MiB');
  return { offset: cdOffset, size: cdSize, count };
}

function kindOf(madeBy: number, external: number, name: string): { kind: ZipEntry['kind']; mode: number } | { error: string } {
  const unix = madeBy >> 8 === 3;
  const mode = unix ? external >>> 16 : 0;
  const type = mode & 0o170000;
  if (type === 0o120000) return { kind: 'symlink', mode };
  if (type === 0o040000 || name.endsWith('/') || (!unix && (external & 0x10) !== 0)) return { kind: 'directory', mode: mode || 0o755 };
  if (type === 0 || type === 0o100000) return { kind: 'file', mode: mode & 0o777 || 0o644 };
  return { error: `a device file, FIFO or socket (${name})` };
}

function parseCentralDirectory(cd: Buffer, count: number): ZipEntry[] {
  const entries: ZipEntry[] = [];
  let at = 0;
  for (let i = 0; i < count; i++) {
    if (at + 46 > cd.length || cd.readUInt32LE(at) !== CENTRAL) throw refuse('a damaged zip central directory');
    const madeBy = cd.readUInt16LE(at + 4);
    const flags = cd.readUInt16LE(at + 8);
    const method = cd.readUInt16LE(at + 10);
    const crc = cd.readUInt32LE(at + 16);
    let compressedSize = cd.readUInt32LE(at + 20);
    let size = cd.readUInt32LE(at + 24);
    const nameLen = cd.readUInt16LE(at + 28);
    const extraLen = cd.readUInt16LE(at + 30);
    const commentLen = cd.readUInt16LE(at + 32);
    const external = cd.readUInt32LE(at + 38);
    let localOffset = cd.readUInt32LE(at + 42);
    const end = at + 46 + nameLen + extraLen + commentLen;
    if (end > cd.length) throw refuse('a damaged zip central directory');
    const rawName = cd.subarray(at + 46, at + 46 + nameLen);
    // Bit 11: the name is UTF-8; otherwise code page 437, whose ASCII (the part that matters
    // for `/`, `..` and `:`) is the same.
    const name = flags & 0x800 ? rawName.toString('utf8') : rawName.toString('latin1');
    let extra = at + 46 + nameLen;
    const extraEnd = extra + extraLen;
    while (extra + 4 <= extraEnd) {
      const id = cd.readUInt16LE(extra);
      const len = cd.readUInt16LE(extra + 2);
      if (id === 0x0001) {
        let p = extra + 4;
        const take = () => {
          if (p + 8 > extra + 4 + len) throw refuse('a damaged zip64 extra field');
          const v = u64(cd, p);
          p += 8;
          return v;
        };
        if (size === 0xffffffff) size = take();
        if (compressedSize === 0xffffffff) compressedSize = take();
        if (localOffset === 0xffffffff) localOffset = take();
      }
      extra += 4 + len;
    }
    const kind = kindOf(madeBy, external, name);
    if ('error' in kind) throw refuse(`the archive holds ${kind.error}: refused`);
    entries.push({ name, method, flags, crc, compressedSize, size, localOffset, ...kind });
    at = end;
  }
  return entries;
}

/** Where an entry's data starts: past its local header, whose own name and extra lengths count. */
async function dataOffset(fh: FileHandle, e: ZipEntry, limit: number): Promise<number> {
  const h = await readAt(fh, e.localOffset, 30);
  if (h.readUInt32LE(0) !== LOCAL) throw refuse(`a damaged zip entry (${e.name})`);
  const start = e.localOffset + 30 + h.readUInt16LE(26) + h.readUInt16LE(28);
  if (start + e.compressedSize > limit) throw refuse(`a damaged zip entry (${e.name} runs past its data)`);
  return start;
}

/** An entry's bytes, inflated when deflated, in pieces as they come. */
async function* entryData(file: string, start: number, e: ZipEntry): AsyncGenerator<Buffer> {
  if (e.compressedSize === 0) return;
  const raw = createReadStream(file, { start, end: start + e.compressedSize - 1 });
  if (e.method === 0) {
    yield* raw as AsyncIterable<Buffer>;
    return;
  }
  const inflate = createInflateRaw();
  raw.on('error', (err) => inflate.destroy(err));
  raw.pipe(inflate);
  try {
    yield* inflate as AsyncIterable<Buffer>;
  } finally {
    raw.destroy();
    inflate.destroy();
  }
}

/**
 * Unpacks a zip file into `target`. The central directory is read and every entry judged
 * before one byte is written: names (through `entryPath`), kinds (no devices), encryption,
 * methods (stored and deflate) and the sum of declared sizes against the limit. Each entry's
 * output is then held to its declared size and checked against its CRC-32, so a lying header
 * stops at the lie.
 */
export async function extractZip(file: string, target: ExtractTarget): Promise<void> {
  const fh = await open(file, 'r');
  try {
    const size = (await fh.stat()).size;
    const cd = await findCentralDirectory(fh, size);
    if (cd.count > target.limits.maxEntries) throw refuse(`the archive has more than ${target.limits.maxEntries} entries: refused`);
    const entries = parseCentralDirectory(await readAt(fh, cd.offset, cd.size), cd.count);
    let declared = 0;
    for (const e of entries) {
      const p = entryPath(e.name);
      if ('error' in p) throw refuse(`the archive holds ${p.error}: refused`);
      if (e.flags & 0x1) throw refuse(`the archive is encrypted (${e.name})`);
      if (e.method !== 0 && e.method !== 8) throw refuse(`the archive uses a compression Switchboard does not unpack (method ${e.method}, ${e.name})`);
      if (e.method === 0 && e.compressedSize !== e.size) throw refuse(`a damaged zip entry (${e.name})`);
      declared += e.size;
    }
    if (declared > target.limits.maxBytes) throw refuse(`the archive unpacks to more than ${mib(target.limits.maxBytes)}: refused as a possible zip bomb`);
    for (const e of entries) {
      if (e.kind === 'directory') {
        await target.directory(e.name);
        continue;
      }
      const start = await dataOffset(fh, e, cd.offset);
      if (e.kind === 'symlink') {
        if (e.size > MAX_LINK_TARGET) throw refuse(`${e.name} is a link with an oversized target`);
        const parts: Buffer[] = [];
        for await (const piece of entryData(file, start, e)) parts.push(piece);
        const link = Buffer.concat(parts);
        if (link.length !== e.size || crc32(link) !== e.crc) throw refuse(`a damaged zip entry (${e.name})`);
        target.symlink(e.name, link.toString('utf8'));
        continue;
      }
      const out = await target.file(e.name, e.size, e.mode);
      let crc = 0;
      try {
        for await (const piece of entryData(file, start, e)) {
          await out.write(piece);
          crc = crc32(piece, crc);
        }
      } catch (err) {
        await out.abort();
        throw err instanceof Error && 'code' in err && String((err as NodeJS.ErrnoException).code).startsWith('Z_') ? refuse(`a damaged zip entry (${e.name}): ${err.message}`) : err;
      }
      await out.close();
      if (crc >>> 0 !== e.crc) throw refuse(`${e.name} fails its CRC-32 check: the archive is damaged`);
    }
  } finally {
    await fh.close();
  }
}
