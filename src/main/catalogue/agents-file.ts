import { existsSync, readFileSync } from 'node:fs';
import { z } from 'zod';
import { AgentDefinition } from '../brokers/agent-definition';
import type { Logger } from '../util/log';

const AgentsFile = z.union([z.array(AgentDefinition), z.object({ agents: z.array(AgentDefinition) })]);

/** Real agents the user added in `<data dir>/agents.json`. A bad file is reported, not fatal. */
export function loadAgentsFile(file: string, log: Logger): { agents: AgentDefinition[]; error?: string } {
  if (!existsSync(file)) return { agents: [] };
  try {
    const parsed = AgentsFile.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    if (!parsed.success) {
      const error = `${file}: ${z.prettifyError(parsed.error)}`;
      log.error('ignoring invalid agents.json', { error });
      return { agents: [], error };
    }
    return { agents: Array.isArray(parsed.data) ? parsed.data : parsed.data.agents };
  } catch (err) {
    const error = `${file}: ${(err as Error).message}`;
    log.error('ignoring unreadable agents.json', { error });
    return { agents: [], error };
  }
}
