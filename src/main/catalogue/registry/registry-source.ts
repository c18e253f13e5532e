import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { AppError } from '../../../shared/errors';
import { parseRegistryIndex, type RegistryIndexT, type RegistrySnapshotT, type RegistrySourceT, type SkippedEntryT } from '../../../shared/registry';
import { writeFileAtomicSync } from '../../util/atomic-file';
import type { Clock } from '../../util/clock';
import type { Logger } from '../../util/log';
import { httpGetBuffer } from './http-get';

/** An index ready to list, and where it came from. */
export interface RegistryLoad {
  source: RegistrySourceT;
  index: RegistryIndexT;
  skipped: SkippedEntryT[];
  /** When it was fetched (network, cache) or the snapshot's commit date, ISO 8601. */
  asOf: string;
  /** Why the network was not used, when it was not. */
  error?: string;
}

export interface RegistrySourceOptions {
  /** The index address (a setting; `DEFAULT_REGISTRY_URL`), read at each fetch. Empty: never fetched. */
  url: string | (() => string);
  /** `<data dir>/registry-cache.json`. */
  cacheFile: string;
  snapshot: RegistrySnapshotT;
  clock: Clock;
  log: Logger;
  /** No byte for this long gives up (default 10 s). */
  idleTimeoutMs?: number;
  /** The whole fetch (default 30 s). */
  totalTimeoutMs?: number;
  /** The published index is ~15 KB; past this (default 4 MiB) it is refused. */
  maxBytes?: number;
}

/** What the cache file holds: the index as fetched (validated again when read), for one address. */
const CacheFile = z.object({
  url: z.string(),
  fetchedAt: z.number(),
  etag: z.string().optional(),
  index: z.unknown(),
});

/**
 * The registry index: fetched from its public address with timeouts and a size cap, validated,
 * and cached in the data folder; when the fetch fails (offline, a timeout, an HTTP error, an
 * invalid or oversized index) the cached copy is used, then the bundled snapshot. The cache is
 * revalidated with its ETag, and is not used when the bundled snapshot is newer (an upgrade
 * bundles a later registry than an old cache). Nothing here throws to the caller: every load
 * says which source it used and why the network was not.
 */
export class RegistryIndexSource {
  private last: RegistryLoad | undefined;

  constructor(private readonly o: RegistrySourceOptions) {}

  /** The last load, if any ran. */
  current(): RegistryLoad | undefined {
    return this.last;
  }

  /** The best index without the network: the cache (when newer than the snapshot), else the snapshot. */
  async local(error?: string): Promise<RegistryLoad> {
    const cached = await this.readCache();
    const snapshotAt = Date.parse(this.o.snapshot.origin.date);
    const load: RegistryLoad =
      cached && !(snapshotAt > cached.fetchedAt)
        ? { source: 'cache', index: cached.index, skipped: cached.skipped, asOf: new Date(cached.fetchedAt).toISOString() }
        : { source: 'snapshot', index: this.o.snapshot.index, skipped: [], asOf: this.o.snapshot.origin.date };
    this.last = error ? { ...load, error } : load;
    return this.last;
  }

  /** Fetches the index; falls back to `local()` with the reason. Never throws. */
  async refresh(): Promise<RegistryLoad> {
    const url = this.url();
    if (!url) return this.local('the registry address is not set');
    const log = this.o.log.child('registry');
    try {
      const cached = await this.readCache();
      const got = await httpGetBuffer(url, {
        clock: this.o.clock,
        idleTimeoutMs: this.o.idleTimeoutMs ?? 10_000,
        totalTimeoutMs: this.o.totalTimeoutMs ?? 30_000,
        maxBytes: this.o.maxBytes ?? 4 * 1024 * 1024,
        headers: { accept: 'application/json', ...(cached?.etag ? { 'if-none-match': cached.etag } : {}) },
      });
      const now = this.o.clock.now();
      if (got.status === 304 && cached) {
        this.writeCache({ url: url, fetchedAt: now, ...(cached.etag ? { etag: cached.etag } : {}), index: cached.raw });
        this.last = { source: 'network', index: cached.index, skipped: cached.skipped, asOf: new Date(now).toISOString() };
        return this.last;
      }
      let raw: unknown;
      try {
        raw = JSON.parse(got.body.toString('utf8'));
      } catch {
        throw new AppError('download_refused', `the registry index at ${url} is not JSON`);
      }
      const parsed = parseRegistryIndex(raw);
      if (!parsed.ok) throw new AppError('download_refused', `the registry index at ${url} is invalid: ${parsed.error}`);
      if (parsed.skipped.length) log.warn('registry entries skipped', { skipped: parsed.skipped });
      const etag = got.headers.get('etag') ?? undefined;
      this.writeCache({ url: url, fetchedAt: now, ...(etag ? { etag } : {}), index: raw });
      this.last = { source: 'network', index: parsed.index, skipped: parsed.skipped, asOf: new Date(now).toISOString() };
      log.info('registry index fetched', { url: url, agents: parsed.index.agents.length, bytes: got.bytes });
      return this.last;
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      log.info('registry index not fetched; using the local copy', { url: url, error: message });
      return this.local(message);
    }
  }

  private async readCache(): Promise<{ index: RegistryIndexT; skipped: SkippedEntryT[]; fetchedAt: number; etag?: string; raw: unknown } | undefined> {
    let text: string;
    try {
      text = await readFile(this.o.cacheFile, 'utf8');
    } catch {
      return undefined; // Never fetched.
    }
    try {
      const file = CacheFile.parse(JSON.parse(text));
      if (file.url !== this.url()) return undefined;
      const parsed = parseRegistryIndex(file.index);
      if (!parsed.ok) throw new Error(parsed.error);
      return { index: parsed.index, skipped: parsed.skipped, fetchedAt: file.fetchedAt, ...(file.etag ? { etag: file.etag } : {}), raw: file.index };
    } catch (err) {
      this.o.log.warn('registry cache unreadable; ignored', { file: this.o.cacheFile, error: (err as Error).message });
      return undefined;
    }
  }

  private url(): string {
    return typeof this.o.url === 'function' ? this.o.url() : this.o.url;
  }

  private writeCache(file: z.input<typeof CacheFile>): void {
    try {
      writeFileAtomicSync(this.o.cacheFile, JSON.stringify(file));
    } catch (err) {
      // The fetched index is still used this time; only the next offline start loses it.
      this.o.log.warn('registry cache not written', { file: this.o.cacheFile, error: (err as Error).message });
    }
  }
}

