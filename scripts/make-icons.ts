/**
 * Draws Switchboard's app icons (src/renderer/public/icons): three switches on a blue tile, as an
 * SVG and as PNGs for the web app manifest. The PNGs are rasterised here from the same shapes
 * (no image library: coverage is sampled per pixel and written with zlib), so running
 * `node --import tsx scripts/make-icons.ts` again gives the same files.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';

const OUT = join(import.meta.dirname, '..', 'src', 'renderer', 'public', 'icons');
const TILE = [0x3b, 0x5b, 0xdb] as const;
const WHITE = [0xff, 0xff, 0xff] as const;
const TRACK = [0x8f, 0xa3, 0xf0] as const;

interface Shape {
  /** Inside test in a 0..1 square. */
  inside(x: number, y: number): boolean;
  colour: readonly [number, number, number];
}

const roundRect = (x0: number, y0: number, x1: number, y1: number, r: number) => (x: number, y: number) => {
  if (x < x0 || x > x1 || y < y0 || y > y1) return false;
  const cx = Math.min(Math.max(x, x0 + r), x1 - r);
  const cy = Math.min(Math.max(y, y0 + r), y1 - r);
  return (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
};
const circle = (cx: number, cy: number, r: number) => (x: number, y: number) => (x - cx) ** 2 + (y - cy) ** 2 <= r * r;

/** The design in a unit square; `safe` shrinks it into the maskable safe zone (80%). */
function shapes(safe: boolean, rounded: boolean): Shape[] {
  const s = safe ? 0.72 : 1;
  const o = (1 - s) / 2;
  const m = (v: number) => o + v * s;
  const rows = [0.3, 0.5, 0.7];
  const knobs = [0.66, 0.34, 0.58];
  const out: Shape[] = [{ inside: rounded ? roundRect(0, 0, 1, 1, 0.2) : () => true, colour: TILE }];
  rows.forEach((row, i) => {
    out.push({ inside: roundRect(m(0.2), m(row - 0.045), m(0.8), m(row + 0.045), 0.045 * s), colour: TRACK });
    out.push({ inside: circle(m(knobs[i]!), m(row), 0.085 * s), colour: WHITE });
  });
  return out;
}

function svg(): string {
  const rows = [0.3, 0.5, 0.7];
  const knobs = [0.66, 0.34, 0.58];
  const parts = rows
    .map(
      (row, i) =>
        `<rect x="20" y="${(row - 0.045) * 100}" width="60" height="9" rx="4.5" fill="#8fa3f0"/>` +
        `<circle cx="${knobs[i]! * 100}" cy="${row * 100}" r="8.5" fill="#fff"/>`,
    )
    .join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><rect width="100" height="100" rx="20" fill="#3b5bdb"/>${parts}</svg>\n`;
}

function crc32(buf: Buffer): number {
  let c = ~0;
  for (const b of buf) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
  }
  return ~c >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** An RGBA PNG of `size` pixels, 4×4 samples per pixel for smooth edges. */
function png(size: number, list: Shape[]): Buffer {
  const raw = Buffer.alloc(size * (size * 4 + 1));
  const n = 4;
  for (let y = 0; y < size; y++) {
    const row = y * (size * 4 + 1);
    raw[row] = 0;
    for (let x = 0; x < size; x++) {
      const acc = [0, 0, 0, 0];
      for (let sy = 0; sy < n; sy++)
        for (let sx = 0; sx < n; sx++) {
          const u = (x + (sx + 0.5) / n) / size;
          const v = (y + (sy + 0.5) / n) / size;
          let colour: readonly number[] | undefined;
          for (const shape of list) if (shape.inside(u, v)) colour = shape.colour;
          if (!colour) continue;
          acc[0]! += colour[0]!;
          acc[1]! += colour[1]!;
          acc[2]! += colour[2]!;
          acc[3]! += 255;
        }
      const covered = acc[3]! / 255;
      const at = row + 1 + x * 4;
      raw[at] = covered ? Math.round(acc[0]! / covered) : 0;
      raw[at + 1] = covered ? Math.round(acc[1]! / covered) : 0;
      raw[at + 2] = covered ? Math.round(acc[2]! / covered) : 0;
      raw[at + 3] = Math.round(acc[3]! / (n * n));
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // RGBA
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', deflateSync(raw, { level: 9 })), chunk('IEND', Buffer.alloc(0))]);
}

writeFileSync(join(OUT, 'icon.svg'), svg());
writeFileSync(join(OUT, 'icon-192.png'), png(192, shapes(false, true)));
writeFileSync(join(OUT, 'icon-512.png'), png(512, shapes(false, true)));
// Maskable: the whole square is the tile; the launcher cuts its own shape out of it.
writeFileSync(join(OUT, 'icon-maskable-512.png'), png(512, shapes(true, false)));
writeFileSync(join(OUT, 'apple-touch-icon.png'), png(180, shapes(false, false)));
