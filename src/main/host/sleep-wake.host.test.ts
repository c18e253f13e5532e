/**
 * Issue 23, sleep and wake: a laptop closed for hours with sessions open. The clocks are
 * simulated (`FakeClock.suspend`: the wall clock jumps, the monotonic one and the timers do
 * not move; `ShiftableClock.shift` with real processes; a power port as Electron's
 * `powerMonitor` gives it); the host, its database and the demo agents are real.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { PermissionViewT, SessionEventT } from '../../shared/contract';
import type { Clock } from '../util/clock';
import { Emitter } from '../util/event';
import { FakeClock } from '../test-support/fake-clock';
import { startHarness, type Harness, type TestWindow } from '../test-support/host-harness';
import { ShiftableClock } from '../test-support/shiftable-clock';
import { demoAgents } from '../test-support/processes';
import type { PowerEvents } from './session-host';

const HOUR = 3_600_000;
const MINUTE = 60_000;

let h: Harness | undefined;
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
});

async function transcript(w: TestWindow, sessionId: string): Promise<SessionEventT[]> {
  h!.host.eventLog.flush();
  return (await w.call('transcript:since', { sessionId, afterSeq: 0 })).events;
}

/** A session nobody watches, whose demo agent waits on a permission: its deadline runs. */
async function unwatchedRequest(w: TestWindow): Promise<{ id: string; pending: PermissionViewT }> {
  const { id } = await w.call('sessions:create', { cwd: h!.dataDir });
  await w.call('prompt:send', { sessionId: id, clientMessageId: randomUUID(), text: '/permission Edit greeting.txt' });
  await w.waitFor('session:updated', (v) => v.id === id && v.pendingPermissions === 1);
  return { id, pending: h!.host.gate.pendingFor(id)[0]! };
}

/** Electron's powerMonitor as the shell hands it over, fired by hand. */
function powerPort() {
  const suspend = new Emitter<void>();
  const resume = new Emitter<void>();
  const port: PowerEvents = { onSuspend: (l) => suspend.event(l), onResume: (l) => resume.event(l) };
  return { port, suspend: () => suspend.fire(), resume: () => resume.fire() };
}

describe('a permission deadline across a sleep', () => {
  it('counts only the time awake: not expired at wake, moved by the sleep and said so, then expired when its awake time is up', async () => {
    const clock = new FakeClock();
    h = await startHarness({ clock, settings: { permissionTimeoutMs: 5 * MINUTE, idleTimeoutMs: 0 } });
    const w = h.window();
    const { id, pending } = await unwatchedRequest(w);
    expect(pending.deadlineAt).toBe(clock.now() + 5 * MINUTE);

    await clock.advance(2 * MINUTE);
    clock.suspend(8 * HOUR);
    // The first look at the clocks after waking (the host's timer) sees the sleep.
    await clock.advance(20_000);
    expect(h.host.gate.countFor(id)).toBe(1);
    const moved = h.host.gate.pendingFor(id)[0]!;
    expect(moved.deadlineAt).toBe(pending.deadlineAt! + 8 * HOUR);
    expect(h.host.store.permissions.get(pending.requestId)?.deadlineAt).toBe(moved.deadlineAt);
    const notice = (await transcript(w, id)).find((e) => e.kind === 'notice' && e.payload.kind === 'slept');
    expect(notice?.kind === 'notice' && notice.payload.text).toBe(
      'This computer slept for 8 h while a permission request waited. Its deadline counts only the time awake: it is answered automatically in 3 min unless a window answers it first.',
    );

    // Three minutes awake in all after the wake: then, and only then, the deadline passes.
    await clock.advance(3 * MINUTE - 20_000 - 1);
    expect(h.host.gate.countFor(id)).toBe(1);
    await clock.advance(1);
    expect(h.host.gate.countFor(id)).toBe(0);
    const resolved = (await transcript(w, id)).find((e) => e.kind === 'permission_resolved');
    expect(resolved?.payload).toMatchObject({ decider: { kind: 'timeout' }, reason: expect.stringMatching(/Denied automatically.*300 s/) });
  });

  it('is shown with its moved deadline to a window that opens the session after the wake', async () => {
    const clock = new FakeClock();
    h = await startHarness({ clock, settings: { permissionTimeoutMs: 5 * MINUTE, idleTimeoutMs: 0 } });
    const w = h.window();
    const { id, pending } = await unwatchedRequest(w);
    clock.suspend(HOUR);
    await clock.advance(20_000);
    const opened = await h.window('after the wake').call('sessions:switch', { sessionId: id });
    // Watching, the request waits for the person: no deadline then; the moved one was stored.
    expect(opened.pendingPermissions.map((p) => p.requestId)).toEqual([pending.requestId]);
    expect(h.host.store.permissions.get(pending.requestId)?.deadlineAt).toBeUndefined();
    expect((await transcript(w, id)).filter((e) => e.kind === 'notice' && e.payload.kind === 'slept')).toHaveLength(1);
  });

  it("is moved the same way when only the shell's power events tell of the sleep", async () => {
    const fake = new FakeClock();
    // A platform whose monotonic clock runs on in sleep: the clocks show nothing.
    const clock: Clock = { now: () => fake.now(), setTimeout: (fn, ms) => fake.setTimeout(fn, ms), clearTimeout: (t) => fake.clearTimeout(t) };
    const power = powerPort();
    h = await startHarness({ clock, power: power.port, settings: { permissionTimeoutMs: 5 * MINUTE, idleTimeoutMs: 0 } });
    const w = h.window();
    const { id, pending } = await unwatchedRequest(w);
    power.suspend();
    fake.suspend(3 * HOUR);
    power.resume();
    expect(h.host.gate.pendingFor(id)[0]?.deadlineAt).toBe(pending.deadlineAt! + 3 * HOUR);
    await fake.advance(5 * MINUTE - 1);
    expect(h.host.gate.countFor(id)).toBe(1);
    await fake.advance(1);
    expect(h.host.gate.countFor(id)).toBe(0);
  });
});

describe('a question deadline across a sleep', () => {
  it('counts only the time awake as a permission does: moved by the sleep, said so, cancelled only when its awake time is up', async () => {
    const clock = new FakeClock();
    h = await startHarness({ clock, settings: { permissionTimeoutMs: 5 * MINUTE, idleTimeoutMs: 0 } });
    const w = h.window();
    const { id } = await w.call('sessions:create', { cwd: h.dataDir });
    await w.call('prompt:send', { sessionId: id, clientMessageId: randomUUID(), text: '/elicit' });
    await w.waitFor('session:updated', (v) => v.id === id && v.pendingQuestions === 1);
    const asked = h.host.questions.pendingFor(id)[0]!;
    expect(asked.deadlineAt).toBe(clock.now() + 5 * MINUTE);

    await clock.advance(MINUTE);
    clock.suspend(10 * HOUR);
    await clock.advance(20_000);
    expect(h.host.questions.pendingFor(id)[0]?.deadlineAt).toBe(asked.deadlineAt! + 10 * HOUR);
    const notice = (await transcript(w, id)).find((e) => e.kind === 'notice' && e.payload.kind === 'slept');
    expect(notice?.kind === 'notice' && notice.payload.text).toBe(
      'This computer slept for 10 h while a question waited. Its deadline counts only the time awake: it is answered automatically in 4 min unless a window answers it first.',
    );
    await clock.advance(4 * MINUTE - 20_000 - 1);
    expect(h.host.questions.countFor(id)).toBe(1);
    await clock.advance(1);
    expect(h.host.questions.countFor(id)).toBe(0);
    const answered = (await transcript(w, id)).find((e) => e.kind === 'question_answered');
    expect(answered?.payload).toMatchObject({ action: 'cancel', decider: { kind: 'timeout' } });
  });
});

describe('the idle reaper across a sleep', () => {
  it('does not reap every session at wake: idle time counts only the time awake', async () => {
    const clock = new FakeClock();
    h = await startHarness({ clock, settings: { idleTimeoutMs: 30 * MINUTE, reapIntervalMs: MINUTE } });
    const w = h.window();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const { id } = await w.call('sessions:create', { cwd: h.dataDir });
      await w.call('sessions:switch', { sessionId: id });
      await w.prompt(id, `hello ${i}`);
      ids.push(id);
    }
    for (const id of ids) await w.call('sessions:detach', { sessionId: id });
    await clock.advance(10 * MINUTE);
    clock.suspend(8 * HOUR);
    await clock.advance(5 * MINUTE);
    // Fifteen minutes awake since they were last used: none is reaped, though eight hours passed.
    expect(h.host.store.sessions.inStates(['DETACHED']).map((r) => r.id).sort()).toEqual([...ids].sort());
    await clock.advance(16 * MINUTE);
    // Reaped: each goes CLOSING, then ENDED once its agent has answered session/close.
    // Reaped: each goes CLOSING, then ENDED once its agent has answered session/close (the
    // window's events need not fall between the two).
    await w.until(() => h!.host.store.sessions.inStates(['DETACHED', 'CLOSING']).length === 0, 'reaped once idle 30 min awake');
    for (const id of ids) expect(h.host.store.sessions.get(id)).toMatchObject({ state: 'ENDED', state_reason: 'idle_timeout' });
  });
});

describe('a turn whose agent died during the sleep', () => {
  it('is reported as such: its error says the agent exited while the computer slept', async () => {
    const clock = new ShiftableClock();
    h = await startHarness({ clock });
    const w = h.window();
    const { id } = await w.call('sessions:create', { cwd: h.dataDir });
    await w.call('sessions:switch', { sessionId: id });
    await w.waitFor('session:updated', (v) => v.id === id && v.state === 'ACTIVE');
    const clientMessageId = randomUUID();
    await w.call('prompt:send', { sessionId: id, clientMessageId, text: '/slow 60' });
    await w.waitFor('session:updated', (v) => v.id === id && v.running);
    // The lid closes for 8 hours; the agent does not survive it.
    clock.shift(8 * HOUR);
    const [agent] = demoAgents(h.dataDir);
    expect(agent).toBeDefined();
    process.kill(agent!.pid, 'SIGKILL');
    const ended = await w.waitAnswered(id, clientMessageId);
    expect(ended.payload).toMatchObject({ stopReason: 'error' });
    const error = (await transcript(w, id)).find((e) => e.kind === 'error');
    expect(error?.payload.message).toMatch(/was killed by SIGKILL while this computer slept \(8 h\) or as it woke$/);
    // The next prompt starts the agent again.
    expect(await w.prompt(id, 'still here?')).toMatchObject({ payload: { stopReason: 'end_turn' } });
  });
});
