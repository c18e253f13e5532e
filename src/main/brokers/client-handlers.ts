import type * as acp from '@agentclientprotocol/sdk';

/**
 * A group of client-side ACP request handlers (`fs/*` today, `terminal/*` next) and the
 * client capabilities that announce them. The broker registers every group on its connection
 * and advertises their capabilities in `initialize`, so a group is added in one place.
 */
export interface ClientRequestHandlers {
  readonly capabilities: acp.ClientCapabilities;
  register(app: acp.ClientApp): acp.ClientApp;
}

/** The session a client request names, as far as the handlers need it. */
export interface RequestScope {
  readonly cwd: string;
}

/** Finds the session an ACP session id belongs to (undefined: nobody holds it). */
export type ScopeLookup = (acpSessionId: string) => RequestScope | undefined;

/** What `initialize` advertises: everything off unless a handler group turns it on. */
export function clientCapabilities(groups: readonly ClientRequestHandlers[]): acp.ClientCapabilities {
  return Object.assign({ terminal: false }, ...groups.map((g) => g.capabilities)) as acp.ClientCapabilities;
}
