import { crc32, deflateRawSync } from 'node:zlib';

/**
 * Hand-made archives for tests, including ones no honest tool writes: names that climb out,
 * links that point away, headers that lie about sizes. (Honest archives come from the system
 * `tar` and `zip` in the tests themselves.)
 */
export interface TarEntry {
  name: string;
  /** '0' file (default), '5' folder, '2' symlink, '1' hard link, '3' character device, '6' FIFO. */
  type?: '0' | '5' | '2' | '1' | '3' | '6';
  data?: Buffer | string;
  linkname?: string;
  mode?: number;
  /** Writes a pax header carrying these (path, linkpath) before the entry. */
  pax?: Record<string, string>;
  /** The size the header claims, when it should differ from the data's. */
  declaredSize?: number;
}

function octal(n: number, len: number): string {
  return n.toString(8).padStart(len - 1, '0') + '\0';
}

function header(name: string, type: string, size: number, mode: number, linkname = ''): Buffer {
  const h = Buffer.alloc(512);
  h.write(name.slice(0, 100), 0, 'utf8');
  h.write(octal(mode, 8), 100, 'ascii');
  h.write(octal(0, 8), 108, 'ascii');
  h.write(octal(0, 8), 116, 'ascii');
  h.write(octal(size, 12), 124, 'ascii');
  h.write(octal(1_700_000_000, 12), 136, 'ascii');
  h.write('        ', 148, 'ascii');
  h.write(type, 156, 'ascii');
  h.write(linkname.slice(0, 100), 157, 'utf8');
  h.write('ustar\0', 257, 'ascii');
  h.write('00', 263, 'ascii');
  let sum = 0;
  for (const b of h) sum += b;
  h.write(octal(sum, 7) + ' ', 148, 'ascii');
  return h;
}

function pad(data: Buffer): Buffer {
  const rest = (512 - (data.length % 512)) % 512;
  return Buffer.concat([data, Buffer.alloc(rest)]);
}

function paxData(records: Record<string, string>): Buffer {
  let out = '';
  for (const [k, v] of Object.entries(records)) {
    const body = ` ${k}=${v}\n`;
    let len = body.length + 1;
    while (String(len).length + body.length !== len) len = String(len).length + body.length;
    out += `${len}${body}`;
  }
  return Buffer.from(out, 'utf8');
}

export function tar(entries: readonly TarEntry[]): Buffer {
  const parts: Buffer[] = [];
  for (const e of entries) {
    if (e.pax) {
      const data = paxData(e.pax);
      parts.push(header('PaxHeader', 'x', data.length, 0o644), pad(data));
    }
    const data = Buffer.from(e.data ?? '');
    const type = e.type ?? '0';
    parts.push(header(e.name, type, e.declaredSize ?? (type === '0' ? data.length : 0), e.mode ?? (type === '5' ? 0o755 : 0o644), e.linkname));
    if (type === '0') parts.push(pad(data));
  }
  parts.push(Buffer.alloc(1024));
  return Buffer.concat(parts);
}

export interface ZipEntrySpec {
  name: string;
  data?: Buffer | string;
  /** Unix mode with its type bits (0o100755 a program, 0o120777 a symlink, 0o020644 a device). */
  mode?: number;
  deflate?: boolean;
  /** The uncompressed size the headers claim, when it should lie. */
  declaredSize?: number;
  /** The CRC the headers claim, when it should be wrong. */
  declaredCrc?: number;
  encrypted?: boolean;
}

/** A zip written by Unix rules (version made by 3.20), stored or deflated. */
export function zip(entries: readonly ZipEntrySpec[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const data = Buffer.from(e.data ?? '');
    const body = e.deflate ? deflateRawSync(data) : data;
    const name = Buffer.from(e.name, 'utf8');
    const crc = e.declaredCrc ?? crc32(data);
    const size = e.declaredSize ?? data.length;
    const flags = 0x800 | (e.encrypted ? 1 : 0);
    const method = e.deflate ? 8 : 0;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(flags, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(crc >>> 0, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, body);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(flags, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(crc >>> 0, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(((e.mode ?? 0o100644) << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += 30 + name.length + body.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}
