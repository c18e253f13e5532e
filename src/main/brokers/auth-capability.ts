import type { ClientRequestHandlers } from './client-handlers';

/**
 * Terminal sign-in methods (ACP `clientCapabilities.auth.terminal`): the agent may list
 * `{type: "terminal", args, env}` methods, which the client runs as the agent's own command
 * with those arguments in an interactive terminal (never through `authenticate`). Every host
 * can: the desktop app opens the person's terminal on it (`catalogue/terminal-launcher.ts`),
 * a headless one shows the exact command with Copy, for the person to run where the agent runs.
 * No request comes back for it, so there is nothing to register.
 */
export const terminalAuthHandlers: ClientRequestHandlers = {
  capabilities: { auth: { terminal: true } },
  register: (app) => app,
};
