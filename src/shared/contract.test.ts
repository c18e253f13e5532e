import { describe, expect, it } from 'vitest';
import { commandNameList, eventNameList } from './channels';
import { commands, events, SendPrompt, SessionEvent, TranscriptPage, CreateSession } from './contract';

describe('the contract', () => {
  it('names the same commands and events as the zod-free channel list the preload uses', () => {
    expect([...commandNameList].sort()).toEqual(Object.keys(commands).sort());
    expect([...eventNameList].sort()).toEqual(Object.keys(events).sort());
  });

  it('names commands domain:verb and events domain:noun', () => {
    for (const name of [...Object.keys(commands), ...Object.keys(events)]) expect(name).toMatch(/^[a-z]+:[a-z]+$/);
  });

  it('accepts a well-formed prompt and refuses bad ones', () => {
    const ok = { sessionId: crypto.randomUUID(), clientMessageId: crypto.randomUUID(), text: 'hi' };
    expect(SendPrompt.safeParse(ok).success).toBe(true);
    expect(SendPrompt.safeParse({ ...ok, text: '' }).success).toBe(false);
    expect(SendPrompt.safeParse({ ...ok, sessionId: 'not-a-uuid' }).success).toBe(false);
    expect(SendPrompt.safeParse({ ...ok, extra: 1 }).success).toBe(false);
    expect(SendPrompt.safeParse({ ...ok, retry: 'yes' }).success).toBe(false);
  });

  it('defaults and bounds the transcript page size', () => {
    const sessionId = crypto.randomUUID();
    expect(TranscriptPage.parse({ sessionId })).toEqual({ sessionId, limit: 200 });
    expect(TranscriptPage.safeParse({ sessionId, limit: 0 }).success).toBe(false);
    expect(TranscriptPage.safeParse({ sessionId, limit: 5000 }).success).toBe(false);
    expect(TranscriptPage.safeParse({ sessionId, beforeSeq: 0 }).success).toBe(false);
  });

  it('refuses unknown fields when creating a session', () => {
    expect(CreateSession.safeParse({}).success).toBe(true);
    expect(CreateSession.safeParse({ agentId: '' }).success).toBe(false);
    expect(CreateSession.safeParse({ cwd: '/tmp', shell: 'rm -rf' }).success).toBe(false);
  });

  it('describes stored events with a positive seq', () => {
    const e = { sessionId: crypto.randomUUID(), seq: 1, kind: 'agent_message', payload: { text: 'x' }, at: 1 };
    expect(SessionEvent.safeParse(e).success).toBe(true);
    expect(SessionEvent.safeParse({ ...e, seq: 0 }).success).toBe(false);
    expect(SessionEvent.safeParse({ ...e, kind: 'made_up' }).success).toBe(false);
  });
});
