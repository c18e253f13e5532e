/**
 * `$/cancel_request` both ways (issue 20), with the real demo agent. Switchboard cancels on
 * the wire every request it stops waiting for (a session closed while it starts or runs a
 * turn, a probe or Test that timed out, a sign-in given up on), and the demo agent reports
 * each cancel it receives on stderr (`--slow` makes the request wait long enough for that);
 * requests the agent withdraws (a permission, a terminal wait) are withdrawn here too.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentDefinition } from '../brokers/agent-definition';
import { cancelledLine, demoAgent, slowLine } from '../test-support/demo-agent';
import { startHarness, type Harness, type TestWindow } from '../test-support/host-harness';
import type { HostOptions } from './session-host';
import { FakeClock } from '../test-support/fake-clock';
import { tempDir } from '../test-support/temp-dir';

let h: Harness | undefined;
const dirs: (() => void)[] = [];
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
  for (const cleanup of dirs.splice(0)) cleanup();
});

/** A demo agent (its own data folder unless given) started with `args`. */
function agent(id: string, args: string[], dataDir?: string): AgentDefinition {
  let dir = dataDir;
  if (!dir) {
    const made = tempDir('demo-cancel-');
    dirs.push(made.cleanup);
    dir = made.path;
  }
  return { ...demoAgent(dir, args), id, name: `Demo agent (${id})` };
}

/** Every stderr line any agent (probes included) writes from now on. */
function watchStderr(harness: Harness): { lines: string[]; saw(line: string): Promise<void> } {
  const lines: string[] = [];
  const waiters: { line: string; resolve(): void }[] = [];
  harness.host.pool.onDidLog(({ entries }) => {
    for (const e of entries) if (e.kind === 'stderr') lines.push(e.text);
    for (const w of waiters.splice(0)) {
      if (lines.includes(w.line)) w.resolve();
      else waiters.push(w);
    }
  });
  return {
    lines,
    saw: (line) =>
      lines.includes(line)
        ? Promise.resolve()
        : new Promise((resolve, reject) => {
            const timer = setTimeout(() => reject(new Error(`no agent wrote "${line}"; it wrote:\n${lines.join('\n')}`)), 15_000);
            waiters.push({
              line,
              resolve: () => {
                clearTimeout(timer);
                resolve();
              },
            });
          }),
  };
}

async function start(options: Partial<HostOptions>) {
  h = await startHarness(options);
  return { w: h.window('window 1'), stderr: watchStderr(h) };
}

describe('Switchboard cancels the requests it stops waiting for', () => {
  it('a session closed while session/new runs: the agent gets $/cancel_request for it', async () => {
    const { w, stderr } = await start({ agents: [agent('slow-new', ['--slow', 'session/new=60000'])] });
    const { id } = await w.call('sessions:create', { cwd: h!.dataDir, agentId: 'slow-new' });
    await stderr.saw(slowLine('session/new', 60_000));
    await w.call('sessions:close', { sessionId: id });
    await stderr.saw(cancelledLine('session/new'));
    expect(h!.stored(id).filter((e) => e.kind === 'error')).toEqual([]);
  });

  it('a session closed while session/resume runs', async () => {
    const { w, stderr } = await start({ agents: [agent('slow-resume', ['--slow', 'session/resume=60000'])] });
    const { id } = await w.call('sessions:create', { cwd: h!.dataDir, agentId: 'slow-resume' });
    await w.call('sessions:switch', { sessionId: id });
    await w.waitForState(id, 'ACTIVE');
    await w.call('sessions:close', { sessionId: id });
    // The next prompt resumes it (a new agent process, whose resume is slow); closed meanwhile.
    const mark = w.mark();
    await w.call('prompt:send', { sessionId: id, clientMessageId: randomUUID(), text: 'hello' });
    await w.waitForState(id, 'STARTING', undefined, mark);
    await stderr.saw(slowLine('session/resume', 60_000));
    await w.call('sessions:close', { sessionId: id });
    await stderr.saw(cancelledLine('session/resume'));
  });

  it('a session closed while session/load runs (an agent session opened from its list)', async () => {
    const shared = tempDir('demo-cancel-');
    dirs.push(shared.cleanup);
    const { w, stderr } = await start({
      agents: [agent('fast', [], shared.path), agent('slow-load', ['--slow', 'session/load=60000'], shared.path)],
    });
    // The agent's own session, made by one launch and opened through another that loads slowly.
    const first = await w.call('sessions:create', { cwd: h!.dataDir, agentId: 'fast' });
    await w.call('sessions:switch', { sessionId: first.id });
    await w.waitForState(first.id, 'ACTIVE');
    const acpSessionId = h!.host.store.sessions.get(first.id)?.acp_session_id;
    expect(acpSessionId).toBeTruthy();
    const opened = await w.call('sessions:create', { cwd: h!.dataDir, agentId: 'slow-load', acpSessionId: acpSessionId! });
    await stderr.saw(slowLine('session/load', 60_000));
    await w.call('sessions:close', { sessionId: opened.id });
    await stderr.saw(cancelledLine('session/load'));
  });

  it('a turn the host stops waiting for (the session closed under it): $/cancel_request for session/prompt', async () => {
    const { w, stderr } = await start({});
    const { id } = await w.call('sessions:create', { cwd: h!.dataDir });
    await w.call('sessions:switch', { sessionId: id });
    await w.call('prompt:send', { sessionId: id, clientMessageId: randomUUID(), text: '/hang' });
    await w.waitForRunning(id, true);
    await w.waitFor('session:event', (e) => e.sessionId === id && e.kind === 'turn_started');
    await w.call('sessions:close', { sessionId: id });
    await stderr.saw(cancelledLine('session/prompt'));
  });

  // The probes' deadlines run on a fake clock, moved once the request is known to be waiting:
  // an agent still booting when a real deadline passed would prove nothing.
  it('a Test of an agent that does not answer initialize in time', async () => {
    const clock = new FakeClock();
    const { w, stderr } = await start({ clock, agents: [agent('slow-init', ['--slow', 'initialize=60000'])], agentTestTimeoutMs: 500 });
    const result = w.call('agents:test', { agentId: 'slow-init' });
    await stderr.saw(slowLine('initialize', 60_000));
    await clock.advance(500);
    expect(await result).toMatchObject({ ok: false, message: expect.stringMatching(/did not answer initialize within 500 ms/) });
    await stderr.saw(cancelledLine('initialize'));
  });

  it("a probe listing the agent's sessions that timed out", async () => {
    const clock = new FakeClock();
    const { w, stderr } = await start({ clock, agents: [agent('slow-list', ['--slow', 'session/list=60000'])], agentTestTimeoutMs: 500 });
    const listed = w.call('agents:sessions', { agentId: 'slow-list' });
    await stderr.saw(slowLine('session/list', 60_000));
    await clock.advance(500);
    await expect(listed).rejects.toThrow(/did not answer session\/list within 500 ms/);
    await stderr.saw(cancelledLine('session/list'));
  });

  it('a sign-in from Settings given up on: $/cancel_request for authenticate', async () => {
    const clock = new FakeClock();
    const { w, stderr } = await start({ clock, agents: [agent('slow-auth', ['--auth', 'required', '--slow', 'authenticate=60000'])], agentTestTimeoutMs: 500 });
    const signedIn = w.call('agents:signin', { agentId: 'slow-auth', methodId: 'demo-login' });
    await stderr.saw(slowLine('authenticate', 60_000));
    await clock.advance(500);
    await expect(signedIn).rejects.toThrow(/did not answer authenticate within 500 ms/);
    await stderr.saw(cancelledLine('authenticate'));
  });
});

describe('requests the agent withdraws', () => {
  /** A new session on the demo agent, watched by one window, with `text` sent to it. */
  async function promptedSession(text: string): Promise<{ w: TestWindow; id: string }> {
    const { w } = await start({});
    const { id } = await w.call('sessions:create', { cwd: h!.dataDir });
    await w.call('sessions:switch', { sessionId: id });
    await w.call('prompt:send', { sessionId: id, clientMessageId: randomUUID(), text });
    return { w, id };
  }

  it('a permission request: withdrawn from every window, answered -32800', async () => {
    const { w } = await start({});
    const other = h!.window('window 2');
    const { id } = await w.call('sessions:create', { cwd: h!.dataDir });
    await w.call('sessions:switch', { sessionId: id });
    await other.call('sessions:switch', { sessionId: id });
    await w.call('prompt:send', { sessionId: id, clientMessageId: randomUUID(), text: '/cancel-request permission 300' });
    const asked = await w.waitFor('permission:requested', (p) => p.sessionId === id);
    await other.waitFor('permission:requested', (p) => p.requestId === asked.requestId);
    await w.waitFor('permission:resolved', (r) => r.requestId === asked.requestId);
    await other.waitFor('permission:resolved', (r) => r.requestId === asked.requestId);
    await w.waitForText(id, 'Withdrew the permission request with $/cancel_request; the client answered {"outcome":{"outcome":"cancelled"}}');
    const resolved = h!.stored(id).find((e) => e.kind === 'permission_resolved');
    expect(resolved?.payload).toMatchObject({ outcome: 'cancelled', decider: { kind: 'cancel', reason: 'agent_withdrew' } });
    expect(h!.host.gate.countFor(id)).toBe(0);
  });

  it('a permission request withdrawn as it is sent: answered cancelled, nothing left waiting for a window', async () => {
    const { w, id } = await promptedSession('/cancel-request permission 0');
    await w.waitForText(id, 'Withdrew the permission request with $/cancel_request; the client answered {"outcome":{"outcome":"cancelled"}}');
    await w.waitIdle(id);
    expect(h!.host.gate.countFor(id)).toBe(0);
    // Shown to the window or not (the cancel may come before the request is read), never left there.
    const ids = (event: 'permission:requested' | 'permission:resolved'): string[] =>
      w.events.filter((e) => e.event === event && (e.payload as { sessionId: string }).sessionId === id).map((e) => (e.payload as { requestId: string }).requestId);
    expect(ids('permission:resolved').sort()).toEqual(ids('permission:requested').sort());
  });

  it('a terminal/wait_for_exit: the host stops waiting and answers -32800; the command is killed after', async () => {
    const { w, id } = await promptedSession('/cancel-request terminal 300');
    await w.waitForText(id, 'Withdrew the terminal request with $/cancel_request; the client answered error -32800');
    await w.waitIdle(id);
    // Still running when the wait was withdrawn; the agent killed and released it after.
    expect(h!.host.service.registry.get(id)?.broker?.terminals.size).toBe(0);
  });
});

describe('a session/close the agent answers late', () => {
  // The agent finishes a close it began, cancelled or not (`--slow session/close`), as agents do
  // that do not stop a close halfway. The closer's 2 s wait runs on a fake clock, moved once the
  // close is known to be waiting in the agent.
  it('is waited for before the session opens again on the same agent process: the next prompt is answered there', async () => {
    const clock = new FakeClock();
    const { w, stderr } = await start({ clock, agents: [agent('slow-close', ['--slow', 'session/close=1500'])] });
    const a = await w.call('sessions:create', { cwd: h!.dataDir, agentId: 'slow-close' });
    // A second session keeps the agent process running after the first one's close.
    const b = await w.call('sessions:create', { cwd: h!.dataDir, agentId: 'slow-close' });
    // Both live on one process: b left running unwatched, a watched by the window.
    await w.waitForState(b.id, 'DETACHED');
    await w.call('sessions:switch', { sessionId: a.id });
    await w.waitForState(a.id, 'ACTIVE');
    expect(h!.host.pool.liveBrokers).toHaveLength(1);

    const closing = w.call('sessions:close', { sessionId: a.id });
    await stderr.saw(slowLine('session/close', 1_500));
    const closeBegan = Date.now();
    await clock.advance(2_000);
    await closing;
    // The closer stopped waiting; the close is still on the wire. The next prompt opens the
    // session again on the same process: sent at once, the late close would drop it after.
    const again = randomUUID();
    await w.call('prompt:send', { sessionId: a.id, clientMessageId: again, text: '/history' });
    const ended = await w.waitAnswered(a.id, again, 15_000);
    expect(ended.payload).toMatchObject({ stopReason: 'end_turn' });
    expect(h!.stored(a.id).filter((e) => e.kind === 'error')).toEqual([]);
    expect(h!.host.pool.liveBrokers).toHaveLength(1);
    // And the session is still open in the agent once that close is done: a later prompt is
    // answered too (without the wait, the close lands after the resume and this one fails).
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, closeBegan + 1_700 - Date.now())));
    const later = randomUUID();
    await w.call('prompt:send', { sessionId: a.id, clientMessageId: later, text: '/history' });
    expect((await w.waitAnswered(a.id, later, 15_000)).payload).toMatchObject({ stopReason: 'end_turn' });
  });
});
