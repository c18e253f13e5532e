import type { ClientRequestHandlers } from './client-handlers';

/**
 * Session config options: the client side needs no handler (options arrive in `session/new`
 * answers and `config_option_update`s), only a capability. Boolean options are advertised
 * because the session header shows them (a checkbox) and sets them with `type: "boolean"`;
 * agents may send them only to a client that says so.
 */
export const configOptionHandlers: ClientRequestHandlers = {
  capabilities: { session: { configOptions: { boolean: {} } } },
  register: (app) => app,
};
