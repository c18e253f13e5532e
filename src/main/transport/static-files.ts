import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.map': 'application/json; charset=utf-8',
};

/**
 * What the browser itself fetches to install the served app (the manifest with its icons, the
 * service worker): served without the token, because the browser may fetch them without the
 * page's cookie. None of them holds anything of the person's: the same files ship in every copy.
 */
export function isPublicFile(urlPath: string): boolean {
  return urlPath === '/manifest.webmanifest' || urlPath === '/sw.js' || /^\/icons\/[\w.-]+\.(?:png|svg)$/.test(urlPath);
}

/** How long a browser may keep a file: the page and the worker are checked every time (a new build), hashed files forever. */
export function cacheControlFor(urlPath: string, isPage: boolean): string {
  if (isPage) return 'no-store';
  if (urlPath === '/sw.js' || urlPath === '/manifest.webmanifest') return 'no-cache';
  if (urlPath.startsWith('/icons/')) return 'public, max-age=86400';
  return 'private, max-age=31536000, immutable';
}

/** Reads a file of the built renderer; never anything outside `root`. */
export async function readStatic(root: string, urlPath: string): Promise<{ body: Buffer; type: string } | undefined> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return undefined;
  }
  const rel = normalize(decoded === '/' ? '/index.html' : decoded).replace(/^([/\\])+/, '');
  const base = resolve(root);
  const file = resolve(join(base, rel));
  if (file !== base && !file.startsWith(base + sep)) return undefined;
  try {
    if (!(await stat(file)).isFile()) return undefined;
    return { body: await readFile(file), type: TYPES[extname(file)] ?? 'application/octet-stream' };
  } catch {
    return undefined;
  }
}
