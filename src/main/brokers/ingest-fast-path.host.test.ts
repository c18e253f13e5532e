import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startHarness, type Harness } from '../test-support/host-harness';
import { sessionNotificationSchema, sessionUpdateValidator } from './session-update-schema';

let h: Harness | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await h?.cleanup();
  h = undefined;
});

/** A live session on the demo agent that a window watches. */
async function watchedSession(harness: Harness) {
  const w = harness.window();
  const id = randomUUID();
  await w.call('sessions:create', { id });
  await w.call('sessions:switch', { sessionId: id });
  await w.waitForState(id, 'ACTIVE');
  return { w, id };
}

describe('ingest fast path with the demo agent', () => {
  it('validates each update of a flood once, outside the SDK, and stores the turn’s text whole and in order before its end', async () => {
    // The same module instance the SDK validates with: its `parse` is the SDK's path; the fast
    // path validates with `sessionUpdateValidator` (text chunks first, then that schema).
    const schema = sessionNotificationSchema() as unknown as { parse: (v: unknown) => unknown };
    const sdkParse = vi.spyOn(schema, 'parse');
    const fastParse = vi.spyOn(sessionUpdateValidator()!, 'safeParse');
    h = await startHarness();
    const { w, id } = await watchedSession(h);
    const count = 20_000;
    const ended = await w.prompt(id, `/flood ${count}`);

    const expected = Array.from({ length: count }, (_, i) => `flood ${i + 1}\n`).join('');
    const stored = h.stored(id);
    const messages = stored.filter((e) => e.kind === 'agent_message');
    expect(messages.map((e) => String(e.payload.text)).join('')).toBe(expected);
    expect(ended.seq).toBeGreaterThan(Math.max(...messages.map((e) => e.seq)));
    expect(w.agentText(id)).toBe(expected);
    // The flood's compact text chunks were read by their shape (`text-chunk-line.ts`), the two
    // setup updates (commands, session info) by the schema; none went through the SDK's parse.
    expect(fastParse.mock.calls.length).toBeGreaterThanOrEqual(2);
    expect(fastParse.mock.calls.length).toBeLessThan(100);
    expect(sdkParse).not.toHaveBeenCalled();
  });

  it('keeps the updates of every turn before that turn’s answer, prompt after prompt', async () => {
    h = await startHarness();
    const { w, id } = await watchedSession(h);
    for (const text of ['/flood 300', '/tool Read a file', '/plan', 'hello']) await w.prompt(id, text);

    // Each turn: its user message, its updates, then its end; nothing of a turn after its end.
    const kinds = h.stored(id).map((e) => e.kind);
    const turns: string[][] = [];
    for (const kind of kinds) {
      if (kind === 'user_message') turns.push([]);
      turns.at(-1)?.push(kind);
    }
    expect(turns).toHaveLength(4);
    for (const turn of turns) {
      expect(turn.at(-1)).toBe('turn_ended');
      expect(turn.filter((k) => k === 'turn_ended')).toHaveLength(1);
      expect(turn.length).toBeGreaterThan(2);
    }
    expect(w.agentText(id)).toContain('Echo: hello');
  });
});
