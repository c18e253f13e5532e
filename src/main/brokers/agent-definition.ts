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

/**
 * Whether two definitions start the same process. A broker is shared only by sessions of the
 * same launch, so an agent edited in the catalogue starts afresh for its next session instead
 * of joining a process started from the old definition.
 */
export function sameLaunch(a: AgentDefinition, b: AgentDefinition): boolean {
  if (a.id !== b.id || a.command !== b.command || a.args.length !== b.args.length) return false;
  if (a.args.some((arg, i) => arg !== b.args[i])) return false;
  const aKeys = Object.keys(a.env);
  return aKeys.length === Object.keys(b.env).length && aKeys.every((k) => Object.hasOwn(b.env, k) && a.env[k] === b.env[k]);
}
