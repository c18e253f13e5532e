import { afterEach, describe, expect, it } from 'vitest';
import type { AgentLogEntryT, EventPayload } from '../../shared/contract';
import { captureLogger, type LogEntry } from '../test-support/capture-logger';
import { startHarness, type Harness, type TestWindow, liveSession } from '../test-support/host-harness';
import type { HostOptions } from './session-host';

/** The Agent log through the real host with real demo agent processes (issue 11). */

const harnesses: Harness[] = [];

afterEach(async () => {
  for (const h of harnesses.splice(0)) await h.cleanup();
});

async function harness(options: Partial<HostOptions> = {}): Promise<Harness> {
  const h = await startHarness(options);
  harnesses.push(h);
  return h;
}

/** Every Agent log line pushed to `w` for the session, in order. */
function pushed(w: TestWindow, sessionId: string): AgentLogEntryT[] {
  return w.events
    .filter((e) => e.event === 'agent:log' && (e.payload as EventPayload<'agent:log'>).sessionId === sessionId)
    .flatMap((e) => (e.payload as EventPayload<'agent:log'>).entries);
}

function untilPushed(w: TestWindow, sessionId: string, check: (entries: AgentLogEntryT[]) => boolean, what: string): Promise<void> {
  return w.until(() => check(pushed(w, sessionId)), what);
}

const stderrText = (entries: AgentLogEntryT[]): string =>
  entries.flatMap((e) => (e.kind === 'stderr' ? [e.text] : [])).join('\n');

describe('Agent log', () => {
  it('opens with the stderr the agent printed, then follows new lines live', async () => {
    const h = await harness();
    const w = h.window();
    const id = await liveSession(h, w);

    const log = await w.call('agents:log', { sessionId: id });
    expect(log.live).toBe(true);
    expect(log.agentName).toBe('Demo agent');
    expect(log.logFile).toMatch(/agent-demo-[0-9a-f]{8}\.log$/);
    expect(stderrText(log.entries)).toContain('demo-agent ready');

    // /crash writes its reason to stderr, then the process exits.
    await w.call('prompt:send', { sessionId: id, clientMessageId: crypto.randomUUID(), text: '/crash' });
    await untilPushed(w, id, (e) => stderrText(e).includes('crashing on request'), 'the crash line');
    await untilPushed(w, id, (e) => e.some((x) => x.kind === 'note' && x.text.includes('exited with code 1')), 'the exit note');

    // After the agent is gone the backlog still comes from its file.
    const after = await w.call('agents:log', { sessionId: id, follow: false });
    expect(after.live).toBe(false);
    expect(stderrText(after.entries)).toContain('crashing on request');
  });

  it('pushes lines only to windows that opened the log, and stops after agents:unfollow', async () => {
    const h = await harness();
    const opener = h.window('opener');
    const other = h.window('other');
    const id = await liveSession(h, opener);
    await other.call('sessions:switch', { sessionId: id });
    await opener.call('agents:log', { sessionId: id });

    await opener.call('settings:update', { logProtocol: true });
    await opener.prompt(id, 'hello');
    await untilPushed(opener, id, (e) => e.some((x) => x.kind === 'protocol'), 'protocol lines');
    expect(pushed(other, id)).toEqual([]);

    await opener.call('agents:unfollow', { sessionId: id });
    const mark = opener.mark();
    await opener.prompt(id, 'again');
    await h.settled(id);
    expect(opener.events.slice(mark).filter((e) => e.event === 'agent:log')).toEqual([]);
  });

  it('records ACP messages both ways while "Show protocol messages" is on, and none while off', async () => {
    const h = await harness();
    const w = h.window();
    const id = await liveSession(h, w);
    await w.call('agents:log', { sessionId: id });

    await w.prompt(id, 'quiet');
    expect(pushed(w, id).filter((e) => e.kind === 'protocol')).toEqual([]);

    await w.call('settings:update', { logProtocol: true });
    await w.prompt(id, 'loud');
    await untilPushed(w, id, (e) => e.some((x) => x.kind === 'protocol' && x.direction === 'in' && x.method === 'session/update'), 'an update from the agent');
    const protocol = pushed(w, id).flatMap((e) => (e.kind === 'protocol' ? [e] : []));
    const prompt = protocol.find((e) => e.direction === 'out' && e.method === 'session/prompt');
    expect(prompt?.text).toContain('loud');
    expect(protocol.some((e) => e.direction === 'in' && e.method === undefined && e.text.includes('end_turn'))).toBe(true);

    // Written to the file too: a reopened log (or a bug report) has them.
    const reopened = await w.call('agents:log', { sessionId: id, follow: false });
    expect(reopened.entries.some((e) => e.kind === 'protocol' && e.method === 'session/prompt')).toBe(true);

    await w.call('settings:update', { logProtocol: false });
    const before = pushed(w, id).filter((e) => e.kind === 'protocol').length;
    await w.prompt(id, 'quiet again');
    await h.settled(id);
    expect(pushed(w, id).filter((e) => e.kind === 'protocol')).toHaveLength(before);
  });

  it('logs an unknown notification and an unknown request by name, and answers the request method-not-found', async () => {
    const lines: LogEntry[] = [];
    const h = await harness({ log: captureLogger(lines) });
    const w = h.window();
    const id = await liveSession(h, w);
    await w.call('agents:log', { sessionId: id });

    await w.prompt(id, '/ext');
    expect(w.agentText(id)).toContain('demo/drainQueue was answered: error -32601');
    // A `_`-prefixed extension request we do not know is method-not-found too.
    expect(w.agentText(id)).toContain('_demo/status was answered: error -32601');
    await untilPushed(w, id, (e) => e.filter((x) => x.kind === 'unknown_method').length === 3, 'every unknown method');
    expect(pushed(w, id).filter((e) => e.kind === 'unknown_method')).toEqual([
      expect.objectContaining({ message: 'notification', method: '_demo/heartbeat' }),
      expect.objectContaining({ message: 'request', method: 'demo/drainQueue' }),
      expect.objectContaining({ message: 'request', method: '_demo/status' }),
    ]);
    expect(lines).toContainEqual(expect.objectContaining({ level: 'info', fields: expect.objectContaining({ agent: 'demo', method: '_demo/heartbeat' }) }));
    expect(lines).toContainEqual(expect.objectContaining({ level: 'warn', fields: expect.objectContaining({ agent: 'demo', method: 'demo/drainQueue' }) }));
    expect(lines).toContainEqual(expect.objectContaining({ level: 'warn', fields: expect.objectContaining({ agent: 'demo', method: '_demo/status' }) }));

    // The host logs each name once per agent process, however often the agent repeats it.
    await w.prompt(id, '/ext');
    expect(lines.filter((l) => l.fields?.method === 'demo/drainQueue')).toHaveLength(1);
  });
});

describe('session view progress', () => {
  it('carries when the running turn began and when the agent last said something', async () => {
    const h = await harness();
    const w = h.window();
    const id = await liveSession(h, w);
    const before = Date.now();
    await w.call('prompt:send', { sessionId: id, clientMessageId: crypto.randomUUID(), text: '/slow 1' });
    const running = await w.waitFor('session:updated', (v) => v.id === id && v.running && v.turnStartedAt !== undefined);
    expect(running.turnStartedAt).toBeGreaterThanOrEqual(before);

    await w.waitForText(id, 'tick 3');
    // A window switching to it now reads both from the view.
    const other = h.window('late');
    const answer = await other.call('sessions:switch', { sessionId: id });
    expect(answer.session.turnStartedAt).toBe(running.turnStartedAt);
    expect(answer.session.lastAgentActivityAt).toBeGreaterThan(running.turnStartedAt!);

    await w.waitIdle(id);
    const idle = await w.waitForRunning(id, false);
    expect(idle.turnStartedAt).toBeUndefined();
  });
});
