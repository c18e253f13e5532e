import type { McpServerViewT } from '../../../../../shared/contract';
import type { AppState } from '../../app-store';

export const mcpSelectors = {
  servers: (s: AppState) => s.mcpServers,
  server: (id: string | undefined) => (s: AppState): McpServerViewT | undefined => s.mcpServers.find((m) => m.id === id),
  /** The running Test's step for this server, or undefined when none runs. */
  testProgress: (id: string) => (s: AppState) => s.mcpTests.get(id),
  importReport: (s: AppState) => s.mcpImport,
};
