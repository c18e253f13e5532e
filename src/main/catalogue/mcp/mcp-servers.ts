/**
 * The MCP servers a person configured: saved from Settings (the secret values to the secret
 * box, the rest to SQLite), shown to windows without secrets, and resolved, secrets and all,
 * only when a session starts or a server is tested.
 */
import { randomUUID } from 'node:crypto';
import { AppError } from '../../../shared/errors';
import type { McpServerViewT, McpTestResultT, McpVarViewT, SaveMcpServerT, SaveMcpVarT } from '../../../shared/mcp';
import { McpTestResult } from '../../../shared/mcp';
import type { Clock } from '../../util/clock';
import { Emitter, type Event } from '../../util/event';
import type { Logger } from '../../util/log';
import type { McpServerRecord, McpServersRepo, McpServerWrite, StoredVar } from '../../store/mcp-servers.repo';

/**
 * Where secret values live: the catalogue's `SecretStore` has this shape (owner = an agent id
 * there). MCP servers use owners `mcp:<server id>`, which no agent id can spell (no colon).
 */
export interface SecretVault {
  names(owner: string): string[];
  values(owner: string): Record<string, string>;
  update(owner: string, changes: Record<string, string | undefined>): void;
  removeAgent(owner: string): void;
}

export const secretOwner = (serverId: string): string => `mcp:${serverId}`;

/** A variable with its value, for a session's `mcpServers` or a test. */
export type NamedValue = { name: string; value: string };

/**
 * A server ready to hand to an agent or to test: secrets read from the vault. A secret whose
 * value is missing (never set, or sealed by a key this host cannot open) is left out of the
 * variables and named in `missingSecrets`; such a server is not given to agents.
 */
export type ResolvedMcpServer =
  | { id: string; name: string; type: 'stdio'; command: string; args: string[]; env: NamedValue[]; missingSecrets: string[] }
  | { id: string; name: string; type: 'http' | 'sse'; url: string; headers: NamedValue[]; missingSecrets: string[] };

export interface McpServerCatalogueDeps {
  repo: McpServersRepo;
  secrets: SecretVault;
  clock: Clock;
  log: Logger;
  newId?: () => string;
}

export class McpServerCatalogue {
  private readonly newId: () => string;
  private readonly didChange = new Emitter<void>();
  /** A server was added, changed, removed, turned on or off, or tested: windows show the new list. */
  readonly onDidChange: Event<void> = this.didChange.event;

  constructor(private readonly deps: McpServerCatalogueDeps) {
    this.newId = deps.newId ?? randomUUID;
  }

  list(): McpServerViewT[] {
    return this.deps.repo.list().map((r) => this.view(r));
  }

  get(id: string): McpServerViewT {
    return this.view(this.record(id));
  }

  /**
   * Adds (no `id`) or replaces a server. A secret sent without a value keeps the one stored;
   * a new secret needs a value. Secret names the server no longer has leave the vault.
   */
  save(input: SaveMcpServerT): McpServerViewT {
    const existing = input.id === undefined ? undefined : this.record(input.id);
    const id = existing?.id ?? this.newId();
    const owner = secretOwner(id);
    const clash = this.deps.repo.idByName(input.name);
    if (clash !== undefined && clash !== id) throw new AppError('already_exists', `An MCP server named "${input.name}" exists already.`);

    const vars: SaveMcpVarT[] = input.type === 'stdio' ? input.env : input.headers;
    const stored = new Set(existing ? this.deps.secrets.names(owner) : []);
    const changes: Record<string, string | undefined> = {};
    for (const v of vars) {
      if (!v.secret) continue;
      if (v.value !== undefined) changes[v.name] = v.value;
      else if (!stored.has(v.name)) {
        throw new AppError('invalid_request', `The secret ${v.name} has no value.`, {
          issues: [{ path: [input.type === 'stdio' ? 'env' : 'headers', vars.indexOf(v), 'value'], message: 'needs a value' }],
        });
      }
    }
    const keep = new Set(vars.filter((v) => v.secret).map((v) => v.name));
    for (const name of stored) if (!keep.has(name)) changes[name] = undefined;

    const storedVars: StoredVar[] = vars.map((v) => (v.secret ? { name: v.name, secret: true } : { name: v.name, secret: false, value: v.value ?? '' }));
    const write: McpServerWrite =
      input.type === 'stdio'
        ? { id, name: input.name, type: 'stdio', command: input.command, args: input.args, env: storedVars }
        : { id, name: input.name, type: input.type, url: input.url, headers: storedVars };
    // Secrets first: a row never names a secret the vault does not hold yet. A failed row write
    // leaves at most a value no row names, which the next save or remove of this id clears.
    if (Object.keys(changes).length > 0) this.deps.secrets.update(owner, changes);
    this.deps.repo.save(write, input.agentIds, this.deps.clock.now());
    this.deps.log.info(existing ? 'mcp server changed' : 'mcp server added', { server: id, type: input.type, secrets: [...keep] });
    this.didChange.fire();
    return this.get(id);
  }

  remove(id: string): void {
    this.record(id);
    this.deps.repo.remove(id);
    this.deps.secrets.removeAgent(secretOwner(id));
    this.deps.log.info('mcp server removed', { server: id });
    this.didChange.fire();
  }

  /** Turns a server on or off for one agent. */
  setEnabled(id: string, agentId: string, enabled: boolean): McpServerViewT {
    this.record(id);
    this.deps.repo.setEnabled(id, agentId, enabled);
    this.deps.log.info(enabled ? 'mcp server turned on' : 'mcp server turned off', { server: id, agent: agentId });
    this.didChange.fire();
    return this.get(id);
  }

  /** The agent is gone from the catalogue: no server keeps it. */
  forgetAgent(agentId: string): void {
    this.deps.repo.forgetAgent(agentId);
    this.didChange.fire();
  }

  /** The server with its secrets, for `Test`. */
  resolve(id: string): ResolvedMcpServer {
    return this.resolveRecord(this.record(id));
  }

  /** Every server turned on for the agent, with secrets, in the order they were added. */
  forAgent(agentId: string): ResolvedMcpServer[] {
    return this.deps.repo.forAgent(agentId).map((r) => this.resolveRecord(r));
  }

  recordTest(id: string, result: McpTestResultT): void {
    this.deps.repo.setLastTest(id, result);
    this.didChange.fire();
  }

  /** Every name in use (import renames a candidate whose name is taken). */
  names(): string[] {
    return this.deps.repo.list().map((r) => r.name);
  }

  private record(id: string): McpServerRecord {
    const record = this.deps.repo.get(id);
    if (!record) throw new AppError('not_found', `No MCP server ${id}.`);
    return record;
  }

  private resolveRecord(r: McpServerRecord): ResolvedMcpServer {
    const vars = r.type === 'stdio' ? r.env : r.headers;
    const secretValues = vars.some((v) => v.secret) ? this.deps.secrets.values(secretOwner(r.id)) : {};
    const missingSecrets: string[] = [];
    const resolved: NamedValue[] = [];
    for (const v of vars) {
      if (!v.secret) resolved.push({ name: v.name, value: v.value });
      else if (Object.hasOwn(secretValues, v.name)) resolved.push({ name: v.name, value: secretValues[v.name] ?? '' });
      else missingSecrets.push(v.name);
    }
    return r.type === 'stdio'
      ? { id: r.id, name: r.name, type: 'stdio', command: r.command, args: r.args, env: resolved, missingSecrets }
      : { id: r.id, name: r.name, type: r.type, url: r.url, headers: resolved, missingSecrets };
  }

  private view(r: McpServerRecord): McpServerViewT {
    const vars = r.type === 'stdio' ? r.env : r.headers;
    const set = new Set(vars.some((v) => v.secret) ? this.deps.secrets.names(secretOwner(r.id)) : []);
    const views: McpVarViewT[] = vars.map((v) => (v.secret ? { name: v.name, secret: true, set: set.has(v.name) } : { name: v.name, secret: false, value: v.value, set: true }));
    const lastTest = r.lastTest === undefined ? undefined : McpTestResult.safeParse(r.lastTest);
    const base = {
      id: r.id,
      name: r.name,
      agentIds: r.agentIds,
      createdAt: r.createdAt,
      updatedAt: r.updatedAt,
      ...(lastTest?.success ? { lastTest: lastTest.data } : {}),
    };
    return r.type === 'stdio' ? { ...base, type: 'stdio', command: r.command, args: r.args, env: views } : { ...base, type: r.type, url: r.url, headers: views };
  }
}
