import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as acp from '@agentclientprotocol/sdk';
import type { CreateElicitationRequest } from '@agentclientprotocol/sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DemoAgentProcess, untilWithdrawn } from '../test-support/demo-agent-process';
import { DEFAULT_ELICIT_URL, DEMO_FORM, SECRET_FIELD } from './elicit-turn';

let dataDir: string;
const started: DemoAgentProcess[] = [];

const QUESTIONS = { elicitation: { form: {}, url: {} } };

async function start(capabilities: acp.ClientCapabilities = QUESTIONS): Promise<{ agent: DemoAgentProcess; sessionId: string }> {
  const agent = new DemoAgentProcess(dataDir);
  started.push(agent);
  await agent.initialize(capabilities);
  return { agent, sessionId: await agent.newSession('/tmp/project-a') };
}

const said = (agent: DemoAgentProcess, sessionId: string): string => agent.textOf(sessionId, 'agent_message_chunk');

/** The form mode's schema, with the request narrowed to it. */
function formOf(request: CreateElicitationRequest | undefined): Extract<CreateElicitationRequest, { mode: 'form' }> {
  if (request?.mode !== 'form') throw new Error(`expected a form question, got ${JSON.stringify(request)}`);
  return request as Extract<CreateElicitationRequest, { mode: 'form' }>;
}

const idOf = (request: CreateElicitationRequest | undefined): string => (request?.mode === 'url' ? String(request.elicitationId) : '');

beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'demo-questions-test-'));
});

afterEach(async () => {
  await Promise.all(started.splice(0).map((a) => a.kill()));
  rmSync(dataDir, { recursive: true, force: true });
});

describe('/elicit: a form question', () => {
  it('asks with every kind of field and says the answer, the secret field masked', async () => {
    const { agent, sessionId } = await start();
    agent.elicitationHandler = () => ({
      action: 'accept',
      content: { name: 'web', email: 'ann@example.com', region: 'us', features: ['logs', 'traces'], replicas: 3, confirm: true, ratio: 0.25, [SECRET_FIELD]: 'hunter22' },
    });
    expect((await agent.prompt(sessionId, '/elicit')).stopReason).toBe('end_turn');
    const request = formOf(agent.elicitations[0]);
    expect(request).toMatchObject({ sessionId, mode: 'form', message: 'A few questions before the demo deploys.' });
    const properties = request.requestedSchema.properties ?? {};
    const kinds = Object.values(properties).map((p) => ('format' in p && p.format) || ('enum' in p && p.enum && 'enum') || ('oneOf' in p && p.oneOf && 'oneOf') || ('items' in p && ('anyOf' in (p.items as object) ? 'anyOf' : 'items.enum')) || p.type);
    expect(kinds).toEqual(['string', 'email', 'uri', 'date', 'date-time', 'enum', 'oneOf', 'items.enum', 'anyOf', 'number', 'integer', 'boolean', 'string']);
    expect(request.requestedSchema).toEqual(DEMO_FORM);
    const text = said(agent, sessionId);
    expect(text).toContain('- name: "web"');
    expect(text).toContain('- features: ["logs","traces"]');
    expect(text).toContain(`- ${SECRET_FIELD}: (received, 8 characters, not shown)`);
    expect(text).not.toContain('hunter22');
  });

  it('says when the person declines or cancels', async () => {
    const { agent, sessionId } = await start();
    agent.elicitationHandler = () => ({ action: 'decline' });
    await agent.prompt(sessionId, '/elicit');
    agent.elicitationHandler = () => ({ action: 'cancel' });
    await agent.prompt(sessionId, '/elicit');
    expect(said(agent, sessionId)).toBe('You declined the question.The question was cancelled.');
  });

  it('sends a form the SDK accepts but that is malformed, and reports how the client refused it', async () => {
    const { agent, sessionId } = await start();
    agent.elicitationHandler = () => {
      throw acp.RequestError.invalidParams({ path: 'properties.colour.type' }, 'the form is malformed');
    };
    await agent.prompt(sessionId, '/elicit malformed');
    const schema = formOf(agent.elicitations[0]).requestedSchema as unknown as { properties: Record<string, { type: string; minLength?: number; maxLength?: number }>; required: string[] };
    expect(schema.properties.colour?.type).toBe('_demo/colour');
    expect(schema.properties.name).toMatchObject({ minLength: 5, maxLength: 2 });
    expect(schema.required).toContain('missing');
    expect(said(agent, sessionId)).toBe('The client refused the question: Invalid params: the form is malformed (error -32602)');
  });

  it('does not ask a client that offers no form questions', async () => {
    const { agent, sessionId } = await start({ elicitation: { url: {} } });
    await agent.prompt(sessionId, '/elicit');
    expect(agent.elicitations).toEqual([]);
    expect(said(agent, sessionId)).toContain('does not take questions as forms');
  });

  it('withdraws its question with $/cancel_request when the turn is cancelled', async () => {
    const { agent, sessionId } = await start();
    let withdrawn!: () => void;
    const gone = new Promise<void>((resolve) => (withdrawn = resolve));
    agent.elicitationHandler = (_params, signal) =>
      new Promise((_, reject) => {
        signal.addEventListener('abort', () => {
          withdrawn();
          reject(signal.reason);
        });
        void agent.cancel(sessionId);
      });
    expect((await agent.prompt(sessionId, '/elicit')).stopReason).toBe('cancelled');
    await gone;
    expect(said(agent, sessionId)).toBe('The question was withdrawn: the turn was cancelled.');
  });
});

describe('/elicit url: a page to open', () => {
  it('asks to open the page and, once accepted, sends elicitation/complete for it', async () => {
    const { agent, sessionId } = await start();
    agent.elicitationHandler = () => ({ action: 'accept' });
    await agent.prompt(sessionId, '/elicit url 0');
    const request = agent.elicitations[0];
    expect(request).toMatchObject({ sessionId, mode: 'url', url: DEFAULT_ELICIT_URL, elicitationId: expect.any(String) });
    const id = idOf(request);
    await agent.waitForCompletion(id);
    expect(agent.completedElicitations).toEqual([id]);
    expect(said(agent, sessionId)).toContain(`Signed in (elicitation/complete sent for ${id}).`);
  });

  it('sends the URL it is given, deceptive or not, and no completion after a decline', async () => {
    const { agent, sessionId } = await start();
    agent.elicitationHandler = () => ({ action: 'decline' });
    await agent.prompt(sessionId, '/elicit url https://github.com@evil.example/login 0');
    expect(agent.elicitations[0]).toMatchObject({ mode: 'url', url: 'https://github.com@evil.example/login' });
    expect(said(agent, sessionId)).toBe('You declined to open the page.');
    // A later accepted one completes; notifications arrive in order, so a completion of the
    // declined one would be seen by then.
    agent.elicitationHandler = () => ({ action: 'accept' });
    await agent.prompt(sessionId, '/elicit url 0');
    const second = agent.elicitations[1];
    const id = idOf(second);
    await agent.waitForCompletion(id);
    expect(agent.completedElicitations).toEqual([id]);
  });

  it('does not ask a client that offers no URL questions', async () => {
    const { agent, sessionId } = await start({ elicitation: { form: {} } });
    await agent.prompt(sessionId, '/elicit url');
    expect(agent.elicitations).toEqual([]);
    expect(said(agent, sessionId)).toContain('does not open pages for the agent');
  });
});

describe('/cancel-request', () => {
  it('withdraws a permission request with $/cancel_request and reports the -32800 answer', async () => {
    const { agent, sessionId } = await start({});
    let sawAbort = false;
    // What the SDK's handler signal carries: RequestError -32800.
    agent.permissionHandler = (_params, signal) => untilWithdrawn(signal).finally(() => (sawAbort = true));
    expect((await agent.prompt(sessionId, '/cancel-request permission 10')).stopReason).toBe('end_turn');
    expect(sawAbort).toBe(true);
    expect(agent.permissionRequests).toHaveLength(1);
    expect(said(agent, sessionId)).toMatch(/^Withdrew the permission request with \$\/cancel_request; the client answered error -32800 \(/);
  });

  it('withdraws a form question the same way, by default when the client takes them', async () => {
    const { agent, sessionId } = await start();
    agent.elicitationHandler = (_params, signal) => untilWithdrawn(signal);
    await agent.prompt(sessionId, '/cancel-request 10');
    expect(agent.elicitations).toHaveLength(1);
    expect(said(agent, sessionId)).toMatch(/^Withdrew the elicit request with \$\/cancel_request; the client answered error -32800/);
  });

  it('says when the client answered before the request was withdrawn', async () => {
    const { agent, sessionId } = await start({});
    agent.permissionHandler = () => ({ outcome: { outcome: 'selected', optionId: 'allow_once' } });
    await agent.prompt(sessionId, '/cancel-request permission 60000');
    expect(said(agent, sessionId)).toBe('The client answered before the permission request was withdrawn: {"outcome":{"outcome":"selected","optionId":"allow_once"}}');
  });
});
