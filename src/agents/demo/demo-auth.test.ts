import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as acp from '@agentclientprotocol/sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DemoAgentProcess } from '../test-support/demo-agent-process';
import { AGENT_METHOD_ID, API_KEY_METHOD_ID, DEMO_API_KEY_ENV, NOT_LOGGED_IN, TERMINAL_METHOD_ID } from './auth';

let dataDir: string;
const started: DemoAgentProcess[] = [];

function start(args: string[], env: NodeJS.ProcessEnv = process.env): DemoAgentProcess {
  const agent = new DemoAgentProcess(dataDir, args, env);
  started.push(agent);
  return agent;
}

async function refusal(p: Promise<unknown>): Promise<acp.RequestError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(acp.RequestError);
  return err as acp.RequestError;
}

const newSession = (a: DemoAgentProcess) => a.agent.request(acp.methods.agent.session.new, { cwd: dataDir, mcpServers: [] });

beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'demo-auth-test-'));
});

afterEach(async () => {
  await Promise.all(started.splice(0).map((a) => a.kill()));
  rmSync(dataDir, { recursive: true, force: true });
});

describe('demo agent: --auth required', () => {
  it('lists an agent, an environment-variable and a terminal method in initialize', async () => {
    const init = await start(['--auth', 'required']).initialize();
    expect(init.authMethods?.map((m) => m.id)).toEqual([AGENT_METHOD_ID, API_KEY_METHOD_ID, TERMINAL_METHOD_ID]);
    expect(init.authMethods?.[1]?._meta).toEqual({ 'api-key': { envVar: DEMO_API_KEY_ENV } });
  });

  it('refuses session/new with -32000 and the methods in data until authenticate succeeds', async () => {
    const agent = start(['--auth', 'required']);
    await agent.initialize();
    const err = await refusal(newSession(agent));
    expect(err.code).toBe(-32000);
    expect(err.message).toBe('Authentication required');
    expect((err.data as { authMethods: { id: string }[] }).authMethods.map((m) => m.id)).toContain(AGENT_METHOD_ID);
    await agent.agent.request(acp.methods.agent.authenticate, { methodId: AGENT_METHOD_ID });
    expect((await newSession(agent)).sessionId).toEqual(expect.any(String));
  });

  it('refuses the API-key method without the variable and starts sessions when it is in the environment', async () => {
    const without = start(['--auth', 'required'], { ...process.env, [DEMO_API_KEY_ENV]: '' });
    await without.initialize();
    expect((await refusal(without.agent.request(acp.methods.agent.authenticate, { methodId: API_KEY_METHOD_ID }))).message).toContain(DEMO_API_KEY_ENV);

    const withKey = start(['--auth=required'], { ...process.env, [DEMO_API_KEY_ENV]: 'k-123' });
    await withKey.initialize();
    expect((await newSession(withKey)).sessionId).toEqual(expect.any(String));
  });
});

describe('demo agent: --auth status', () => {
  it('starts the session, says it is not logged in, and fails the first prompt until signed in', async () => {
    const agent = start(['--auth', 'status']);
    await agent.initialize();
    const { sessionId } = await newSession(agent);
    const said = agent.updatesFor(sessionId).map((u) => u.update);
    expect(said).toContainEqual({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: NOT_LOGGED_IN } });
    const err = await refusal(agent.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'hi' }] }));
    expect(err.code).toBe(-32000);
    await agent.agent.request(acp.methods.agent.authenticate, { methodId: AGENT_METHOD_ID });
    const res = await agent.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'hi' }] });
    expect(res.stopReason).toBe('end_turn');
  });
});
