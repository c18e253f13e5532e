import type { Handlers } from '../dispatch';
import type { HostParts } from '../host-parts';

const ok = { ok: true as const };

/** Settings → MCP servers: the list, a server saved, removed, turned on per agent, tested, imported. */
export function mcpHandlers({ mcp, sendTo }: HostParts) {
  return {
    'mcp:list': () => mcp.list(),
    'mcp:save': (p) => mcp.save(p),
    'mcp:remove': (p) => (mcp.remove(p.serverId), ok),
    'mcp:enable': (p) => mcp.setEnabled(p.serverId, p.agentId, p.enabled),
    'mcp:test': (p, ctx) => mcp.test(p.serverId, (step, elapsedMs) => sendTo(ctx.clientId, 'mcp:progress', { serverId: p.serverId, step, elapsedMs })),
    'mcp:scan': () => mcp.scan(),
    'mcp:import': (p) => mcp.import(p.keys, p.agentIds),
  } satisfies Partial<Handlers>;
}
