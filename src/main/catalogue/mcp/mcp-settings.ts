/**
 * Settings → MCP servers as the host's handlers reach it, one call each: the catalogue of
 * servers (saved, removed, turned on per agent), `Test` with its progress, `Import` (scan, then
 * add the chosen ones) and what a starting session of an agent is given.
 */
import type * as acp from '@agentclientprotocol/sdk';
import { AppError } from '../../../shared/errors';
import type {
  McpImportReportT,
  McpImportResultT,
  McpServerListT,
  McpServerViewT,
  McpTestResultT,
  McpTestStepT,
  SaveMcpServerT,
} from '../../../shared/mcp';
import type { Clock } from '../../util/clock';
import type { Disposable } from '../../util/lifecycle';
import type { Logger } from '../../util/log';
import { importToSave, importView, scanImports, type ImportPlaces } from './mcp-import';
import type { McpServerCatalogue } from './mcp-servers';
import { sessionMcpServers, type SessionMcpServers } from './session-mcp-servers';

export interface McpSettingsOptions {
  servers: McpServerCatalogue;
  /** Whether an agent id names an agent of the catalogue (a server is turned on only for those). */
  agentExists(agentId: string): boolean;
  /** Where Import looks: the person's home, this OS, the recent project folders. */
  importPlaces(): ImportPlaces;
  /** Where a stdio server's Test runs (a session's folder is where agents start them). */
  testCwd(): string | undefined;
  clock: Clock;
  log: Logger;
  /** How long a Test waits (default the tester's 20 s). */
  testTimeoutMs?: number;
}

export class McpSettings implements Disposable {
  /** Two Test clicks on one server share one run: one process, one result. */
  private readonly running = new Map<string, Promise<McpTestResultT>>();
  private readonly stop = new AbortController();

  constructor(private readonly o: McpSettingsOptions) {}

  list(): McpServerListT {
    return { servers: this.o.servers.list() };
  }

  save(input: SaveMcpServerT): McpServerViewT {
    this.requireAgents(input.agentIds);
    return this.o.servers.save(input);
  }

  remove(serverId: string): void {
    this.o.servers.remove(serverId);
  }

  setEnabled(serverId: string, agentId: string, enabled: boolean): McpServerViewT {
    if (enabled) this.requireAgents([agentId]);
    return this.o.servers.setEnabled(serverId, agentId, enabled);
  }

  /** Lists the server's tools (or says why it could not); the result is kept with the server. */
  test(serverId: string, onProgress: (step: McpTestStepT, elapsedMs: number) => void): Promise<McpTestResultT> {
    const server = this.o.servers.resolve(serverId);
    let run = this.running.get(serverId);
    if (!run) {
      const cwd = this.o.testCwd();
      // The MCP SDK (and the JSON-schema validator it brings) is loaded on the first Test, not
      // with the host: it is most of what `serve` would otherwise read before its ready line.
      run = import('./mcp-tester')
        .then(({ testMcpServer }) =>
          testMcpServer(server, {
            clock: this.o.clock,
            log: this.o.log,
            signal: this.stop.signal,
            onStep: onProgress,
            ...(cwd === undefined ? {} : { cwd }),
            ...(this.o.testTimeoutMs === undefined ? {} : { timeoutMs: this.o.testTimeoutMs }),
          }),
        )
        .then((result) => {
          onProgress('done', result.durationMs);
          // A server removed while it was tested has nothing to keep the result on; after quit
          // began there is no store to keep it in.
          if (!this.stop.signal.aborted && this.o.servers.list().some((s) => s.id === serverId)) this.o.servers.recordTest(serverId, result);
          return result;
        })
        .finally(() => this.running.delete(serverId));
      this.running.set(serverId, run);
    }
    return run;
  }

  /** What other tools configured, without a secret value; nothing is added. */
  async scan(): Promise<McpImportReportT> {
    return importView(await scanImports(this.o.importPlaces()));
  }

  /**
   * Adds the candidates named by `keys`, read again from their files (the window never held
   * their secrets), renamed when a name is taken, turned on for `agentIds`.
   */
  async import(keys: readonly string[], agentIds: readonly string[]): Promise<McpImportResultT> {
    this.requireAgents(agentIds);
    const scan = await scanImports(this.o.importPlaces());
    const taken = this.o.servers.names();
    const added: McpServerViewT[] = [];
    const missing: string[] = [];
    for (const key of new Set(keys)) {
      const candidate = scan.found.find((c) => c.key === key);
      if (!candidate) {
        missing.push(key);
        continue;
      }
      const save = importToSave(candidate, agentIds, taken);
      added.push(this.o.servers.save(save));
      taken.push(save.name);
    }
    this.o.log.info('mcp servers imported', { added: added.length, missing: missing.length });
    return { added, missing };
  }

  /** What a session of `agentId` is given, by the agent's capabilities (see `sessionMcpServers`). */
  forSession(agentId: string, capabilities: acp.AgentCapabilities): SessionMcpServers {
    return sessionMcpServers(this.o.servers.forAgent(agentId), capabilities.mcpCapabilities);
  }

  /** Quit: tests still running stop now (their servers are killed), not at their deadline. */
  dispose(): void {
    this.stop.abort();
  }

  private requireAgents(agentIds: readonly string[]): void {
    const unknown = agentIds.filter((id) => !this.o.agentExists(id));
    if (unknown.length > 0) throw new AppError('not_found', `No agent named ${unknown.join(', ')}`);
  }
}
