/**
 * Sign-in where the person is: an agent that asks for it (while a session starts, or by
 * refusing a prompt) leaves an `auth_required` event and the request on the session's view;
 * `authenticate` runs the chosen method and the session continues (its waiting prompts run,
 * or it starts). A session whose agent never started is not restarted by a plain message:
 * only a sign-in or Retry starts it again (no respawn loop).
 */
import type { AuthRequest, StateReason } from '../../shared/contract';
import { AppError } from '../../shared/errors';
import type { AgentDefinition } from '../brokers/agent-definition';
import type { Broker } from '../brokers/broker';
import { authRequestOf, type SessionRow } from '../store/sessions.repo';
import { buildAuthRequest } from './auth-request';
import type { SessionCloser } from './session-closer';
import type { SessionContext } from './session-context';
import { describeAgentError } from './session-starter';
import { acpSdk } from '../util/acp-sdk';

/** ENDED reasons of a session whose agent never started: a plain message does not start it again. */
export const FAILED_START: readonly StateReason[] = ['auth_required', 'start_failed', 'agent_unavailable'];

/** The ENDED reason for a failure to start. */
export function startFailureReason(error: AppError): StateReason {
  switch (error.code) {
    case 'crash_loop':
      return 'crash_loop';
    case 'auth_required':
      return 'auth_required';
    case 'agent_unavailable':
      return 'agent_unavailable';
    default:
      return 'start_failed';
  }
}

/**
 * Refuses a message to a session whose agent never started, with what helps, so a message
 * neither spawns the same failing agent again nor adds the same error row again.
 */
export function assertStartable(row: SessionRow, agentName: string): void {
  if (row.state !== 'ENDED' || !row.state_reason || !FAILED_START.includes(row.state_reason as StateReason)) return;
  if (row.state_reason === 'auth_required') {
    throw new AppError('auth_required', `${agentName} needs you to sign in before it takes a message: choose a sign-in method above.`);
  }
  throw new AppError('invalid_state', `${agentName} could not be started, so the message was not sent: press Retry, or fix the agent's command.`);
}

/** Whether the host runs as root (some agents refuse it). */
export function isRoot(o: SessionContext['o']): boolean {
  return o.runsAsRoot ?? process.getuid?.() === 0;
}

/** Records that the agent asks for sign-in: the transcript event, and the request on the view. */
export function recordAuthRequired(
  ctx: SessionContext,
  sessionId: string,
  agent: AgentDefinition,
  error: AppError,
  during: AuthRequest['during'],
  broker: Broker | undefined,
): AuthRequest {
  const { o } = ctx;
  const request = buildAuthRequest(error.message, error.details?.rpcData, during, {
    agent,
    listed: broker?.authMethods ?? [],
    stderrTail: broker?.stderrTail ?? error.details?.stderrTail,
    root: isRoot(o),
  });
  o.log.append(sessionId, 'auth_required', request);
  o.store.sessions.setAuthRequest(sessionId, request, o.clock.now());
  return request;
}

export interface SignInDeps {
  closer: SessionCloser;
  /** Runs the prompts that waited for the sign-in, or starts the session when none did. */
  continueSession(sessionId: string): void;
}

export class SignIn {
  constructor(
    private readonly ctx: SessionContext,
    private readonly deps: SignInDeps,
  ) {}

  /**
   * Signs in with `methodId` of the request the session waits on. `agent` methods call ACP
   * `authenticate` on the session's agent (started for it if need be); `env_var` methods store
   * `value` for the agent and restart it with it (then `authenticate` if the agent listed the
   * method); `terminal` methods are the person's to run. On success the session continues.
   */
  async authenticate(sessionId: string, methodId: string, value: string | undefined): Promise<{ message: string }> {
    const { o, registry } = this.ctx;
    this.ctx.assertOpen();
    const row = this.ctx.row(sessionId);
    const agent = o.agent(row.agent_id);
    if (!agent) throw new AppError('not_found', `No agent named ${row.agent_id}`);
    const request = authRequestOf(row).auth;
    if (!request) throw new AppError('invalid_state', 'This session is not waiting for a sign-in');
    const method = request.methods.find((m) => m.id === methodId);
    if (!method) throw new AppError('not_found', `${agent.name} offers no sign-in method ${methodId}`);
    if (method.kind === 'terminal') {
      throw new AppError('invalid_request', `Run ${method.command ?? 'the login command'} in a terminal, then press Retry`);
    }

    let message = `Signed in with ${method.name}.`;
    if (method.kind === 'env_var') {
      if (!value || !method.envVar) throw new AppError('invalid_request', `Give a value for ${method.envVar ?? 'the variable'}`);
      o.storeAgentSecret(agent.id, method.envVar, value);
      // The running agent read its environment at spawn: it must start again to see the value.
      if (registry.has(sessionId)) await this.deps.closer.close(sessionId, 'stale', { keepWaiting: true });
      else await o.pool.release(sessionId);
      message = `${method.envVar} is stored for ${agent.name}; the agent was restarted with it.`;
    }

    if (!method.fromHint) {
      const live = registry.get(sessionId);
      const own = live?.broker?.isAlive ? live.broker : undefined;
      // The agent that will run the session: a broker this session owns keeps it for the start.
      // Read again: a variable stored just now is part of its environment.
      const broker = own ?? (await o.pool.acquire(sessionId, o.agent(agent.id) ?? agent, { retry: true }));
      try {
        await broker.request(acpSdk().methods.agent.authenticate, { methodId }, o.requestTimeoutMs);
      } catch (err) {
        if (!own) {
          await o.pool.release(sessionId).catch((releaseErr: unknown) => {
            o.logger.warn('releasing the agent after a failed sign-in failed', { session: sessionId, error: String(releaseErr) });
          });
        }
        throw describeAgentError(agent, 'authenticate', err);
      }
    }

    o.store.sessions.setAuthRequest(sessionId, null, o.clock.now());
    o.log.append(sessionId, 'notice', { kind: 'signed_in', text: message });
    if (this.ctx.row(sessionId).state === 'ENDED') this.deps.continueSession(sessionId);
    return { message };
  }

  /**
   * Opens the person's terminal running a `terminal` method the agent offered (ACP forbids
   * passing its command to `authenticate`); where none can open, says what to run instead.
   */
  inTerminal(sessionId: string, methodId: string): void {
    const row = this.ctx.row(sessionId);
    const method = authRequestOf(row).auth?.methods.find((m) => m.id === methodId);
    if (!method?.command) throw new AppError('not_found', 'This session offers no terminal sign-in with that id');
    const { openTerminal } = this.ctx.o;
    if (!openTerminal) throw new AppError('invalid_request', `Switchboard cannot open a terminal here: run ${method.command} yourself, then press Retry`);
    // The agent's own environment (its secrets too) goes to the process, never into the command shown.
    openTerminal(method.command, row.cwd, this.ctx.o.agent(row.agent_id)?.env ?? {});
  }
}
