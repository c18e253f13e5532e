import type { McpImportReportT, McpServerViewT, McpTestProgressT } from '../../../../../shared/contract';

export interface McpState {
  /** The person's MCP servers as the host last sent them (`mcp:list` or `mcp:changed`). */
  mcpServers: readonly McpServerViewT[];
  mcpLoaded: boolean;
  /** The step of each `mcp:test` this window runs, by server id. Replaced, never mutated. */
  mcpTests: ReadonlyMap<string, McpTestProgressT>;
  /** What Import found, while its panel is open (never a secret value). */
  mcpImport: McpImportReportT | undefined;
}

export const mcpInitialState: McpState = {
  mcpServers: [],
  mcpLoaded: false,
  mcpTests: new Map(),
  mcpImport: undefined,
};
