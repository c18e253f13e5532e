import { join } from 'node:path';
import { AppError } from '../../../shared/errors';
import type { DistributionKindT, RegistryAgentInfoT, RegistryInstallProgressT, RegistryListingT, RegistrySnapshotT } from '../../../shared/registry';
import type { DetectionEnv } from '../agent-detection';
import type { AgentsRepo } from '../../store/agents.repo';
import type { RegistryRepo } from '../../store/registry.repo';
import type { Clock } from '../../util/clock';
import { toDisposable, type Disposable } from '../../util/lifecycle';
import type { Logger } from '../../util/log';
import { BinaryInstaller, type InstallerOptions } from './binary-installer';
import { findTools } from './needs';
import { registryPlatform } from './platform';
import { RegistryAgents, type RegistryAgentResult } from './registry-agents';
import { RegistryIndexSource, type RegistryLoad } from './registry-source';
import { bundledSnapshot } from './snapshot';

export interface AcpRegistryOptions {
  dataDir: string;
  /** The index address (the `registryUrl` setting, read at each fetch); empty never fetches. */
  url: string | (() => string);
  agents: AgentsRepo;
  registry: RegistryRepo;
  clock: Clock;
  log: Logger;
  /** Ids taken besides stored agents (built-in agents). */
  isReserved?(id: string): boolean;
  /** PATH and friends for finding npx / uvx / uv (default: this process's). */
  env?: DetectionEnv;
  platform?: NodeJS.Platform;
  arch?: string;
  snapshot?: RegistrySnapshotT;
  /** Download and unpack limits and timeouts (tests shrink them). */
  install?: Pick<InstallerOptions, 'maxDownloadBytes' | 'extractLimits' | 'idleTimeoutMs' | 'totalTimeoutMs'>;
}

/** What changed: a catalogue agent (added, updated, rolled back, pinned), or the listing (a refresh). */
export type RegistryChange = { kind: 'agent'; agentId: string } | { kind: 'listing' };

/**
 * The ACP registry for the host: the index (network, cache, bundled snapshot) and the agents
 * added from it, with the data folder's layout (`<data>/agents/<id>/<version>/`,
 * `<data>/registry-cache.json`). The next phase's contract handlers call these methods one to
 * one; `onDidChange` tells the catalogue to announce a changed agent and the windows to
 * refetch the listing. `dispose()` cancels downloads in flight (they leave nothing).
 */
export class AcpRegistry implements Disposable {
  readonly source: RegistryIndexSource;
  readonly agents: RegistryAgents;
  private readonly listeners = new Set<(change: RegistryChange) => void>();
  private readonly abort = new AbortController();
  private refreshing: Promise<RegistryLoad> | undefined;

  constructor(private readonly o: AcpRegistryOptions) {
    const agentsRoot = join(o.dataDir, 'agents');
    const snapshot = o.snapshot ?? bundledSnapshot();
    this.source = new RegistryIndexSource({ url: o.url, cacheFile: join(o.dataDir, 'registry-cache.json'), snapshot, clock: o.clock, log: o.log });
    const installer = new BinaryInstaller({ agentsRoot, clock: o.clock, log: o.log, ...(o.platform ? { platform: o.platform } : {}), ...o.install });
    this.agents = new RegistryAgents({
      registry: o.registry,
      agents: o.agents,
      installer,
      agentsRoot,
      platform: registryPlatform(o.platform ?? process.platform, o.arch ?? process.arch),
      tools: () => findTools(o.env ?? process.env, o.platform ?? process.platform),
      ...(o.isReserved ? { isReserved: o.isReserved } : {}),
      clock: o.clock,
      log: o.log,
      onDidChange: (agentId) => this.fire({ kind: 'agent', agentId }),
    });
  }

  onDidChange(listener: (change: RegistryChange) => void): Disposable {
    this.listeners.add(listener);
    return toDisposable(() => this.listeners.delete(listener));
  }

  /** At host start: removes what interrupted installs and removed agents left, loads the local index. */
  async start(): Promise<void> {
    await this.agents.prune();
    await this.source.local();
  }

  /**
   * Fetches the index (one fetch at a time; callers share it) and announces the listing. The
   * desktop app calls this in the background after start; it never throws.
   */
  refresh(): Promise<RegistryLoad> {
    this.refreshing ??= this.source.refresh().then((load) => {
      this.refreshing = undefined;
      this.fire({ kind: 'listing' });
      return load;
    });
    return this.refreshing;
  }

  /** `registry:list`: the index in use (refreshed first when asked) with what each entry needs here. */
  async list(refresh = false): Promise<RegistryListingT> {
    const load = refresh ? await this.refresh() : (this.source.current() ?? (await this.source.local()));
    return this.agents.listing(load, this.snapshotOrigin());
  }

  /** `registry:add`: the entry as the current index has it. */
  async add(req: { registryId: string; agentId?: string; kind?: DistributionKindT }, onProgress?: (p: RegistryInstallProgressT) => void): Promise<RegistryAgentResult> {
    const manifest = (await this.load()).index.agents.find((a) => a.id === req.registryId);
    if (!manifest) throw new AppError('not_found', `The registry has no agent ${req.registryId}`);
    return this.withLatest(
      await this.agents.add({ manifest, ...(req.agentId ? { agentId: req.agentId } : {}), ...(req.kind ? { kind: req.kind } : {}), ...(onProgress ? { onProgress } : {}), signal: this.abort.signal }),
    );
  }

  /** `registry:update`: to the version the current index lists. */
  async update(agentId: string, onProgress?: (p: RegistryInstallProgressT) => void): Promise<RegistryAgentResult> {
    const info = this.agents.info(agentId);
    if (!info) throw new AppError('not_found', `${agentId} was not added from the registry`);
    const latest = (await this.load()).index.agents.find((a) => a.id === info.registryId);
    if (!latest) throw new AppError('not_found', `The registry no longer lists ${info.registryId}`);
    return this.withLatest(await this.agents.update(agentId, latest, { ...(onProgress ? { onProgress } : {}), signal: this.abort.signal }));
  }

  pin(agentId: string, pinned: boolean): RegistryAgentInfoT {
    this.agents.pin(agentId, pinned);
    return this.requireInfo(agentId);
  }

  rollBack(agentId: string): RegistryAgentResult {
    return this.withLatest(this.agents.rollBack(agentId));
  }

  /** For an agent's Settings row: its registry facts with the newer version the index has. */
  info(agentId: string): RegistryAgentInfoT | undefined {
    return this.agents.info(agentId, this.source.current()?.index);
  }

  /** `registry:info`: as `info`, refused for an agent not added from the registry. */
  requireInfo(agentId: string): RegistryAgentInfoT {
    const info = this.info(agentId);
    if (!info) throw new AppError('not_found', `${agentId} was not added from the registry`);
    return info;
  }

  dispose(): void {
    this.abort.abort();
    this.listeners.clear();
  }

  /** The result with the newer version the index in use has (what the agent's row shows). */
  private withLatest(result: RegistryAgentResult): RegistryAgentResult {
    return { ...result, info: this.info(result.definition.id) ?? result.info };
  }

  private async load(): Promise<RegistryLoad> {
    return this.source.current() ?? this.source.local();
  }

  private snapshotOrigin() {
    return (this.o.snapshot ?? bundledSnapshot()).origin;
  }

  private fire(change: RegistryChange): void {
    for (const l of [...this.listeners]) {
      try {
        l(change);
      } catch (err) {
        this.o.log.error('registry listener failed', { error: (err as Error).message });
      }
    }
  }
}
