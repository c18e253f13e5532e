import { z } from 'zod';

/** How to start an agent. Users add real agents in `<data dir>/agents.json`. */
export const AgentDefinition = z.object({
  id: z.string().regex(/^[a-z0-9][a-z0-9._-]*$/i, 'use letters, digits, dot, dash, underscore'),
  name: z.string().min(1),
  command: z.string().min(1),
  args: z.array(z.string()).default([]),
  env: z.record(z.string(), z.string()).default({}),
});
export type AgentDefinition = z.output<typeof AgentDefinition>;
