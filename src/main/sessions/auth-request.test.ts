import { describe, expect, it } from 'vitest';
import type { AgentDefinition } from '../brokers/agent-definition';
import { buildAuthRequest, isAuthStatus, toMethodView } from './auth-request';

const agent: AgentDefinition = { id: 'claude', name: 'Claude', command: 'npx', args: ['@agentclientprotocol/claude-agent-acp'], env: {} };
const base = { agent, listed: [], root: false };

describe('auth requests: what an agent asks becomes methods a person can act on', () => {
  it('reads Gemini-style methods: the agent method, an API key named under _meta', () => {
    const r = buildAuthRequest('Authentication required', undefined, 'start', {
      ...base,
      listed: [
        { id: 'oauth-personal', name: 'Log in with Google', description: 'Browser login' },
        { id: 'gemini-api-key', name: 'Gemini API key', _meta: { 'api-key': { envVar: 'GEMINI_API_KEY' } } },
      ],
    });
    expect(r.methods).toEqual([
      { id: 'oauth-personal', name: 'Log in with Google', description: 'Browser login', kind: 'agent' },
      { id: 'gemini-api-key', name: 'Gemini API key', kind: 'env_var', envVar: 'GEMINI_API_KEY' },
    ]);
    expect(r.message).toBe('Authentication required');
  });

  it('merges the methods in the error data with the listed ones, once each', () => {
    const listed = [{ id: 'a', name: 'A' }];
    const r = buildAuthRequest('x', { authMethods: [{ id: 'a', name: 'A' }, { id: 'b', name: 'B' }] }, 'start', { ...base, listed });
    expect(r.methods.map((m) => m.id)).toEqual(['a', 'b']);
  });

  it('offers the variable a message names (Qwen) when no method covers it, and keeps the message as sent', () => {
    const message = 'Qwen refused session/new: set the OPENAI_API_KEY environment variable';
    const r = buildAuthRequest(message, undefined, 'start', base);
    expect(r.message).toBe(message);
    expect(r.methods).toEqual([{ id: 'env:OPENAI_API_KEY', name: 'Set OPENAI_API_KEY', kind: 'env_var', envVar: 'OPENAI_API_KEY', fromHint: true }]);
  });

  it('shows the exact terminal command (terminal-auth _meta, or ACP terminal type on the agent command)', () => {
    expect(toMethodView({ id: 't', name: 'Login', _meta: { 'terminal-auth': { command: 'claude', args: ['/login'] } } }, agent)).toMatchObject({ kind: 'terminal', command: 'claude /login' });
    expect(toMethodView({ id: 't', name: 'Login', type: 'terminal', args: ['--login'], env: { MODE: 'a b' } }, agent)).toMatchObject({
      kind: 'terminal',
      command: "MODE='a b' npx @agentclientprotocol/claude-agent-acp --login",
    });
  });

  it('as root, a refusal that mentions root gets the IS_SANDBOX hint and a method to set it', () => {
    const message = '--dangerously-skip-permissions cannot be used with root/sudo privileges for security reasons';
    const asRoot = buildAuthRequest(message, undefined, 'start', { ...base, root: true });
    expect(asRoot.hint).toMatch(/IS_SANDBOX=1/);
    expect(asRoot.methods).toContainEqual(expect.objectContaining({ kind: 'env_var', envVar: 'IS_SANDBOX' }));
    expect(buildAuthRequest(message, undefined, 'start', base).hint).toBeUndefined();
    // The stderr tail counts too: adapters often log the refusal there.
    expect(buildAuthRequest('Internal error', undefined, 'start', { ...base, root: true, stderrTail: ['Error: running as root'] }).hint).toBeDefined();
    // A word "root" that is no refusal (Gemini logs its project root) gets no hint.
    const gemini = { ...base, root: true, stderrTail: ['Loaded settings from the project root /tmp/x'] };
    expect(buildAuthRequest('Gemini API key is missing or not configured.', undefined, 'start', gemini).hint).toBeUndefined();
  });

  it('tells a "not logged in" status from ordinary talk', () => {
    expect(isAuthStatus('Not logged in. Run /login')).toBe(true);
    expect(isAuthStatus('Please sign in to continue')).toBe(true);
    expect(isAuthStatus('I logged in to the server and fixed it')).toBe(false);
  });

  it('skips entries it cannot read instead of failing', () => {
    expect(buildAuthRequest('x', [null, 3, { name: 'no id' }], 'start', base).methods).toEqual([]);
  });
});
