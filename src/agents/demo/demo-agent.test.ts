import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as acp from '@agentclientprotocol/sdk';
import type { SessionNotification, SessionUpdate } from '@agentclientprotocol/sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { COMMAND_NAMES } from './commands';
import { DemoAgentProcess, isText } from '../test-support/demo-agent-process';

let dataDir: string;
const started: DemoAgentProcess[] = [];

function startAgent(): DemoAgentProcess {
  const agent = new DemoAgentProcess(dataDir);
  started.push(agent);
  return agent;
}

async function startInitialized(): Promise<DemoAgentProcess> {
  const agent = startAgent();
  await agent.initialize();
  return agent;
}

const kinds = (updates: SessionNotification[]): string[] => updates.map((u) => u.update.sessionUpdate);

function only<K extends SessionUpdate['sessionUpdate']>(
  updates: SessionNotification[],
  kind: K,
): Extract<SessionUpdate, { sessionUpdate: K }>[] {
  return updates
    .map((u) => u.update)
    .filter((u): u is Extract<SessionUpdate, { sessionUpdate: K }> => u.sessionUpdate === kind);
}

beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'demo-agent-test-'));
});

afterEach(async () => {
  await Promise.all(started.splice(0).map((a) => a.kill()));
  rmSync(dataDir, { recursive: true, force: true });
});

describe('demo agent: lifecycle', () => {
  it('advertises loadSession and session list/resume/close in initialize', async () => {
    const agent = startAgent();
    const init = await agent.initialize();
    expect(init.protocolVersion).toBe(acp.PROTOCOL_VERSION);
    expect(init.agentInfo?.name).toBe('demo-agent');
    expect(init.agentCapabilities?.loadSession).toBe(true);
    expect(init.agentCapabilities?.sessionCapabilities).toMatchObject({ list: {}, resume: {}, close: {}, delete: {} });
  });

  it('sends available commands and session info before the session/new answer resolves', async () => {
    const agent = await startInitialized();
    const seenAtAnswer = await agent.agent
      .request(acp.methods.agent.session.new, { cwd: '/tmp/project-a', mcpServers: [] })
      .then(({ sessionId }) => ({ sessionId, updates: agent.updatesFor(sessionId) }));
    expect(kinds(seenAtAnswer.updates)).toEqual(['available_commands_update', 'session_info_update']);
    const commands = only(seenAtAnswer.updates, 'available_commands_update')[0]?.availableCommands ?? [];
    expect(commands.map((c) => c.name)).toEqual([...COMMAND_NAMES]);
    expect(commands.every((c) => c.description.length > 0)).toBe(true);
    const info = only(seenAtAnswer.updates, 'session_info_update')[0];
    expect(info?.title).toBeUndefined();
    expect(info?.updatedAt).toEqual(expect.any(String));
  });

  it('exits with code 0 when stdin ends', async () => {
    const agent = await startInitialized();
    agent.child.stdin.end();
    expect(await agent.exited).toEqual({ code: 0, signal: null });
  });

  it('exits with code 0 on SIGTERM', async () => {
    const agent = await startInitialized();
    agent.child.kill('SIGTERM');
    expect((await agent.exited).code).toBe(0);
  });

  it('exits with code 1 on /crash, failing the pending prompt', async () => {
    const agent = await startInitialized();
    const sessionId = await agent.newSession('/tmp/project-a');
    const prompt = agent.prompt(sessionId, '/crash');
    await expect(prompt).rejects.toThrow();
    expect(await agent.exited).toEqual({ code: 1, signal: null });
  });

  it('tolerates unknown and underscore-prefixed notifications', async () => {
    const agent = await startInitialized();
    await agent.agent.notify('_vendor/ping', { hello: 1 });
    await agent.agent.notify('something/unknown', {});
    const sessionId = await agent.newSession('/tmp/project-a');
    expect((await agent.prompt(sessionId, 'still alive')).stopReason).toBe('end_turn');
  });
});

describe('demo agent: prompt turns', () => {
  it('echoes plain text in at least three message chunks after a thought', async () => {
    const agent = await startInitialized();
    const sessionId = await agent.newSession('/tmp/project-a');
    const before = agent.updates.length;
    expect((await agent.prompt(sessionId, 'hello world')).stopReason).toBe('end_turn');
    const turn = agent.updates.slice(before);
    const chunks = only(turn, 'agent_message_chunk');
    expect(chunks.length).toBeGreaterThanOrEqual(3);
    expect(agent.textOf(sessionId, 'agent_message_chunk')).toBe('Echo: hello world');
    expect(kinds(turn)[0]).toBe('agent_thought_chunk');
  });

  it('ends /slow with stopReason cancelled promptly after session/cancel', async () => {
    const agent = await startInitialized();
    const sessionId = await agent.newSession('/tmp/project-a');
    const prompt = agent.prompt(sessionId, '/slow 30');
    await agent.waitForUpdate((n) => isText(n, 'agent_message_chunk', 'tick 1 '));
    const cancelledAt = Date.now();
    await agent.cancel(sessionId);
    expect((await prompt).stopReason).toBe('cancelled');
    expect(Date.now() - cancelledAt).toBeLessThan(1000);
    expect(agent.textOf(sessionId, 'agent_message_chunk')).not.toContain('Done after');
  });

  it('finishes a short /slow with its closing message', async () => {
    const agent = await startInitialized();
    const sessionId = await agent.newSession('/tmp/project-a');
    expect((await agent.prompt(sessionId, '/slow 1')).stopReason).toBe('end_turn');
    const text = agent.textOf(sessionId, 'agent_message_chunk');
    expect(text).toContain('tick 10 ');
    expect(text.endsWith('Done after 1s')).toBe(true);
  });

  it('rejects a second prompt while a turn runs in the same session, but not in another', async () => {
    const agent = await startInitialized();
    const a = await agent.newSession('/tmp/project-a');
    const b = await agent.newSession('/tmp/project-b');
    const hanging = agent.prompt(a, '/hang');
    await expect(agent.prompt(a, 'again')).rejects.toMatchObject({ code: -32600 });
    expect((await agent.prompt(b, 'independent')).stopReason).toBe('end_turn');
    await agent.cancel(a);
    expect((await hanging).stopReason).toBe('cancelled');
  });

  it('honours a session/cancel sent right behind its prompt', async () => {
    const agent = await startInitialized();
    const sessionId = await agent.newSession('/tmp/project-a');
    const hanging = agent.prompt(sessionId, '/hang');
    void agent.cancel(sessionId);
    expect((await hanging).stopReason).toBe('cancelled');
  });

  it('runs a /permission round trip and reports the chosen option', async () => {
    const agent = await startInitialized();
    const sessionId = await agent.newSession('/tmp/project-a');
    agent.permissionHandler = () => ({ outcome: { outcome: 'selected', optionId: 'allow_once' } });
    expect((await agent.prompt(sessionId, '/permission Edit greeting')).stopReason).toBe('end_turn');

    const request = agent.permissionRequests[0];
    expect(request?.options.map((o) => [o.optionId, o.name, o.kind])).toEqual([
      ['allow_once', 'Allow once', 'allow_once'],
      ['allow_always', 'Allow always', 'allow_always'],
      ['reject_once', 'Reject once', 'reject_once'],
      ['reject_always', 'Reject always', 'reject_always'],
    ]);
    const turn = agent.updatesFor(sessionId);
    const call = only(turn, 'tool_call')[0];
    expect(call).toMatchObject({ kind: 'edit', title: 'Edit greeting', status: 'pending' });
    expect(call?.locations?.[0]?.path.startsWith('/tmp/project-a/')).toBe(true);
    expect(call?.content?.[0]).toMatchObject({ type: 'diff', newText: expect.any(String) });
    expect(request?.toolCall.toolCallId).toBe(call?.toolCallId);
    expect(agent.textOf(sessionId, 'agent_message_chunk')).toBe('Permission outcome: allow_once');
    expect(only(turn, 'tool_call_update').at(-1)).toMatchObject({ toolCallId: call?.toolCallId, status: 'completed' });
  });

  it('fails the tool call when permission is rejected', async () => {
    const agent = await startInitialized();
    const sessionId = await agent.newSession('/tmp/project-a');
    agent.permissionHandler = () => ({ outcome: { outcome: 'selected', optionId: 'reject_once' } });
    expect((await agent.prompt(sessionId, '/permission Edit')).stopReason).toBe('end_turn');
    expect(agent.textOf(sessionId, 'agent_message_chunk')).toBe('Permission outcome: reject_once');
    expect(only(agent.updatesFor(sessionId), 'tool_call_update').at(-1)?.status).toBe('failed');
  });

  it('ends /permission as cancelled when the turn is cancelled while asking', async () => {
    const agent = await startInitialized();
    const sessionId = await agent.newSession('/tmp/project-a');
    // A well-behaved client answers pending permission requests "cancelled" after session/cancel.
    agent.permissionHandler = async () => {
      await agent.cancel(sessionId);
      return { outcome: { outcome: 'cancelled' } };
    };
    expect((await agent.prompt(sessionId, '/permission Edit')).stopReason).toBe('cancelled');
    expect(agent.textOf(sessionId, 'agent_message_chunk')).toBe('Permission outcome: cancelled');
    expect(only(agent.updatesFor(sessionId), 'tool_call_update').at(-1)?.status).toBe('failed');
  });

  it('walks /tool through pending, in_progress and completed', async () => {
    const agent = await startInitialized();
    const sessionId = await agent.newSession('/tmp/project-a');
    expect((await agent.prompt(sessionId, '/tool Read README')).stopReason).toBe('end_turn');
    const turn = agent.updatesFor(sessionId);
    const call = only(turn, 'tool_call')[0];
    expect(call).toMatchObject({ title: 'Read README', kind: 'read', status: 'pending' });
    const steps = only(turn, 'tool_call_update');
    expect(steps.map((s) => s.status)).toEqual(['in_progress', 'completed']);
    expect(steps[1]?.content?.[0]).toMatchObject({ type: 'content', content: { type: 'text' } });
  });

  it('sends a three-entry /plan', async () => {
    const agent = await startInitialized();
    const sessionId = await agent.newSession('/tmp/project-a');
    await agent.prompt(sessionId, '/plan');
    const entries = only(agent.updatesFor(sessionId), 'plan')[0]?.entries ?? [];
    expect(entries).toHaveLength(3);
    for (const e of entries) expect(e).toMatchObject({ content: expect.any(String), priority: expect.any(String), status: expect.any(String) });
  });

  it('renames the session with /title and lists the new title', async () => {
    const agent = await startInitialized();
    const sessionId = await agent.newSession('/tmp/project-a');
    await agent.prompt(sessionId, '/title Refactor parser');
    expect(only(agent.updatesFor(sessionId), 'session_info_update').at(-1)?.title).toBe('Refactor parser');
    const { sessions } = await agent.agent.request(acp.methods.agent.session.list, {});
    expect(sessions.find((s) => s.sessionId === sessionId)?.title).toBe('Refactor parser');
  });

  it('delivers all 100000 /flood chunks in order and coalesces them in history', async () => {
    const agent = await startInitialized();
    const sessionId = await agent.newSession('/tmp/project-a');
    const before = agent.updates.length;
    const startedAt = Date.now();
    expect((await agent.prompt(sessionId, '/flood 100000')).stopReason).toBe('end_turn');
    const elapsed = Date.now() - startedAt;
    const chunks = only(agent.updates.slice(before), 'agent_message_chunk');
    expect(chunks).toHaveLength(100_000);
    expect(chunks[0]?.content).toEqual({ type: 'text', text: 'flood 1\n' });
    expect(chunks.at(-1)?.content).toEqual({ type: 'text', text: 'flood 100000\n' });
    expect(elapsed).toBeLessThan(20_000);
    const lines = readFileSync(join(dataDir, 'sessions', `${sessionId}.jsonl`), 'utf8').trim().split('\n');
    expect(lines.length).toBeLessThan(50);
  }, 60_000);
  it('/pace sends N chunks at the asked rate, each naming its index and send time', async () => {
    const agent = await startInitialized();
    const sessionId = await agent.newSession('/tmp/project-a');
    const before = agent.updates.length;
    const startedAt = performance.timeOrigin + performance.now();
    expect((await agent.prompt(sessionId, '/pace 50 500')).stopReason).toBe('end_turn');
    const texts = only(agent.updates.slice(before), 'agent_message_chunk').map((c) => (c.content.type === 'text' ? c.content.text : ''));
    expect(texts).toHaveLength(50);
    const parsed = texts.map((t) => /^pace (\d+) (\d+\.\d{3})\n$/.exec(t));
    expect(parsed.map((m) => Number(m?.[1]))).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    const times = parsed.map((m) => Number(m?.[2]));
    expect(times[0]).toBeGreaterThanOrEqual(startedAt);
    // 50 chunks at 500/s: the last is not sent before 49 × 2 ms after the turn began, and all in order.
    expect(times.at(-1)! - startedAt).toBeGreaterThanOrEqual(98);
    expect(times.every((t, i) => i === 0 || t >= times[i - 1]!)).toBe(true);
  });
});

describe('demo agent: sessions across processes', () => {
  it('counts earlier prompts with /history after a restart, via load (replay) and resume (no replay)', async () => {
    const first = await startInitialized();
    const sessionId = await first.newSession('/tmp/project-a');
    await first.prompt(sessionId, 'one');
    await first.prompt(sessionId, 'two');
    await first.prompt(sessionId, '/history');
    expect(first.textOf(sessionId, 'agent_message_chunk')).toContain('History: 2 earlier prompts');
    await first.kill();

    const second = await startInitialized();
    // A new process knows nothing live: prompting before load/resume is "session not found".
    await expect(second.prompt(sessionId, 'too early')).rejects.toMatchObject({ code: -32002 });
    const atLoadAnswer = await second.agent
      .request(acp.methods.agent.session.load, { sessionId, cwd: '/tmp/project-a', mcpServers: [] })
      .then(() => second.updatesFor(sessionId).length);
    expect(atLoadAnswer).toBe(second.updatesFor(sessionId).length);
    expect(second.textOf(sessionId, 'user_message_chunk')).toBe('onetwo/history');
    expect(second.textOf(sessionId, 'agent_message_chunk')).toBe(
      'Echo: oneEcho: twoHistory: 2 earlier prompts',
    );
    const replayed = second.updatesFor(sessionId).map((u) => u.update.sessionUpdate);
    expect(replayed.indexOf('user_message_chunk')).toBeLessThan(replayed.indexOf('agent_message_chunk'));
    const before = second.updates.length;
    await second.prompt(sessionId, '/history');
    expect(second.updates.slice(before).some((n) => isText(n, 'agent_message_chunk', 'History: 3 earlier prompts'))).toBe(true);
    await second.kill();

    const third = await startInitialized();
    await third.agent.request(acp.methods.agent.session.resume, { sessionId, cwd: '/tmp/project-a' });
    expect(kinds(third.updatesFor(sessionId)).filter((k) => k.endsWith('message_chunk'))).toEqual([]);
    await third.prompt(sessionId, '/history');
    expect(third.textOf(sessionId, 'agent_message_chunk')).toBe('History: 4 earlier prompts');
  });

  it('keeps the partial output of a cancelled turn in history', async () => {
    const first = await startInitialized();
    const sessionId = await first.newSession('/tmp/project-a');
    const prompt = first.prompt(sessionId, '/slow 30');
    await first.waitForUpdate((n) => isText(n, 'agent_message_chunk', 'tick 2 '));
    await first.cancel(sessionId);
    await prompt;
    const said = first.textOf(sessionId, 'agent_message_chunk');
    first.child.stdin.end();
    await first.exited;

    const second = await startInitialized();
    await second.agent.request(acp.methods.agent.session.load, { sessionId, cwd: '/tmp/project-a', mcpServers: [] });
    expect(second.textOf(sessionId, 'agent_message_chunk')).toBe(said);
  });

  it('lists stored sessions with cwd, title and updatedAt, honouring the cwd filter', async () => {
    const agent = await startInitialized();
    const a = await agent.newSession('/tmp/project-a');
    const b = await agent.newSession('/tmp/project-b');
    const all = await agent.agent.request(acp.methods.agent.session.list, {});
    expect(all.sessions.map((s) => s.sessionId).sort()).toEqual([a, b].sort());
    for (const s of all.sessions) {
      expect(s).toMatchObject({ title: 'Demo session', updatedAt: expect.any(String) });
    }
    const filtered = await agent.agent.request(acp.methods.agent.session.list, { cwd: '/tmp/project-b' });
    expect(filtered.sessions).toEqual([expect.objectContaining({ sessionId: b, cwd: '/tmp/project-b' })]);
  });

  it('answers -32002 for load and resume of an unknown session', async () => {
    const agent = await startInitialized();
    const params = { sessionId: 'no-such-session', cwd: '/tmp/project-a', mcpServers: [] };
    await expect(agent.agent.request(acp.methods.agent.session.load, params)).rejects.toMatchObject({ code: -32002 });
    await expect(agent.agent.request(acp.methods.agent.session.resume, params)).rejects.toMatchObject({ code: -32002 });
  });

  it('cancels the running turn on session/close and forgets the session', async () => {
    const agent = await startInitialized();
    const sessionId = await agent.newSession('/tmp/project-a');
    const hanging = agent.prompt(sessionId, '/hang');
    // The busy rejection proves the turn is running before we close.
    await expect(agent.prompt(sessionId, 'busy?')).rejects.toMatchObject({ code: -32600 });
    await agent.agent.request(acp.methods.agent.session.close, { sessionId });
    expect((await hanging).stopReason).toBe('cancelled');
    await expect(agent.prompt(sessionId, 'after close')).rejects.toMatchObject({ code: -32002 });
  });
});
