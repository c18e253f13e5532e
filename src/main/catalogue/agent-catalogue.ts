import type { AgentListT, AgentTestResultT, AgentViewT, RegistryAgentInfoT, SaveAgentT } from '../../shared/catalogue';
import { AgentTestResult } from '../../shared/catalogue';
import { AppError } from '../../shared/errors';
import type { AgentDefinition } from '../brokers/agent-definition';
import type { AgentRecord, AgentsRepo } from '../store/agents.repo';
import type { Clock } from '../util/clock';
import { Emitter, type Event } from '../util/event';
import type { Logger } from '../util/log';
import type { AgentDetector } from './agent-detection';
import { AGENT_PRESETS, ROOT_SANDBOX_HINT } from './agent-presets';
import type { SecretStore } from './secret-box';
import { defined } from '../util/defined';

/** `agentCapabilities.auth.logout` in a Test's capabilities (any object, `{}` included, means yes). */
function offersLogout(capabilities: unknown): boolean {
  const auth = typeof capabilities === 'object' && capabilities !== null ? (capabilities as { auth?: unknown }).auth : undefined;
  const logout = typeof auth === 'object' && auth !== null ? (auth as { logout?: unknown }).logout : undefined;
  return typeof logout === 'object' && logout !== null;
}

export interface AgentCatalogueOptions {
  repo: AgentsRepo;
  secrets: SecretStore;
  /** The demo agent and any the run adds (tests): always there, never edited or removed. */
  builtins: readonly AgentDefinition[];
  detector: AgentDetector;
  clock: Clock;
  log: Logger;
  agentsFile: string;
  /** Whether this host runs as root (Claude adapters then need IS_SANDBOX=1). */
  isRoot?: boolean;
  /** The registry facts of an agent added from the ACP registry (its Settings row shows them). */
  registryInfo?(agentId: string): RegistryAgentInfoT | undefined;
}

/**
 * Every agent a session can use: the built-in ones, the ones added in Settings (SQLite) and
 * the ones imported from `<data dir>/agents.json` on each start. Secret environment values
 * live in the `SecretStore` and join a definition only in `resolve()`, for the agent's spawn.
 */
export class AgentCatalogue {
  private readonly didChange = new Emitter<void>();
  /** An agent was added, edited, removed, tested, or what is installed here became known. */
  readonly onDidChange: Event<void> = this.didChange.event;
  private readonly didRemove = new Emitter<string>();
  /** An agent left the catalogue (its id): what was kept for it elsewhere (MCP servers, registry folders) goes. */
  readonly onDidRemove: Event<string> = this.didRemove.event;

  private fileError: string | undefined;
  /** Last tests of built-in agents, which have no row. */
  private readonly builtinTests = new Map<string, AgentTestResultT>();

  constructor(private readonly o: AgentCatalogueOptions) {}

  /**
   * Imports agents.json: its entries are stored as `file` agents (the file stays their owner;
   * one gone from the file is gone from the catalogue). An invalid file changes nothing and
   * its error is shown in Settings. Ids taken by a built-in or a Settings agent are reported.
   */
  importFile(file: { agents: AgentDefinition[]; error?: string }): void {
    if (file.error) {
      this.fileError = file.error;
      return;
    }
    const problems: string[] = [];
    const now = this.o.clock.now();
    const keep = new Set<string>();
    this.o.repo.transaction(() => {
      for (const a of file.agents) {
        const existing = this.o.repo.get(a.id);
        if (this.isBuiltin(a.id) || existing?.source === 'user') {
          problems.push(`${this.o.agentsFile}: agent "${a.id}" is already defined ${this.isBuiltin(a.id) ? 'by Switchboard' : 'in Settings'}; the file's entry is ignored`);
          continue;
        }
        keep.add(a.id);
        const secretNames = existing?.secretNames ?? [];
        this.o.repo.upsert({ id: a.id, name: a.name, command: a.command, args: a.args, env: a.env, secretNames, source: 'file' }, now);
      }
      for (const row of this.o.repo.list()) {
        if (row.source === 'file' && !keep.has(row.id)) this.o.repo.remove(row.id);
      }
    });
    this.fileError = problems.length ? problems.join('\n') : undefined;
    if (this.fileError) this.o.log.warn('agents.json entries ignored', { error: this.fileError });
  }

  /** Definitions without secret values: the picker's list (`host:info`). */
  definitions(): AgentDefinition[] {
    return [...this.o.builtins, ...this.o.repo.list().map((r) => ({ id: r.id, name: r.name, command: r.command, args: r.args, env: r.env }))];
  }

  has(id: string): boolean {
    return this.isBuiltin(id) || this.o.repo.get(id) !== undefined;
  }

  /** The definition an agent process is started from, its secrets included. Read at each start. */
  resolve(id: string): AgentDefinition | undefined {
    const builtin = this.o.builtins.find((a) => a.id === id);
    // A built-in agent has no stored row, but may have secrets a sign-in stored for it.
    if (builtin) return { ...builtin, env: { ...builtin.env, ...this.o.secrets.values(id) } };
    const row = this.o.repo.get(id);
    if (!row) return undefined;
    return { id: row.id, name: row.name, command: row.command, args: row.args, env: { ...row.env, ...this.o.secrets.values(id) } };
  }

  /**
   * What agent `id` must not inherit from Switchboard's environment: every secret kept for
   * another agent or an MCP server, by name and by value (`agentEnvironment`).
   */
  withheldFrom(id: string): { names: string[]; values: string[] } {
    return this.o.secrets.othersThan(id);
  }

  /** Every secret value the box keeps (agents', MCP servers'): what a crash log scrubs. */
  secretValues(): string[] {
    return this.o.secrets.othersThan('').values;
  }

  async list(refresh = false): Promise<AgentListT> {
    if (refresh) this.o.detector.refresh();
    const builtins = this.o.builtins.map((a) => this.viewOf({ ...a, secretNames: [], source: 'builtin' }));
    const stored = this.o.repo.list().map((r) => this.viewOf(r));
    return {
      agents: await Promise.all([...builtins, ...stored]),
      agentsFile: this.o.agentsFile,
      ...(this.fileError ? { fileError: this.fileError } : {}),
    };
  }

  async view(id: string): Promise<AgentViewT> {
    const found = (await this.list()).agents.find((a) => a.id === id);
    if (!found) throw new AppError('not_found', `No agent named ${id}`);
    return found;
  }

  /**
   * Adds (`create`) or replaces a Settings agent. Secrets given are stored (sealed) in the
   * secret store; a secret row without a value keeps the stored one; rows left out are removed.
   */
  async save(input: SaveAgentT): Promise<AgentViewT> {
    if (this.isBuiltin(input.id)) throw new AppError('already_exists', `${input.id} is a built-in agent and can't be changed`);
    const existing = this.o.repo.get(input.id);
    if (input.create && existing) throw new AppError('already_exists', `An agent named ${input.id} exists already`);
    if (!input.create && !existing) throw new AppError('not_found', `No agent named ${input.id}`);
    if (existing?.source === 'file') {
      throw new AppError('invalid_state', `${existing.name} comes from ${this.o.agentsFile}: change it there`);
    }
    const env: Record<string, string> = {};
    const secretChanges: Record<string, string | undefined> = {};
    for (const name of this.o.secrets.names(input.id)) secretChanges[name] = undefined;
    const secretNames: string[] = [];
    for (const e of input.env) {
      if (!e.secret) {
        env[e.name] = e.value ?? '';
        continue;
      }
      secretNames.push(e.name);
      if (e.value !== undefined) secretChanges[e.name] = e.value;
      else if (this.o.secrets.has(input.id, e.name)) delete secretChanges[e.name];
      else throw new AppError('invalid_request', `${e.name} needs a value`, { issues: [{ path: ['env', e.name], message: 'needs a value' }] });
    }
    const presetId = input.presetId ?? existing?.presetId;
    this.o.repo.upsert(
      { id: input.id, name: input.name, command: input.command, args: input.args, env, secretNames, source: 'user', ...(presetId ? { presetId } : {}) },
      this.o.clock.now(),
    );
    this.o.secrets.update(input.id, secretChanges);
    this.o.log.info(input.create ? 'agent added' : 'agent changed', { agent: input.id, env: Object.keys(env), secrets: secretNames });
    this.didChange.fire();
    return this.view(input.id);
  }

  /**
   * Removes a Settings agent and its secrets. Refused for built-in and agents.json agents, and
   * while sessions of it are open: closing them is the person's call, not a side effect.
   */
  remove(id: string): void {
    if (this.isBuiltin(id)) throw new AppError('invalid_request', `${id} is built in and can't be removed`);
    const row = this.o.repo.get(id);
    if (!row) throw new AppError('not_found', `No agent named ${id}`);
    if (row.source === 'file') throw new AppError('invalid_state', `${row.name} comes from ${this.o.agentsFile}: remove it there`);
    const open = this.o.repo.openSessions(id);
    if (open > 0) {
      throw new AppError('invalid_state', `${row.name} is used by ${open} open session${open === 1 ? '' : 's'}; close ${open === 1 ? 'it' : 'them'} first`);
    }
    this.o.repo.remove(id);
    this.o.secrets.removeAgent(id);
    this.o.log.info('agent removed', { agent: id });
    this.didRemove.fire(id);
    this.didChange.fire();
  }

  /** The names of the secrets stored for an agent (Settings, a sign-in), never their values. */
  secretNames(id: string): string[] {
    return this.o.secrets.names(id);
  }

  /**
   * Stores one environment variable for a stored agent (sign-in: an API key the person typed).
   * Secret values go to the secret store only; `undefined` removes the variable. The agent's
   * next process gets it.
   */
  setEnv(agentId: string, name: string, value: string | undefined, options: { secret: boolean } = { secret: true }): void {
    const row = this.o.repo.get(agentId);
    if (!row) throw new AppError(this.isBuiltin(agentId) ? 'invalid_request' : 'not_found', `No stored agent named ${agentId}`);
    const env = { ...row.env };
    delete env[name];
    let secretNames = row.secretNames.filter((n) => n !== name);
    if (value !== undefined && !options.secret) env[name] = value;
    if (value !== undefined && options.secret) secretNames = [...secretNames, name].sort();
    this.o.repo.upsert({ ...row, env, secretNames }, this.o.clock.now());
    this.o.secrets.update(agentId, { [name]: options.secret ? value : undefined });
    this.o.log.info('agent environment changed', { agent: agentId, name, secret: options.secret, set: value !== undefined });
    this.didChange.fire();
  }

  /**
   * A variable a sign-in asked for: a secret of a stored agent (as `setEnv`), or of a built-in
   * or agents.json agent (kept in the secret store only; the file stays their owner).
   */
  storeSecret(agentId: string, name: string, value: string): void {
    if (this.o.repo.get(agentId)) return this.setEnv(agentId, name, value, { secret: true });
    if (!this.has(agentId)) throw new AppError('not_found', `No agent named ${agentId}`);
    this.o.secrets.update(agentId, { [name]: value });
    this.o.log.info('agent environment changed', { agent: agentId, name, secret: true, set: true });
  }

  recordTest(id: string, result: AgentTestResultT): void {
    if (this.isBuiltin(id)) this.builtinTests.set(id, result);
    else this.o.repo.setLastTest(id, result);
    this.didChange.fire();
  }

  private isBuiltin(id: string): boolean {
    return this.o.builtins.some((a) => a.id === id);
  }

  private async viewOf(a: Omit<AgentRecord, 'source' | 'createdAt' | 'updatedAt'> & { source: AgentViewT['source'] }): Promise<AgentViewT> {
    const lastTest = a.source === 'builtin' ? this.builtinTests.get(a.id) : AgentTestResult.safeParse(a.lastTest).data;
    const env: AgentViewT['env'] = [
      ...Object.entries(a.env).map(([name, value]) => ({ name, secret: false, value, set: true })),
      ...a.secretNames.map((name) => ({ name, secret: true, set: this.o.secrets.has(a.id, name) })),
    ];
    const preset = AGENT_PRESETS.find((p) => p.id === a.presetId);
    const hints = [...(preset?.hints.filter((h) => h !== ROOT_SANDBOX_HINT) ?? [])];
    const claude = /claude/i.test([a.command, ...a.args].join(' '));
    if (this.o.isRoot && claude && !env.some((e) => e.name === 'IS_SANDBOX')) hints.push(ROOT_SANDBOX_HINT);
    return {
      id: a.id,
      name: a.name,
      command: a.command,
      args: a.args,
      env,
      source: a.source,
      ...(a.presetId ? { presetId: a.presetId } : {}),
      editable: a.source === 'user',
      removable: a.source === 'user',
      openSessions: this.o.repo.openSessions(a.id),
      availability: await this.o.detector.check(a.command, a.args),
      ...(lastTest ? { lastTest } : {}),
      hints,
      ...defined({ registry: this.o.registryInfo?.(a.id) }),
      ...(lastTest?.ok && offersLogout(lastTest.capabilities) ? { canSignOut: true } : {}),
    };
  }
}
