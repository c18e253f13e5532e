import type { Db } from './db';

export type RegistryKind = 'npx' | 'uvx' | 'binary';

/** A catalogue agent added from the registry (migration 0012). */
export interface RegistryAgentRecord {
  agentId: string;
  registryId: string;
  kind: RegistryKind;
  version: string;
  previousVersion?: string;
  pinned: boolean;
  updatedAt: number;
}

/** One kept version of such an agent: its launch, the entry as it was, and (binary) its folder. */
export interface RegistryVersionRecord {
  agentId: string;
  version: string;
  command: string;
  args: string[];
  env: Record<string, string>;
  /** The registry entry as installed (JSON), read back through the manifest schema. */
  manifest: unknown;
  platform?: string;
  installDir?: string;
  sha256?: string;
  installedAt: number;
}

interface AgentRow {
  agent_id: string;
  registry_id: string;
  kind: RegistryKind;
  version: string;
  previous_version: string | null;
  pinned: 0 | 1;
  updated_at: number;
}

interface VersionRow {
  agent_id: string;
  version: string;
  command: string;
  args: string;
  env: string;
  manifest: string;
  platform: string | null;
  install_dir: string | null;
  sha256: string | null;
  installed_at: number;
}

function agentOf(r: AgentRow): RegistryAgentRecord {
  return {
    agentId: r.agent_id,
    registryId: r.registry_id,
    kind: r.kind,
    version: r.version,
    ...(r.previous_version !== null ? { previousVersion: r.previous_version } : {}),
    pinned: r.pinned === 1,
    updatedAt: r.updated_at,
  };
}

function versionOf(r: VersionRow): RegistryVersionRecord {
  return {
    agentId: r.agent_id,
    version: r.version,
    command: r.command,
    args: JSON.parse(r.args) as string[],
    env: JSON.parse(r.env) as Record<string, string>,
    manifest: JSON.parse(r.manifest) as unknown,
    ...(r.platform !== null ? { platform: r.platform } : {}),
    ...(r.install_dir !== null ? { installDir: r.install_dir } : {}),
    ...(r.sha256 !== null ? { sha256: r.sha256 } : {}),
    installedAt: r.installed_at,
  };
}

/** Registry facts of catalogue agents and their kept versions. */
export class RegistryRepo {
  private readonly stmts;

  constructor(private readonly db: Db) {
    this.stmts = {
      get: db.prepare(`SELECT * FROM registry_agents WHERE agent_id = ?`),
      list: db.prepare(`SELECT * FROM registry_agents ORDER BY agent_id`),
      put: db.prepare(
        `INSERT INTO registry_agents (agent_id, registry_id, kind, version, previous_version, pinned, updated_at)
         VALUES (@agent_id, @registry_id, @kind, @version, @previous_version, @pinned, @updated_at)
         ON CONFLICT (agent_id) DO UPDATE SET registry_id = excluded.registry_id, kind = excluded.kind, version = excluded.version,
           previous_version = excluded.previous_version, pinned = excluded.pinned, updated_at = excluded.updated_at`,
      ),
      setPinned: db.prepare(`UPDATE registry_agents SET pinned = ?, updated_at = ? WHERE agent_id = ?`),
      versions: db.prepare(`SELECT * FROM registry_versions WHERE agent_id = ? ORDER BY installed_at, version`),
      version: db.prepare(`SELECT * FROM registry_versions WHERE agent_id = ? AND version = ?`),
      putVersion: db.prepare(
        `INSERT INTO registry_versions (agent_id, version, command, args, env, manifest, platform, install_dir, sha256, installed_at)
         VALUES (@agent_id, @version, @command, @args, @env, @manifest, @platform, @install_dir, @sha256, @installed_at)
         ON CONFLICT (agent_id, version) DO UPDATE SET command = excluded.command, args = excluded.args, env = excluded.env,
           manifest = excluded.manifest, platform = excluded.platform, install_dir = excluded.install_dir, sha256 = excluded.sha256,
           installed_at = excluded.installed_at`,
      ),
      removeVersion: db.prepare(`DELETE FROM registry_versions WHERE agent_id = ? AND version = ?`),
      installDirs: db.prepare(`SELECT DISTINCT install_dir FROM registry_versions WHERE install_dir IS NOT NULL`),
      firstSha: db.prepare(
        `SELECT v.sha256 FROM registry_versions v JOIN registry_agents a ON a.agent_id = v.agent_id
         WHERE a.registry_id = ? AND v.version = ? AND v.platform = ? AND v.sha256 IS NOT NULL ORDER BY v.installed_at LIMIT 1`,
      ),
    };
  }

  get(agentId: string): RegistryAgentRecord | undefined {
    const row = this.stmts.get.get(agentId) as AgentRow | undefined;
    return row && agentOf(row);
  }

  list(): RegistryAgentRecord[] {
    return (this.stmts.list.all() as AgentRow[]).map(agentOf);
  }

  put(r: Omit<RegistryAgentRecord, 'updatedAt'>, now: number): void {
    this.stmts.put.run({
      agent_id: r.agentId,
      registry_id: r.registryId,
      kind: r.kind,
      version: r.version,
      previous_version: r.previousVersion ?? null,
      pinned: r.pinned ? 1 : 0,
      updated_at: now,
    });
  }

  setPinned(agentId: string, pinned: boolean, now: number): boolean {
    return this.stmts.setPinned.run(pinned ? 1 : 0, now, agentId).changes > 0;
  }

  versions(agentId: string): RegistryVersionRecord[] {
    return (this.stmts.versions.all(agentId) as VersionRow[]).map(versionOf);
  }

  version(agentId: string, version: string): RegistryVersionRecord | undefined {
    const row = this.stmts.version.get(agentId, version) as VersionRow | undefined;
    return row && versionOf(row);
  }

  putVersion(v: RegistryVersionRecord): void {
    this.stmts.putVersion.run({
      agent_id: v.agentId,
      version: v.version,
      command: v.command,
      args: JSON.stringify(v.args),
      env: JSON.stringify(v.env),
      manifest: JSON.stringify(v.manifest),
      platform: v.platform ?? null,
      install_dir: v.installDir ?? null,
      sha256: v.sha256 ?? null,
      installed_at: v.installedAt,
    });
  }

  /** Drops every kept version of `agentId` but `keep`. */
  keepOnly(agentId: string, keep: readonly string[]): void {
    for (const v of this.versions(agentId)) if (!keep.includes(v.version)) this.stmts.removeVersion.run(agentId, v.version);
  }

  /** Folders some kept version runs from. */
  installDirs(): Set<string> {
    return new Set((this.stmts.installDirs.all() as { install_dir: string }[]).map((r) => r.install_dir));
  }

  /** The sha256 first recorded for a download of this entry version and platform, by any agent. */
  firstSha256(registryId: string, version: string, platform: string): string | undefined {
    return (this.stmts.firstSha.get(registryId, version, platform) as { sha256: string } | undefined)?.sha256;
  }

  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }
}
