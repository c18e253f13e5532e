import { z } from 'zod';
import { commands, type CommandName, type CommandParams, type CommandResponse, type Result } from '../../shared/contract';
import { toWireError } from '../../shared/errors';

export interface CommandContext {
  clientId: string;
}

export type Handlers = {
  [C in CommandName]: (params: CommandParams<C>, ctx: CommandContext) => CommandResponse<C> | Promise<CommandResponse<C>>;
};

/**
 * Validates a request against the contract, runs its one handler, and wraps the outcome.
 * Invalid requests get a typed error and reach no handler. Never throws.
 */
/** Turns a handler's failure into the error the window gets, where the host knows better than `toWireError`. */
export type ErrorMapper = (err: unknown) => ReturnType<typeof toWireError> | undefined;

export function createDispatcher(handlers: Handlers, mapError: ErrorMapper = () => undefined) {
  return async (clientId: string, command: string, payload: unknown): Promise<Result<unknown>> => {
    if (!Object.hasOwn(commands, command)) {
      return { ok: false, error: { code: 'unknown_command', message: `Unknown command ${JSON.stringify(command)}` } };
    }
    const name = command as CommandName;
    const parsed = commands[name].req.safeParse(payload ?? {});
    if (!parsed.success) {
      return { ok: false, error: { code: 'invalid_request', message: z.prettifyError(parsed.error), details: { issues: parsed.error.issues.map((i) => ({ path: i.path.map((k) => (typeof k === 'symbol' ? String(k) : k)), message: i.message })) } } };
    }
    try {
      const handler = handlers[name] as (p: unknown, ctx: CommandContext) => unknown;
      return { ok: true, value: await handler(parsed.data, { clientId }) };
    } catch (err) {
      return { ok: false, error: mapError(err) ?? toWireError(err) };
    }
  };
}
