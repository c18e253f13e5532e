/**
 * The demo agent's sign-in, shaped like what real agents send (ACP.md: "Sign-in comes three
 * ways"), so the host's sign-in flow is testable offline: methods in `initialize`, a -32000
 * refusal of `session/new` carrying them in `data`, and a "not logged in" status after
 * `session/new` whose first prompt then fails.
 */
import * as acp from '@agentclientprotocol/sdk';
import type { AuthMethod } from '@agentclientprotocol/sdk';
import type { AuthMode } from './options';

/** The environment variable that signs the demo agent in, like `GEMINI_API_KEY`. */
export const DEMO_API_KEY_ENV = 'SWITCHBOARD_DEMO_API_KEY';
export const AGENT_METHOD_ID = 'demo-login';
export const API_KEY_METHOD_ID = 'demo-api-key';
export const TERMINAL_METHOD_ID = 'demo-terminal-login';
/** ACP's own terminal method: the agent's command run again with `--login`, in a terminal. */
export const ACP_TERMINAL_METHOD_ID = 'demo-terminal';
/** The flag that method adds: the demo agent then signs in at the terminal and exits (demo-agent.ts). */
export const LOGIN_FLAG = '--login';
export const NOT_LOGGED_IN = 'Not logged in. Run /login or set SWITCHBOARD_DEMO_API_KEY.';

/** One method of each kind: the agent's own (`authenticate`), an environment variable, a terminal login. */
export const demoAuthMethods: AuthMethod[] = [
  { id: AGENT_METHOD_ID, name: 'Log in to the demo', description: 'The agent signs you in itself.' },
  {
    id: API_KEY_METHOD_ID,
    name: 'Demo API key',
    description: `Set ${DEMO_API_KEY_ENV} in the agent's environment.`,
    // As Gemini CLI marks its API-key method: the variable is named under `_meta`.
    _meta: { 'api-key': { envVar: DEMO_API_KEY_ENV } },
  },
  {
    id: TERMINAL_METHOD_ID,
    name: 'Log in from a terminal',
    description: 'Runs the login in a terminal.',
    // As the Claude adapters describe their terminal login.
    _meta: { 'terminal-auth': { command: 'switchboard-demo-login', args: ['--user', 'me'], label: 'demo login' } },
  },
];

export class DemoAuth {
  private signedIn: boolean;
  /** Signed out on purpose (`logout`, `/logout`): from then on every prompt needs a new sign-in. */
  private loggedOut = false;

  constructor(
    readonly mode: AuthMode,
    env: NodeJS.ProcessEnv,
  ) {
    this.signedIn = mode === 'none' || Boolean(env[DEMO_API_KEY_ENV]);
  }

  /** ACP `logout` is advertised only where there is a sign-in to end. */
  get canLogOut(): boolean {
    return this.mode !== 'none';
  }

  get methods(): AuthMethod[] {
    return this.mode === 'none' ? [] : demoAuthMethods;
  }

  /**
   * What `initialize` lists: ACP's terminal method too, but only to a client that says it runs
   * them (`clientCapabilities.auth.terminal`), as ACP requires.
   */
  methodsFor(client: { auth?: { terminal?: boolean } | null } | undefined): AuthMethod[] {
    if (this.mode === 'none' || !client?.auth?.terminal) return this.methods;
    return [
      ...this.methods,
      { type: 'terminal', id: ACP_TERMINAL_METHOD_ID, name: 'Sign in in a terminal', description: 'Runs this agent with --login in your terminal.', args: [LOGIN_FLAG] },
    ];
  }

  get isSignedIn(): boolean {
    return this.signedIn;
  }

  /** `authenticate`: the agent method always works; the API-key method only with the variable set. */
  authenticate(methodId: string, env: NodeJS.ProcessEnv): void {
    if (methodId === AGENT_METHOD_ID || (methodId === API_KEY_METHOD_ID && env[DEMO_API_KEY_ENV])) {
      this.signedIn = true;
      this.loggedOut = false;
      return;
    }
    if (methodId === API_KEY_METHOD_ID) throw acp.RequestError.authRequired(this.refusalData(), `${DEMO_API_KEY_ENV} is not set`);
    throw acp.RequestError.invalidParams({ methodId }, `unknown or terminal-only auth method ${methodId}`);
  }

  /** `session/new` in `required` mode before sign-in: refused as Gemini and Qwen refuse it. */
  checkNewSession(): void {
    if (this.mode === 'required' && !this.signedIn) {
      throw acp.RequestError.authRequired(this.refusalData());
    }
  }

  /** `session/prompt` in `status` mode before sign-in, or after a sign-out: fails like a real unauthenticated turn. */
  checkPrompt(): void {
    if ((this.mode === 'status' || this.loggedOut) && !this.signedIn) throw acp.RequestError.authRequired(this.refusalData(), NOT_LOGGED_IN);
  }

  /**
   * ACP `logout` (and `/logout`): forgets the sign-in, the API key in the environment included,
   * until `authenticate` signs in again. Refused where there is no sign-in to end.
   */
  logout(): void {
    if (!this.canLogOut) throw acp.RequestError.methodNotFound('logout');
    this.signedIn = false;
    this.loggedOut = true;
  }

  private refusalData(): { authMethods: AuthMethod[] } {
    return { authMethods: demoAuthMethods };
  }
}
