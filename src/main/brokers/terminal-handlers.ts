import type { ClientRequestHandlers, ScopeLookup } from './client-handlers';
import { confined, scopeFor } from './fs-handlers';
import type { TerminalManager } from './terminals/terminal-manager';
import { acpSdk } from '../util/acp-sdk';

/** What an agent gets when it names no `outputByteLimit`, and the most it may ask for. */
export const DEFAULT_OUTPUT_BYTES = 1024 * 1024;
export const MAX_OUTPUT_BYTES = 16 * 1024 * 1024;

/** An environment variable name a process can carry (POSIX allows more; these cover every real one). */
const ENV_NAME = /^[^=\0]+$/;

export interface TerminalHandlerOptions {
  terminals: TerminalManager;
  /** Variables every terminal carries whatever the agent asks (the broker id the sweeps look for). */
  fixedEnv: Record<string, string>;
  /** The environment the agent's variables go on top of (the host's). */
  baseEnv?: NodeJS.ProcessEnv;
}

/**
 * `terminal/*`: commands an agent runs in its session's folders (`cwd` confined like file
 * paths), with its environment on top of ours, output kept up to the limit it asked for.
 */
export function terminalHandlers(scopeOf: ScopeLookup, opts: TerminalHandlerOptions): ClientRequestHandlers {
  const { terminals } = opts;
  return {
    capabilities: { terminal: true },
    register: (app) =>
      app
        .onRequest(acpSdk().methods.client.terminal.create, async ({ params }) => {
          const scope = scopeFor(scopeOf, params.sessionId);
          if (params.command.trim() === '' || params.command.includes('\0') || (params.args ?? []).some((a) => a.includes('\0'))) {
            throw acpSdk().RequestError.invalidParams({ command: params.command }, 'The command is empty or contains a NUL character');
          }
          const env: Record<string, string> = {};
          for (const v of params.env ?? []) {
            if (!ENV_NAME.test(v.name) || v.value.includes('\0')) throw acpSdk().RequestError.invalidParams({ name: v.name }, `Invalid environment variable ${JSON.stringify(v.name)}`);
            env[v.name] = v.value;
          }
          const cwd = await confined(scope, params.cwd ?? scope.cwd, 'terminal');
          // A command may change files: the turn's checkpoint is taken before it starts.
          await scope.beforeWrite?.();
          const limit = params.outputByteLimit ?? DEFAULT_OUTPUT_BYTES;
          const terminalId = await terminals.create(params.sessionId, scope, {
            command: params.command,
            args: params.args ?? [],
            env: { ...(opts.baseEnv ?? process.env), ...env, ...opts.fixedEnv },
            cwd,
            outputByteLimit: Math.min(Math.max(0, limit), MAX_OUTPUT_BYTES),
          });
          // The session closed while the command was starting: its teardown has passed, so
          // the terminal is ended here instead of outliving it.
          if (scopeOf(params.sessionId) !== scope) {
            terminals.release(params.sessionId, terminalId);
            throw acpSdk().RequestError.sessionNotFound(params.sessionId);
          }
          return { terminalId };
        })
        .onRequest(acpSdk().methods.client.terminal.output, ({ params }) => {
          const t = terminals.get(params.sessionId, params.terminalId);
          return { output: t.output.text, truncated: t.output.truncated, ...(t.exit ? { exitStatus: t.exit } : {}) };
        })
        .onRequest(acpSdk().methods.client.terminal.waitForExit, async ({ params, signal }) => {
          const t = terminals.get(params.sessionId, params.terminalId);
          // A cancelled request stops waiting; the command goes on until killed or released.
          const exit = await Promise.race([
            t.exited,
            new Promise<never>((_, reject) => {
              if (signal.aborted) reject(acpSdk().RequestError.requestCancelled());
              signal.addEventListener('abort', () => reject(acpSdk().RequestError.requestCancelled()), { once: true });
            }),
          ]);
          return { exitCode: exit.exitCode ?? null, signal: exit.signal ?? null };
        })
        .onRequest(acpSdk().methods.client.terminal.kill, ({ params }) => {
          terminals.get(params.sessionId, params.terminalId).kill();
          return {};
        })
        .onRequest(acpSdk().methods.client.terminal.release, ({ params }) => {
          terminals.release(params.sessionId, params.terminalId);
          return {};
        }),
  };
}
