import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const renderer = join(import.meta.dirname, '..', 'src', 'renderer');
const publicDir = join(renderer, 'public');

interface ManifestIcon {
  src: string;
  sizes: string;
  type: string;
  purpose?: string;
}

const manifest = JSON.parse(readFileSync(join(publicDir, 'manifest.webmanifest'), 'utf8')) as {
  name: string;
  short_name: string;
  start_url: string;
  scope: string;
  display: string;
  icons: ManifestIcon[];
};

/** Width and height from a PNG's IHDR. */
function pngSize(file: string): [number, number] {
  const buf = readFileSync(file);
  expect(buf.subarray(1, 4).toString('ascii')).toBe('PNG');
  return [buf.readUInt32BE(16), buf.readUInt32BE(20)];
}

describe('the web app manifest of the served app', () => {
  it('makes the app installable: a name, a standalone display, start and scope at the root', () => {
    expect(manifest.name).toBe('Switchboard');
    expect(manifest.short_name.length).toBeLessThanOrEqual(12);
    expect(manifest.display).toBe('standalone');
    expect(manifest.start_url).toBe('/');
    expect(manifest.scope).toBe('/');
  });

  it('never carries the token: the start address is the bare root', () => {
    expect(JSON.stringify(manifest)).not.toMatch(/token/i);
  });

  it('has 192 and 512 px PNG icons and a maskable one, each file there with the size it claims', () => {
    const pngs = manifest.icons.filter((i) => i.type === 'image/png');
    expect(pngs.map((i) => i.sizes)).toEqual(expect.arrayContaining(['192x192', '512x512']));
    expect(manifest.icons.some((i) => i.purpose === 'maskable')).toBe(true);
    for (const icon of manifest.icons) {
      const file = join(publicDir, icon.src);
      expect(existsSync(file), icon.src).toBe(true);
      if (icon.type !== 'image/png') continue;
      const [w, h] = pngSize(file);
      expect(`${w}x${h}`, icon.src).toBe(icon.sizes);
    }
  });

  it('is linked from the page, and the CSP lets the page load it and its worker from its own origin only', () => {
    const html = readFileSync(join(renderer, 'index.html'), 'utf8');
    expect(html).toMatch(/<link rel="manifest" href="\/manifest\.webmanifest" crossorigin="use-credentials" \/>/);
    expect(html).toContain("manifest-src 'self'");
    expect(html).toContain("worker-src 'self'");
    expect(html).toContain('interactive-widget=resizes-content');
  });
});
