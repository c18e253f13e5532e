/**
 * The demo agent's definition, for tests that run a broker without a host. It belongs to the
 * host (`catalogue/demo-agent.ts`); a test below the host reaches it here, because test-support is the
 * one folder the layer rules (eslint.layers.js) let reach across layers.
 */
export { demoAgent } from '../catalogue/demo-agent';

/** The demo agent's sign-in variable (src/agents/demo/auth.ts; agents are another process, so named here). */
export const DEMO_KEY = 'SWITCHBOARD_DEMO_API_KEY';

/** The line the demo agent writes on stderr for each request the client cancels (src/agents/demo/slow-requests.ts). */
export const cancelledLine = (method: string): string => `demo-agent: cancelled ${method} ($/cancel_request)`;
/** The line it writes as a request made slow by `--slow METHOD=MS` begins to wait. */
export const slowLine = (method: string, ms: number): string => `demo-agent: answering ${method} in ${ms} ms`;
