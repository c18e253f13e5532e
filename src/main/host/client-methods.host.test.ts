/**
 * Issue 12 at the host level: the real host, the real demo agent and real commands. What an
 * agent asks of the client (terminals, files) reaches the transcript and the windows, and every
 * terminal dies with its session however the session ends.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { TerminalOutputT } from '../../shared/contract';
import { FakeClock } from '../test-support/fake-clock';
import { startHarness, type Harness, type TestWindow } from '../test-support/host-harness';
import { listProcesses, waitUntil } from '../test-support/processes';

const linuxOnly = process.platform === 'linux' ? it : it.skip; // counts processes through /proc

let h: Harness | undefined;
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
});

/** A session in its own folder inside the data dir, watched by `w`, its agent live. */
async function sessionIn(w: TestWindow, folder = 'project'): Promise<{ id: string; cwd: string }> {
  const cwd = join(h!.dataDir, folder);
  mkdirSync(cwd, { recursive: true });
  const view = await w.call('sessions:create', { cwd });
  await w.call('sessions:switch', { sessionId: view.id });
  await w.waitFor('session:updated', (v) => v.id === view.id && v.state === 'ACTIVE');
  return { id: view.id, cwd };
}

const pushes = (w: TestWindow, sessionId: string): TerminalOutputT[] =>
  w.events.filter((e) => e.event === 'terminal:output' && (e.payload as TerminalOutputT).sessionId === sessionId).map((e) => e.payload as TerminalOutputT);

/** Live processes running `sleep <n>` for a marker `n` only this test uses. */
const sleepers = (marker: number) => listProcesses().filter((p) => p.cmdline === `sleep ${marker}`);

/** Starts `sleep A & sleep B` in a background terminal of the session: a command and a helper. */
async function backgroundTerminal(w: TestWindow, sessionId: string, a: number): Promise<number[]> {
  const ended = await w.prompt(sessionId, `/terminal sleep ${a} & sleep ${a + 1} &`);
  expect(ended.payload).toMatchObject({ stopReason: 'end_turn' });
  await waitUntil(() => sleepers(a).length === 1 && sleepers(a + 1).length === 1, 'both sleepers to run');
  return [a, a + 1];
}

const allGone = (markers: number[]) => waitUntil(() => markers.every((m) => sleepers(m).length === 0), `no sleep ${markers.join('/')} left`);

describe('terminals through the host', () => {
  it('streams a terminal embedded in a tool call to the window live, stores its final output and releases it', async () => {
    h = await startHarness();
    const w = h.window();
    const { id } = await sessionIn(w);
    const clientMessageId = crypto.randomUUID();
    await w.call('prompt:send', { sessionId: id, clientMessageId, text: '/terminal for i in 1 2 3; do echo "line $i"; sleep 0.2; done' });

    const call = await w.waitFor('session:event', (e) => e.sessionId === id && e.kind === 'tool_call');
    const content = call.kind === 'tool_call' ? call.payload.content : undefined;
    const terminalId = content?.[0]?.type === 'terminal' ? content[0].terminalId : '';
    expect(terminalId).toMatch(/^term-/);
    // Live: the first line reaches the window while the command is still running.
    await w.until(() => pushes(w, id).some((p) => p.text.includes('line 1')), 'the first line pushed');
    expect(pushes(w, id).some((p) => p.exit)).toBe(false);
    expect(w.sessionEvents(id).some((e) => e.kind === 'turn_ended')).toBe(false);
    // A window opening mid-run reads what was printed so far.
    const snapshot = await w.call('terminals:read', { sessionId: id, terminalId });
    expect(snapshot.text).toContain('line 1');

    await w.waitAnswered(id, clientMessageId);
    const live = pushes(w, id);
    expect(live.map((p) => p.text).join('')).toBe('line 1\nline 2\nline 3\n');
    // Pieces follow each other exactly: each starts where the one before ended.
    for (let i = 1; i < live.length; i++) expect(live[i]!.start).toBe(live[i - 1]!.start + live[i - 1]!.text.length);
    expect(live.at(-1)?.exit).toEqual({ exitCode: 0, signal: null });

    const stored = h.stored(id).find((e) => e.kind === 'terminal_output');
    expect(stored?.payload).toEqual({ terminalId, command: expect.stringContaining('sh -c'), output: 'line 1\nline 2\nline 3\n', truncated: false, exit: { exitCode: 0, signal: null } });
    expect(w.agentText(id)).toContain('exited with code 0; 3 lines of output');
    // Released by the agent: nothing is held any more.
    expect(h.host.service.registry.get(id)?.broker?.terminals.size).toBe(0);
    await expect(w.call('terminals:read', { sessionId: id, terminalId })).rejects.toMatchObject({ code: 'not_found' });
  });

  linuxOnly('Stop kills a running terminal command (the agent kills it, then releases)', async () => {
    h = await startHarness();
    const w = h.window();
    const { id } = await sessionIn(w);
    const clientMessageId = crypto.randomUUID();
    await w.call('prompt:send', { sessionId: id, clientMessageId, text: '/terminal sleep 4301' });
    await waitUntil(() => sleepers(4301).length === 1, 'the sleeper to run');
    await w.call('prompt:cancel', { sessionId: id });
    await w.waitAnswered(id, clientMessageId);
    await allGone([4301]);
    expect(h.stored(id).find((e) => e.kind === 'terminal_output')?.payload).toMatchObject({ exit: { signal: 'SIGKILL' } });
  });

  linuxOnly("closing a session kills its terminals, helpers included, and not those of a session sharing its agent", async () => {
    h = await startHarness();
    const w = h.window();
    const a = await sessionIn(w, 'a');
    const b = await sessionIn(w, 'b');
    const broker = h.host.service.registry.get(a.id)?.broker;
    expect(h.host.service.registry.get(b.id)?.broker).toBe(broker);
    const markers = await backgroundTerminal(w, a.id, 4311);
    const kept = await backgroundTerminal(w, b.id, 4313);
    await w.call('sessions:close', { sessionId: a.id });
    await allGone(markers);
    expect(broker?.isAlive).toBe(true);
    expect(kept.map((m) => sleepers(m).length)).toEqual([1, 1]);
  });

  linuxOnly('the idle reaper closing a session kills its terminals, though its agent lives on for another', async () => {
    const clock = new FakeClock();
    h = await startHarness({ clock, settings: { idleTimeoutMs: 60_000, reapIntervalMs: 10_000 } });
    const w = h.window();
    const { id } = await sessionIn(w, 'a');
    const other = await sessionIn(w, 'b');
    const markers = await backgroundTerminal(w, id, 4321);
    await w.call('sessions:detach', { sessionId: id });
    // The other session stays watched and is not reaped: the agent process stays up.
    await clock.advance(60_000);
    await h.host.reaper.tick();
    await w.waitFor('session:updated', (v) => v.id === id && v.state === 'ENDED' && v.stateReason === 'idle_timeout');
    await allGone(markers);
    expect(h.host.service.registry.get(other.id)?.broker?.isAlive).toBe(true);
  });

  linuxOnly('an agent crash kills the terminals it opened (they are not in its process group)', async () => {
    h = await startHarness();
    const w = h.window();
    const { id } = await sessionIn(w);
    const markers = await backgroundTerminal(w, id, 4331);
    const broker = h.host.service.registry.get(id)?.broker;
    process.kill(broker!.pid!, 'SIGKILL');
    await w.waitFor('session:updated', (v) => v.id === id && v.state === 'ENDED' && v.stateReason === 'agent_exited');
    await allGone(markers);
  });

  linuxOnly('quitting the host kills every terminal', async () => {
    h = await startHarness();
    const w = h.window();
    const a = await sessionIn(w, 'a');
    const b = await sessionIn(w, 'b');
    const markers = [...(await backgroundTerminal(w, a.id, 4341)), ...(await backgroundTerminal(w, b.id, 4343))];
    await h.host.shutdown();
    await allGone(markers);
  });
});

describe('files through the host', () => {
  it('writes through the agent atomically, with the diff in the transcript, and reads back by line', async () => {
    h = await startHarness();
    const w = h.window();
    const { id, cwd } = await sessionIn(w);
    writeFileSync(join(cwd, 'notes.txt'), 'one\n');
    await w.prompt(id, '/write notes.txt one\ntwo\nthree');
    expect(readFileSync(join(cwd, 'notes.txt'), 'utf8')).toBe('one\ntwo\nthree');
    expect(w.agentText(id)).toContain('Wrote 13 bytes to notes.txt');
    const written = w.sessionEvents(id).find((e) => e.kind === 'file_written');
    expect(written?.payload).toMatchObject({ created: false, bytes: 13, diff: { type: 'diff', oldText: 'one\n', newText: 'one\ntwo\nthree' } });

    await w.prompt(id, '/read notes.txt 2 1');
    expect(w.agentText(id)).toContain('Read notes.txt:\n\n```\ntwo\n```');
  });

  it('refuses a path outside the session folder: the agent gets invalid params, the transcript a notice', async () => {
    h = await startHarness();
    const w = h.window();
    const { id } = await sessionIn(w);
    writeFileSync(join(h.dataDir, 'secret.txt'), 'no');
    await w.prompt(id, '/read ../secret.txt');
    expect(w.agentText(id)).toMatch(/Could not read \.\.\/secret\.txt: Refused: .*secret\.txt.*outside the session's folders.*\(error -32602\)/);
    await w.prompt(id, '/write ../escape.txt pwned');
    expect(w.agentText(id)).toContain('Could not write ../escape.txt: Refused');
    const notices = w.sessionEvents(id).filter((e) => e.kind === 'notice' && e.payload.kind === 'path_refused');
    expect(notices).toHaveLength(2);
    expect(readFileSync(join(h.dataDir, 'secret.txt'), 'utf8')).toBe('no');
  });
});
