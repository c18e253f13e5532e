/**
 * The demo agent's definition, for tests that run a broker without a host. It belongs to the
 * host (`catalogue/demo-agent.ts`); a test below the host reaches it here, because test-support is the
 * one folder the layer rules (eslint.layers.js) let reach across layers.
 */
export { demoAgent } from '../catalogue/demo-agent';

/** The demo agent's sign-in variable (src/agents/demo/auth.ts; agents are another process, so named here). */
export const DEMO_KEY = 'SWITCHBOARD_DEMO_API_KEY';
