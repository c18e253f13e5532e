import type { RegistryAgentChangeT } from '../../../shared/registry';
import type { RegistryAgentResult } from '../../catalogue/registry/registry-agents';
import type { Handlers } from '../dispatch';
import type { HostParts } from '../host-parts';

/** What the window is told of an agent the registry changed (its launch stays in the catalogue). */
const change = ({ definition, info }: RegistryAgentResult): RegistryAgentChangeT => ({ agentId: definition.id, name: definition.name, info });

/** The ACP registry: its list, agents added from it, updated, pinned, rolled back. */
export function registryHandlers({ registry, sendTo }: HostParts) {
  return {
    'registry:list': (p) => registry.list(p.refresh ?? false),
    'registry:add': async (p, ctx) => change(await registry.add(p, (progress) => sendTo(ctx.clientId, 'registry:progress', progress))),
    'registry:update': async (p, ctx) => change(await registry.update(p.agentId, (progress) => sendTo(ctx.clientId, 'registry:progress', progress))),
    'registry:pin': (p) => registry.pin(p.agentId, p.pinned),
    'registry:rollback': (p) => change(registry.rollBack(p.agentId)),
    'registry:info': (p) => registry.requireInfo(p.agentId),
  } satisfies Partial<Handlers>;
}
