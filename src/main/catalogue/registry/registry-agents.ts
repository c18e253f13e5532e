import { existsSync } from 'node:fs';
import { AppError } from '../../../shared/errors';
import {
  RegistryManifest,
  type DistributionKindT,
  type RegistryAgentInfoT,
  type RegistryEntryViewT,
  type RegistryIndexT,
  type RegistryInstallProgressT,
  type RegistryListingT,
  type RegistryManifestT,
  type RegistryPlatformT,
  type RegistryUpdateT,
  type SnapshotOriginT,
} from '../../../shared/registry';
import type { AgentDefinition } from '../../brokers/agent-definition';
import type { AgentsRepo } from '../../store/agents.repo';
import type { RegistryAgentRecord, RegistryRepo, RegistryVersionRecord } from '../../store/registry.repo';
import type { Clock } from '../../util/clock';
import type { Logger } from '../../util/log';
import type { BinaryInstaller } from './binary-installer';
import { binaryLaunch, npxLaunch, uvxLaunch, type Launch } from './launch';
import { registryOptions, type Tools } from './needs';
import type { RegistryLoad } from './registry-source';
import { isNewer } from './versions';

export interface RegistryAgentsOptions {
  registry: RegistryRepo;
  agents: AgentsRepo;
  installer: BinaryInstaller;
  /** `<data dir>/agents`, for the folders the listing shows. */
  agentsRoot: string;
  /** This machine as the registry names it; undefined where it publishes no builds. */
  platform: RegistryPlatformT | undefined;
  /** npx / uvx / uv on PATH, looked up afresh for each add and listing. */
  tools(): Promise<Tools>;
  /** Ids that are taken besides stored agents (built-in agents). */
  isReserved?(id: string): boolean;
  clock: Clock;
  log: Logger;
  /** A catalogue agent changed (added, updated, rolled back, pinned): the catalogue announces it. */
  onDidChange(agentId: string): void;
}

export interface AddRequest {
  manifest: RegistryManifestT;
  /** The catalogue id; the registry id (suffixed when taken) by default. */
  agentId?: string;
  kind?: DistributionKindT;
  onProgress?(p: RegistryInstallProgressT): void;
  signal?: AbortSignal;
}

export interface RegistryAgentResult {
  definition: AgentDefinition;
  info: RegistryAgentInfoT;
}

/** `id`, else `id-2`, `id-3`…: the first not taken. */
export function suggestAgentId(registryId: string, taken: (id: string) => boolean): string {
  if (!taken(registryId)) return registryId;
  for (let n = 2; ; n++) if (!taken(`${registryId}-${n}`)) return `${registryId}-${n}`;
}

/**
 * Catalogue agents added from the registry, as data operations over the kept versions
 * (migration 0012). Add writes the agent's pinned launch (npx / uvx) or downloads its binary
 * first; Update installs the entry's newer version and keeps the one it replaces; Roll back
 * returns to that kept version (no network: its launch and folder are kept) and pins the
 * agent, so the broken version is not offered back as an update until the person unpins.
 * The agent's `agents` row always holds the launch of the version it runs; environment the
 * person added stays across versions, the entry's own variables follow the version.
 */
export class RegistryAgents {
  constructor(private readonly o: RegistryAgentsOptions) {}

  async add(req: AddRequest): Promise<RegistryAgentResult> {
    const m = req.manifest;
    const tools = await this.o.tools();
    const offered = registryOptions(m, tools, this.o.platform, this.o.agentsRoot);
    const kind = req.kind ?? offered.preferred;
    if (!kind || !offered.options.some((o) => o.kind === kind)) {
      throw new AppError('unsupported', offered.unavailable ?? `${m.name} is not offered as ${kind ?? 'anything this machine can run'}`);
    }
    const taken = (id: string) => this.o.agents.get(id) !== undefined || (this.o.isReserved?.(id) ?? false);
    const agentId = req.agentId ?? suggestAgentId(m.id, taken);
    if (taken(agentId)) throw new AppError('already_exists', `An agent named ${agentId} exists already`);
    const version = await this.prepare(m, kind, tools, req);
    const now = this.o.clock.now();
    this.o.registry.transaction(() => {
      // Checked again: the download took time, and the id may have been taken meanwhile.
      if (taken(agentId)) throw new AppError('already_exists', `An agent named ${agentId} exists already`);
      this.o.agents.upsert({ id: agentId, name: m.name, command: version.command, args: version.args, env: version.env, secretNames: [], source: 'user' }, now);
      this.o.registry.put({ agentId, registryId: m.id, kind, version: m.version, pinned: false }, now);
      this.o.registry.putVersion({ ...version, agentId, installedAt: now });
    });
    this.o.log.info('registry agent added', { agent: agentId, registryId: m.id, version: m.version, kind });
    this.o.onDidChange(agentId);
    return this.result(agentId);
  }

  /**
   * Moves an agent to `latest` (the entry's current manifest). Refused while pinned, when it
   * is not newer, or when the entry no longer offers the agent's kind. The replaced version is
   * kept for Roll back; the one before it is dropped (and its folder deleted).
   */
  async update(agentId: string, latest: RegistryManifestT, opts: Pick<AddRequest, 'onProgress' | 'signal'> = {}): Promise<RegistryAgentResult> {
    const rec = this.record(agentId);
    if (rec.pinned) throw new AppError('invalid_state', `${agentId} is pinned at ${rec.version}; unpin it to update`);
    if (latest.id !== rec.registryId) throw new AppError('invalid_request', `${agentId} comes from ${rec.registryId}, not ${latest.id}`);
    if (!isNewer(latest.version, rec.version)) throw new AppError('invalid_state', `${agentId} already runs ${rec.version} (the registry has ${latest.version})`);
    const version = await this.prepare(latest, rec.kind, await this.o.tools(), opts);
    const now = this.o.clock.now();
    const dropped = this.o.registry.transaction(() => {
      const current = this.record(agentId);
      if (current.pinned || current.version !== rec.version) throw new AppError('invalid_state', `${agentId} changed while the update downloaded; try again`);
      this.writeLaunch(agentId, this.o.registry.version(agentId, current.version), version);
      this.o.registry.putVersion({ ...version, agentId, installedAt: now });
      this.o.registry.put({ ...current, version: latest.version, previousVersion: current.version }, now);
      return this.keepOnly(agentId, [latest.version, current.version]);
    });
    await this.removeFolders(dropped);
    this.o.log.info('registry agent updated', { agent: agentId, from: rec.version, to: latest.version });
    this.o.onDidChange(agentId);
    return this.result(agentId);
  }

  /**
   * Returns to the kept previous version and pins there. The two kept versions swap, so a
   * roll back made by mistake is undone by another (after unpinning nothing is lost either).
   */
  rollBack(agentId: string): RegistryAgentResult {
    const rec = this.record(agentId);
    if (!rec.previousVersion) throw new AppError('invalid_state', `${agentId} has no earlier version to roll back to`);
    const previous = this.o.registry.version(agentId, rec.previousVersion);
    if (!previous) throw new AppError('invalid_state', `${agentId}'s version ${rec.previousVersion} is no longer kept`);
    if (previous.installDir && !existsSync(previous.command)) {
      throw new AppError('invalid_state', `${agentId}'s version ${rec.previousVersion} is gone from ${previous.installDir}; update or add it again`);
    }
    const now = this.o.clock.now();
    this.o.registry.transaction(() => {
      this.writeLaunch(agentId, this.o.registry.version(agentId, rec.version), previous);
      this.o.registry.put({ ...rec, version: previous.version, previousVersion: rec.version, pinned: true }, now);
    });
    this.o.log.info('registry agent rolled back', { agent: agentId, from: rec.version, to: previous.version });
    this.o.onDidChange(agentId);
    return this.result(agentId);
  }

  pin(agentId: string, pinned: boolean): RegistryAgentInfoT {
    this.record(agentId);
    this.o.registry.setPinned(agentId, pinned, this.o.clock.now());
    this.o.log.info(pinned ? 'registry agent pinned' : 'registry agent unpinned', { agent: agentId });
    this.o.onDidChange(agentId);
    return this.info(agentId)!;
  }

  /** The registry facts of a catalogue agent, with the newer version `index` has, if any. */
  info(agentId: string, index?: RegistryIndexT): RegistryAgentInfoT | undefined {
    const rec = this.o.registry.get(agentId);
    if (!rec) return undefined;
    const v = this.o.registry.version(agentId, rec.version);
    const latest = index?.agents.find((a) => a.id === rec.registryId)?.version;
    return {
      registryId: rec.registryId,
      kind: rec.kind,
      version: rec.version,
      pinned: rec.pinned,
      ...(rec.previousVersion ? { previousVersion: rec.previousVersion } : {}),
      ...(latest && isNewer(latest, rec.version) ? { latestVersion: latest } : {}),
      ...(v?.installDir ? { installDir: v.installDir } : {}),
      ...(v?.sha256 ? { sha256: v.sha256 } : {}),
    };
  }

  /** Agents whose entry in `index` is newer than what they run (pinned ones too, marked). */
  updates(index: RegistryIndexT): RegistryUpdateT[] {
    const out: RegistryUpdateT[] = [];
    for (const rec of this.o.registry.list()) {
      const entry = index.agents.find((a) => a.id === rec.registryId);
      if (entry && isNewer(entry.version, rec.version)) out.push({ agentId: rec.agentId, registryId: rec.registryId, current: rec.version, latest: entry.version, pinned: rec.pinned });
    }
    return out;
  }

  /** What `Add from registry` lists: each entry with what it needs here and who was added from it. */
  async listing(load: RegistryLoad, snapshot: SnapshotOriginT): Promise<RegistryListingT> {
    const tools = await this.o.tools();
    const records = this.o.registry.list();
    const entries: RegistryEntryViewT[] = load.index.agents.map((m) => ({
      manifest: m,
      ...registryOptions(m, tools, this.o.platform, this.o.agentsRoot),
      addedAs: records.filter((r) => r.registryId === m.id).map((r) => r.agentId),
    }));
    return {
      source: load.source,
      asOf: load.asOf,
      snapshot,
      ...(load.error ? { error: load.error } : {}),
      entries,
      skipped: load.skipped,
      updates: this.updates(load.index),
    };
  }

  /** The manifest a kept version was installed from. */
  manifestOf(agentId: string, version: string): RegistryManifestT | undefined {
    const v = this.o.registry.version(agentId, version);
    return v ? RegistryManifest.safeParse(v.manifest).data : undefined;
  }

  /**
   * Deletes binary folders no kept version uses: after an agent left the catalogue (its rows
   * went with it) and at start, with interrupted installs. Run when no install is in flight.
   */
  prune(): Promise<string[]> {
    return this.o.installer.sweep(this.o.registry.installDirs());
  }

  /** The launch of `m` as `kind` here, downloading it first for a binary. */
  private async prepare(
    m: RegistryManifestT,
    kind: DistributionKindT,
    tools: Tools,
    req: Pick<AddRequest, 'onProgress' | 'signal'>,
  ): Promise<Omit<RegistryVersionRecord, 'agentId' | 'installedAt'>> {
    const base = { version: m.version, manifest: m };
    if (kind === 'npx' || kind === 'uvx') {
      const launch = kind === 'npx' ? npxLaunch(m) : uvxLaunch(m, tools.uvx || !tools.uv ? 'uvx' : 'uv');
      if (!launch) throw new AppError('invalid_state', `${m.name} ${m.version} is no longer offered through ${kind}; add it again another way`);
      return { ...base, ...launch };
    }
    const platform = this.o.platform;
    if (!platform || !m.distribution.binary?.[platform]) throw new AppError('unsupported', `${m.name} ${m.version} has no download for ${platform ?? 'this platform'}`);
    const knownSha256 = this.firstSha256(m.id, m.version, platform);
    const installed = await this.o.installer.install({
      manifest: m,
      platform,
      ...(knownSha256 ? { knownSha256 } : {}),
      ...(req.onProgress ? { onProgress: req.onProgress } : {}),
      ...(req.signal ? { signal: req.signal } : {}),
    });
    const launch: Launch = binaryLaunch(m, platform, installed.executable)!;
    return { ...base, ...launch, platform, installDir: installed.dir, sha256: installed.sha256 };
  }

  private firstSha256(registryId: string, version: string, platform: string): string | undefined {
    return this.o.registry.firstSha256(registryId, version, platform);
  }

  /** Rewrites the agent's row to `to`'s launch, keeping what the person added to its environment. */
  private writeLaunch(agentId: string, from: RegistryVersionRecord | undefined, to: Pick<RegistryVersionRecord, 'command' | 'args' | 'env'>): void {
    const row = this.o.agents.get(agentId);
    if (!row) throw new AppError('not_found', `No agent named ${agentId}`);
    const own = Object.fromEntries(Object.entries(row.env).filter(([k]) => !(from && Object.hasOwn(from.env, k))));
    this.o.agents.upsert({ ...row, command: to.command, args: to.args, env: { ...own, ...to.env } }, this.o.clock.now());
  }

  /** Drops kept versions but `keep`; returns the folders no remaining version uses. */
  private keepOnly(agentId: string, keep: readonly string[]): string[] {
    const dropped = this.o.registry.versions(agentId).filter((v) => !keep.includes(v.version) && v.installDir);
    this.o.registry.keepOnly(agentId, keep);
    const used = this.o.registry.installDirs();
    return dropped.map((v) => v.installDir!).filter((d) => !used.has(d));
  }

  private async removeFolders(dirs: readonly string[]): Promise<void> {
    for (const dir of dirs) {
      try {
        await this.o.installer.remove(dir);
      } catch (err) {
        // The version is already dropped from the rows; `prune()` at the next start retries.
        this.o.log.warn('old registry version folder not removed', { dir, error: (err as Error).message });
      }
    }
  }

  private record(agentId: string): RegistryAgentRecord {
    const rec = this.o.registry.get(agentId);
    if (!rec) throw new AppError('not_found', `${agentId} was not added from the registry`);
    return rec;
  }

  private result(agentId: string): RegistryAgentResult {
    const row = this.o.agents.get(agentId)!;
    return { definition: { id: row.id, name: row.name, command: row.command, args: row.args, env: row.env }, info: this.info(agentId)! };
  }
}
