import { opendir, realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Clock } from '../util/clock';
import { isInside } from '../util/inside-folder';

export interface FileSearchOptions {
  clock: Clock;
  /** Files listed per folder at most: the walk stops there (a home folder must not hang it). */
  maxFiles?: number;
  /** How long a folder's listing is reused: typing after `@` searches it once, not per key. */
  ttlMs?: number;
}

/** Folders never walked: version control and dependency trees hold nothing one mentions. */
const SKIPPED = new Set(['.git', 'node_modules', '.hg', '.svn']);
const MAX_FOLDERS_CACHED = 8;

interface Listing {
  at: number;
  paths: string[];
  truncated: boolean;
}

/**
 * `files:search`: the files of a session's folder whose relative path matches a query, for `@`
 * mentions. One bounded breadth-first walk per folder (cached briefly, shared by concurrent
 * searches), never leaving the folder: symlinks are listed only when their real path is a file
 * inside it, and never descended into.
 */
export class FileSearch {
  private readonly listings = new Map<string, Promise<Listing>>();
  private readonly maxFiles: number;
  private readonly ttlMs: number;

  constructor(private readonly o: FileSearchOptions) {
    this.maxFiles = o.maxFiles ?? 20_000;
    this.ttlMs = o.ttlMs ?? 10_000;
  }

  async search(folder: string, query: string, limit: number): Promise<{ paths: string[]; truncated: boolean }> {
    const listing = await this.listing(folder);
    return { paths: rank(listing.paths, query, limit), truncated: listing.truncated };
  }

  private async listing(folder: string): Promise<Listing> {
    const now = this.o.clock.now();
    const cached = this.listings.get(folder);
    if (cached) {
      const listing = await cached;
      if (now - listing.at < this.ttlMs) return listing;
    }
    const walking = walk(folder, this.maxFiles).then((r) => ({ ...r, at: now }));
    this.listings.delete(folder);
    this.listings.set(folder, walking);
    if (this.listings.size > MAX_FOLDERS_CACHED) this.listings.delete(this.listings.keys().next().value as string);
    // A failed walk (folder gone) is not kept: the next search tries again.
    walking.catch(() => this.listings.get(folder) === walking && this.listings.delete(folder));
    return walking;
  }
}

async function walk(folder: string, maxFiles: number): Promise<{ paths: string[]; truncated: boolean }> {
  const root = await realpath(folder);
  const paths: string[] = [];
  const queue: string[] = [''];
  while (queue.length > 0) {
    const rel = queue.shift() as string;
    let dir;
    try {
      dir = await opendir(join(root, rel));
    } catch {
      continue; // unreadable folder: skip it, list the rest
    }
    const subdirs: string[] = [];
    for await (const entry of dir) {
      const child = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!SKIPPED.has(entry.name)) subdirs.push(child);
      } else if (entry.isFile() || (entry.isSymbolicLink() && (await linkedFileInside(root, child)))) {
        paths.push(child);
        if (paths.length >= maxFiles) return { paths, truncated: true };
      }
    }
    queue.push(...subdirs.sort());
  }
  return { paths, truncated: false };
}

async function linkedFileInside(root: string, rel: string): Promise<boolean> {
  try {
    const real = await realpath(join(root, rel));
    return isInside(root, real) && (await stat(real)).isFile();
  } catch {
    return false;
  }
}

/**
 * Best first: the file name starts with the query, then contains it, then the path contains it,
 * then the query's characters appear in order in the path; shorter paths first within each.
 */
export function rank(paths: readonly string[], query: string, limit: number): string[] {
  const q = query.toLowerCase();
  const scored: { path: string; score: number }[] = [];
  for (const path of paths) {
    const score = scoreOf(path.toLowerCase(), q);
    if (score !== undefined) scored.push({ path, score });
  }
  scored.sort((a, b) => a.score - b.score || a.path.length - b.path.length || (a.path < b.path ? -1 : 1));
  return scored.slice(0, limit).map((s) => s.path);
}

function scoreOf(path: string, q: string): number | undefined {
  if (q === '') return 0;
  const name = path.slice(path.lastIndexOf('/') + 1);
  if (name.startsWith(q)) return 0;
  if (name.includes(q)) return 1;
  if (path.includes(q)) return 2;
  let at = 0;
  for (const ch of path) if (ch === q[at]) at++;
  return at === q.length ? 3 : undefined;
}
