/**
 * Forks (issue 20) with the real demo agent, which advertises `sessionCapabilities.fork` and
 * implements `session/fork` (with `_meta.upToPrompt`); `/fork` says which session it is a fork
 * of and how many of its prompts it kept, `/history` how many earlier prompts it has.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { ofKind, type SessionEventT } from '../../shared/contract';
import { scriptedAgent } from '../test-support/scripted-agent';
import { startHarness, type Harness, type TestWindow } from '../test-support/host-harness';

let h: Harness | undefined;
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
});

async function conversation(): Promise<{ w: TestWindow; id: string }> {
  h = await startHarness();
  const w = h.window('window 1');
  const { id } = await w.call('sessions:create', { cwd: h.dataDir });
  await w.call('sessions:switch', { sessionId: id });
  await w.prompt(id, 'first message');
  await w.prompt(id, 'second message');
  return { w, id };
}

const userTexts = (events: SessionEventT[]) => events.filter(ofKind('user_message')).map((e) => e.payload.text);

describe('Fork', () => {
  it('is offered once the agent said it can fork; makes a session with the same agent and folders and the transcript so far, which the agent forks too', async () => {
    const { w, id } = await conversation();
    const source = (await w.call('sessions:list', {})).find((v) => v.id === id)!;
    expect(source.canFork).toBe(true);
    const fork = await w.call('sessions:fork', { sessionId: id });
    expect(fork).toMatchObject({ agentId: source.agentId, cwd: source.cwd, forkedFrom: id, title: source.title });
    expect(fork.id).not.toBe(id);

    const copied = h!.stored(fork.id);
    expect(userTexts(copied)).toEqual(['first message', 'second message']);
    expect(copied.filter(ofKind('notice')).at(-1)?.payload).toMatchObject({ kind: 'forked', sessionId: id, text: expect.stringContaining(source.title) });
    // The copies keep their times.
    expect(copied.filter(ofKind('user_message')).map((e) => e.at)).toEqual(h!.stored(id).filter(ofKind('user_message')).map((e) => e.at));

    await w.call('sessions:switch', { sessionId: fork.id, fromSessionId: id });
    await w.prompt(fork.id, '/fork');
    const parentAcp = h!.host.store.sessions.get(id)?.acp_session_id;
    expect(w.agentText(fork.id)).toContain(`This session is a fork of ${parentAcp}, with its first 2 prompts.`);
    const started = await w.waitFor('session:updated', (v) => v.id === fork.id && v.stateReason === 'forked');
    expect(started.canFork).toBe(true);
    // The source is untouched.
    expect(userTexts(h!.stored(id))).toEqual(['first message', 'second message']);
  });

  it('Edit and resend: forks before one of the person\'s messages, then the edited text goes to the fork', async () => {
    const { w, id } = await conversation();
    const second = h!.stored(id).filter(ofKind('user_message'))[1]!;
    const forkId = randomUUID();
    const fork = await w.call('sessions:fork', { sessionId: id, id: forkId, beforeSeq: second.seq });
    expect(fork.id).toBe(forkId);
    expect(userTexts(h!.stored(forkId))).toEqual(['first message']);
    expect(h!.stored(forkId).some((e) => e.kind === 'agent_message' && e.payload.text.includes('second message'))).toBe(false);

    await w.call('sessions:switch', { sessionId: forkId, fromSessionId: id });
    await w.prompt(forkId, 'second message, edited');
    await w.prompt(forkId, '/fork');
    expect(w.agentText(forkId)).toContain('Echo: second message, edited');
    expect(w.agentText(forkId)).toContain('with its first 1 prompts.');
    expect(userTexts(h!.stored(forkId))).toEqual(['first message', 'second message, edited', '/fork']);
  });

  it('refuses a fork point that is not one of the person\'s messages, and changes nothing', async () => {
    const { w, id } = await conversation();
    const reply = h!.stored(id).find((e) => e.kind === 'agent_message')!;
    const before = (await w.call('sessions:list', {})).length;
    await expect(w.call('sessions:fork', { sessionId: id, beforeSeq: reply.seq })).rejects.toMatchObject({ code: 'invalid_request' });
    expect((await w.call('sessions:list', {})).length).toBe(before);
  });

  it('is not offered, and refused, where the agent does not advertise session/fork', async () => {
    h = await startHarness({ agents: [scriptedAgent('plain', 'ignore-cancel')] });
    const w = h.window('window 1');
    const { id } = await w.call('sessions:create', { cwd: h.dataDir, agentId: 'plain' });
    await w.call('sessions:switch', { sessionId: id });
    const live = await w.waitForState(id, 'ACTIVE');
    expect(live.canFork).toBeUndefined();
    await expect(w.call('sessions:fork', { sessionId: id })).rejects.toMatchObject({ code: 'unsupported' });
  });
});
