import type { Handlers } from '../dispatch';
import type { HostParts } from '../host-parts';
import { agentHandlers } from './agents';
import { hostHandlers } from './host';
import { mcpHandlers } from './mcp';
import { registryHandlers } from './registry';
import { permissionHandlers } from './permissions';
import { sessionHandlers } from './sessions';
import { workspaceHandlers } from './workspace';
import { storageHandlers } from './storage';

/**
 * One handler per contract command, grouped by domain. The dispatcher has validated `params`;
 * each handler is one call to the part that owns the work.
 */
export function createHandlers(h: HostParts): Handlers {
  return { ...sessionHandlers(h), ...permissionHandlers(h), ...agentHandlers(h), ...hostHandlers(h), ...workspaceHandlers(h), ...storageHandlers(h), ...mcpHandlers(h), ...registryHandlers(h) };
}
