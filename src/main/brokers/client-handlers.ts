import type * as acp from '@agentclientprotocol/sdk';
import type { EventBody, TerminalOutputT } from '../../shared/contract';

/**
 * A group of client-side ACP request handlers (`fs/*`, `terminal/*`) and the client
 * capabilities that announce them. The broker registers every group on its connection and
 * advertises their capabilities in `initialize`, so a group is added in one place.
 */
export interface ClientRequestHandlers {
  readonly capabilities: acp.ClientCapabilities;
  register(app: acp.ClientApp): acp.ClientApp;
}

/** The session a client request names, as far as the handlers need it. */
export interface RequestScope {
  readonly cwd: string;
  /**
   * The folders the agent may read, write and run commands in; absent means the session folder
   * alone (see `rootsOf`). Folders a person adds to a session go here.
   */
  readonly roots?: readonly string[];
  /** Stores a host event in the session's transcript (a refused path, a written file, a terminal's output). */
  record?(event: EventBody): void;
  /** Live output of a terminal of this session, for the windows watching it (not stored). */
  terminalOutput?(update: Omit<TerminalOutputT, 'sessionId'>): void;
  /**
   * Resolves when the agent may change files: a write or a new terminal waits for the
   * checkpoint of the turn's files to be taken first (ADR 0023). Absent: at once.
   */
  beforeWrite?(): Promise<void>;
}

/** Finds the session an ACP session id belongs to (undefined: nobody holds it). */
export type ScopeLookup = (acpSessionId: string) => RequestScope | undefined;

/** The folders a session's agent may use. */
export function rootsOf(scope: RequestScope): readonly string[] {
  return scope.roots ?? [scope.cwd];
}

/** What `initialize` advertises: everything off unless a handler group turns it on. */
export function clientCapabilities(groups: readonly ClientRequestHandlers[]): acp.ClientCapabilities {
  return Object.assign({ terminal: false }, ...groups.map((g) => g.capabilities)) as acp.ClientCapabilities;
}
