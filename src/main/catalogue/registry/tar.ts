import { refuse, type ExtractTarget } from './extract-target';
import { mib } from './http-get';

/**
 * Pulls exact byte counts out of a chunked stream (a gunzip's output), counting every byte
 * against `max`: a gzip bomb is stopped by the count, whatever the tar inside declares.
 */
class ByteReader {
  private buf: Buffer = Buffer.alloc(0);
  private ended = false;
  private total = 0;

  constructor(
    private readonly it: AsyncIterator<Uint8Array>,
    private readonly max: number,
  ) {}

  private async pull(): Promise<boolean> {
    if (this.ended) return false;
    const r = await this.it.next();
    if (r.done) {
      this.ended = true;
      return false;
    }
    this.total += r.value.byteLength;
    if (this.total > this.max) throw refuse(`the archive unpacks to more than ${mib(this.max)}: refused as a possible bomb`);
    this.buf = this.buf.length ? Buffer.concat([this.buf, r.value]) : Buffer.from(r.value.buffer, r.value.byteOffset, r.value.byteLength);
    return true;
  }

  /** Exactly `n` bytes; undefined at a clean end (no byte left); a partial block is truncation. */
  async read(n: number): Promise<Buffer | undefined> {
    while (this.buf.length < n) if (!(await this.pull())) break;
    if (this.buf.length === 0) return undefined;
    if (this.buf.length < n) throw refuse('the archive is truncated');
    const out = this.buf.subarray(0, n);
    this.buf = this.buf.subarray(n);
    return out;
  }

  /** `n` bytes in pieces as they arrive, without gathering them. */
  async *take(n: number): AsyncGenerator<Buffer> {
    let left = n;
    while (left > 0) {
      if (this.buf.length === 0 && !(await this.pull())) throw refuse('the archive is truncated');
      const piece = this.buf.subarray(0, Math.min(left, this.buf.length));
      this.buf = this.buf.subarray(piece.length);
      left -= piece.length;
      yield piece;
    }
  }

  async skip(n: number): Promise<void> {
    for await (const piece of this.take(n)) void piece;
  }

  /** Reads what follows the end marker (padding), still counted. */
  async drain(): Promise<void> {
    this.buf = Buffer.alloc(0);
    while (await this.pull()) this.buf = Buffer.alloc(0);
  }
}

const BLOCK = 512;
/** Pax and GNU long-name records are small; a large one is an attack on memory. */
const MAX_META = 1024 * 1024;

function text(b: Buffer, start: number, len: number): string {
  const field = b.subarray(start, start + len);
  const nul = field.indexOf(0);
  return field.subarray(0, nul === -1 ? field.length : nul).toString('utf8');
}

/** A numeric field: octal text, or base-256 when the first byte's high bit is set (GNU, star). */
function number(b: Buffer, start: number, len: number): number {
  const field = b.subarray(start, start + len);
  if (field[0]! & 0x80) {
    if (field[0] === 0xff) throw refuse('a negative size in the archive');
    let n = field[0]! & 0x7f;
    for (let i = 1; i < field.length; i++) {
      n = n * 256 + field[i]!;
      if (n > Number.MAX_SAFE_INTEGER) throw refuse('a size too large in the archive');
    }
    return n;
  }
  const s = text(b, start, len).trim();
  if (s === '') return 0;
  if (!/^[0-7]+$/.test(s)) throw refuse('a damaged tar header');
  return parseInt(s, 8);
}

function checksumOk(h: Buffer): boolean {
  const stored = number(h, 148, 8);
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : h[i]!;
  return sum === stored;
}

/** `len key=value\n` records (POSIX pax). Only `path`, `linkpath` and `size` matter here. */
function paxRecords(data: Buffer): Record<string, string> {
  const out: Record<string, string> = {};
  let at = 0;
  while (at < data.length) {
    const space = data.indexOf(0x20, at);
    if (space === -1) break;
    const len = Number(data.subarray(at, space).toString('ascii'));
    if (!Number.isSafeInteger(len) || len <= space - at || at + len > data.length) throw refuse('a damaged pax header in the archive');
    const record = data.subarray(space + 1, at + len - 1).toString('utf8');
    const eq = record.indexOf('=');
    if (eq > 0) out[record.slice(0, eq)] = record.slice(eq + 1);
    at += len;
  }
  return out;
}

/**
 * Unpacks a tar stream (ustar, GNU long names, pax) into `target`, which checks each name
 * before anything is written. Regular files, folders, symbolic and hard links are unpacked;
 * device files, FIFOs and entry types it does not know refuse the whole archive.
 */
export async function extractTar(stream: AsyncIterable<Uint8Array>, target: ExtractTarget): Promise<void> {
  const r = new ByteReader(stream[Symbol.asyncIterator](), target.limits.maxBytes);
  let pending: { path?: string; linkpath?: string; size?: number } = {};
  for (;;) {
    const h = await r.read(BLOCK);
    if (!h) break;
    if (h.every((byte) => byte === 0)) break;
    if (!checksumOk(h)) throw refuse('not a tar archive, or a damaged one (bad header checksum)');
    const type = String.fromCharCode(h[156]!);
    const ustar = text(h, 257, 6) === 'ustar';
    const prefix = ustar ? text(h, 345, 155) : '';
    const name = pending.path ?? (prefix ? `${prefix}/${text(h, 0, 100)}` : text(h, 0, 100));
    const linkname = pending.linkpath ?? text(h, 157, 100);
    const size = pending.size ?? number(h, 124, 12);
    const mode = number(h, 100, 8);
    pending = {};
    const padding = (BLOCK - (size % BLOCK)) % BLOCK;
    const meta = async (): Promise<Buffer> => {
      if (size > MAX_META) throw refuse('an oversized metadata entry in the archive');
      const data = size ? ((await r.read(size)) ?? Buffer.alloc(0)) : Buffer.alloc(0);
      await r.skip(padding);
      return data;
    };
    switch (type) {
      case '0':
      case '\0':
      case '7': {
        // Pre-POSIX tars mark a folder by a trailing slash on a plain entry.
        if (type !== '7' && name.endsWith('/') && size === 0) {
          await target.directory(name);
          break;
        }
        const out = await target.file(name, size, mode);
        try {
          for await (const piece of r.take(size)) await out.write(piece);
        } catch (err) {
          await out.abort();
          throw err;
        }
        await out.close();
        await r.skip(padding);
        break;
      }
      case '5':
        await target.directory(name);
        await r.skip(size + padding);
        break;
      case '2':
        target.symlink(name, linkname);
        await r.skip(size + padding);
        break;
      case '1':
        await target.hardlink(name, linkname);
        await r.skip(size + padding);
        break;
      case 'x': {
        const rec = paxRecords(await meta());
        const paxSize = rec.size === undefined ? undefined : Number(rec.size);
        if (paxSize !== undefined && (!Number.isSafeInteger(paxSize) || paxSize < 0)) throw refuse('a damaged pax size in the archive');
        pending = { ...(rec.path !== undefined ? { path: rec.path } : {}), ...(rec.linkpath !== undefined ? { linkpath: rec.linkpath } : {}), ...(paxSize !== undefined ? { size: paxSize } : {}) };
        break;
      }
      case 'g':
        await meta();
        break;
      case 'L':
        pending = { ...pending, path: text(await meta(), 0, size) };
        break;
      case 'K':
        pending = { ...pending, linkpath: text(await meta(), 0, size) };
        break;
      case '3':
      case '4':
      case '6':
        throw refuse(`the archive holds a device file or FIFO (${name}): refused`);
      default:
        throw refuse(`the archive holds an entry of a kind Switchboard does not unpack (type ${JSON.stringify(type)}, ${name})`);
    }
  }
  await r.drain();
}
