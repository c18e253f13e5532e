/**
 * Issue 5 at the host level: the real SessionHost on a temp data dir with the real demo agent,
 * driven by a FakeClock (the reaper and every deadline run on the host's single TimerQueue,
 * so time only moves when a test says so). TestWindows stand in for renderer windows.
 */
import * as acp from '@agentclientprotocol/sdk';
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SessionViewT } from '../../shared/contract';
import type { Broker } from '../brokers/broker';
import { isAlive } from '../util/process-info';
import { startHarness, type Harness, type TestWindow } from '../test-support/host-harness';
import { tempDir } from '../test-support/temp-dir';
import { MAX_TIMER_MS, systemClock, type Clock } from '../util/clock';
import { FakeClock } from '../test-support/fake-clock';
import { silentLogger, type Logger } from '../util/log';
import { SessionHost } from './session-host';
import { captureLogger, type LogEntry } from '../test-support/capture-logger';

const IDLE = 60_000;
const INTERVAL = 10_000;
/** For tests that call `reaper.tick()` themselves: the timer never fires during them. */
const NEVER = 24 * 60 * 60_000;

let h: Harness | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await h?.cleanup();
  h = undefined;
});



const updates = (w: TestWindow, sessionId: string, from = 0): SessionViewT[] =>
  w.events
    .slice(from)
    .filter((e) => e.event === 'session:updated' && (e.payload as SessionViewT).id === sessionId)
    .map((e) => e.payload as SessionViewT);

const reaped = (w: TestWindow, sessionId: string): Promise<unknown> =>
  w.waitFor('session:updated', (v) => v.id === sessionId && v.state === 'ENDED' && v.stateReason === 'idle_timeout');

async function startFakeTime(settings: { idleTimeoutMs?: number; reapIntervalMs?: number; permissionTimeoutMs?: number } = {}, log?: Logger) {
  const clock = new FakeClock();
  h = await startHarness({ clock, settings: { idleTimeoutMs: IDLE, reapIntervalMs: INTERVAL, ...settings }, ...(log ? { log } : {}) });
  return { clock, host: h.host };
}

function send(w: TestWindow, sessionId: string, text: string) {
  return w.call('prompt:send', { sessionId, clientMessageId: randomUUID(), text });
}

/** A session that has answered `prompts` prompts while `w` watched it; `w` still watches. */
async function watchedSession(w: TestWindow, prompts: string[] = ['hello']): Promise<string> {
  const id = (await w.call('sessions:create', { cwd: h!.dataDir })).id;
  await w.call('sessions:switch', { sessionId: id });
  for (const [i, text] of prompts.entries()) {
    await send(w, id, text);
    await w.until(() => w.sessionEvents(id).filter((e) => e.kind === 'turn_ended').length === i + 1, `turn ${i + 1}`);
  }
  return id;
}

/** A live session nobody watches; its last window left now. */
async function detachedSession(w: TestWindow, prompts?: string[]): Promise<string> {
  const id = await watchedSession(w, prompts);
  await w.call('sessions:detach', { sessionId: id });
  return id;
}

/** Records the ACP requests a broker sends; can hold or fail its `session/close`. */
function interceptClose(broker: Broker, behaviour: { hold?: Promise<void>; fail?: Error } = {}): string[] {
  const methods: string[] = [];
  const original = broker.request.bind(broker);
  broker.request = ((method: string, params: unknown, timeoutMs?: number) => {
    methods.push(method);
    const call = () => original(method as never, params as never, timeoutMs);
    if (method !== acp.methods.agent.session.close) return call();
    if (behaviour.fail) return Promise.reject(behaviour.fail);
    return (behaviour.hold ?? Promise.resolve()).then(call);
  }) as typeof broker.request;
  return methods;
}

const closeRequests = (methods: string[]) => methods.filter((m) => m === acp.methods.agent.session.close).length;

function stateOf(id: string) {
  const row = h!.host.store.sessions.get(id);
  return { state: row?.state, reason: row?.state_reason };
}

describe('idle reaper (host): a soft close', () => {
  it('reaps a detached idle session: session/close, agent process gone, ENDED idle_timeout, transcript kept, every window told', async () => {
    const { clock, host } = await startFakeTime();
    const w = h!.window('window 1');
    const other = h!.window('window 2');
    const id = await detachedSession(w, ['first prompt', 'second prompt']);
    const broker = host.pool.brokerOf(id)!;
    const pid = broker.pid!;
    const methods = interceptClose(broker);

    await clock.advance(IDLE - 1);
    expect(stateOf(id).state).toBe('DETACHED');
    await clock.advance(1);
    await Promise.all([reaped(w, id), reaped(other, id)]);

    expect(closeRequests(methods)).toBe(1);
    expect(isAlive(pid)).toBe(false);
    expect(host.pool.liveBrokers).toEqual([]);
    expect(stateOf(id)).toEqual({ state: 'ENDED', reason: 'idle_timeout' });
    const page = await w.call('transcript:since', { sessionId: id, afterSeq: 0 });
    expect(page.events.filter((e) => e.kind === 'user_message').map((e) => e.payload.text)).toEqual(['first prompt', 'second prompt']);
    expect(page.events.filter((e) => e.kind === 'agent_message').map((e) => e.payload.text).join('')).toContain('Echo: second prompt');
  });

  it('resumes a reaped session on the next prompt, with its history', async () => {
    const { clock } = await startFakeTime();
    const w = h!.window('window 1');
    const id = await detachedSession(w, ['one', 'two']);
    await clock.advance(IDLE);
    await reaped(w, id);

    await w.call('sessions:switch', { sessionId: id });
    await send(w, id, '/history');
    await w.waitForText(id, 'History: 2 earlier prompts');
    expect(stateOf(id).state).toBe('ACTIVE');
  });

  it('leaves a shared agent process running while another session owns it', async () => {
    const { clock, host } = await startFakeTime({ reapIntervalMs: NEVER });
    const w = h!.window('window 1');
    const idle = await detachedSession(w);
    const busy = await watchedSession(w);
    const broker = host.pool.brokerOf(idle)!;
    expect(host.pool.brokerOf(busy)).toBe(broker);

    await clock.advance(IDLE);
    await host.reaper.tick();
    expect(stateOf(idle)).toEqual({ state: 'ENDED', reason: 'idle_timeout' });
    expect(isAlive(broker.pid!)).toBe(true);
    await send(w, busy, 'still here');
    await w.waitForText(busy, 'Echo: still here');
  });
});

describe('idle reaper (host): the predicate, each clause failing alone keeps the session', () => {
  it('keeps a session a window watches (ACTIVE), and reaps it once the window has been gone long enough', async () => {
    const { clock, host } = await startFakeTime({ reapIntervalMs: NEVER });
    const w = h!.window('window 1');
    const id = await watchedSession(w);
    await clock.advance(10 * IDLE);
    await host.reaper.tick();
    expect(stateOf(id).state).toBe('ACTIVE');
    expect(host.pool.brokerOf(id)?.isAlive).toBe(true);

    await w.call('sessions:detach', { sessionId: id });
    await clock.advance(IDLE);
    await host.reaper.tick();
    expect(stateOf(id)).toEqual({ state: 'ENDED', reason: 'idle_timeout' });
  });

  it('keeps a detached session with a turn in flight, and reaps it once the turn is over and the timeout passed', async () => {
    const { clock, host } = await startFakeTime({ reapIntervalMs: NEVER });
    const w = h!.window('window 1');
    const id = await watchedSession(w);
    await send(w, id, '/hang');
    await w.waitFor('session:updated', (v) => v.id === id && v.running);
    await w.call('sessions:detach', { sessionId: id });
    await clock.advance(10 * IDLE);
    await host.reaper.tick();
    expect(stateOf(id).state).toBe('DETACHED');
    expect(host.service.registry.get(id)?.isRunning).toBe(true);

    const mark = w.events.length;
    await w.call('prompt:cancel', { sessionId: id });
    await w.until(() => updates(w, id, mark).some((v) => !v.running), 'turn end');
    await clock.advance(IDLE);
    await host.reaper.tick();
    expect(stateOf(id)).toEqual({ state: 'ENDED', reason: 'idle_timeout' });
  });

  it('keeps a detached session with a pending permission request, and reaps it once it is answered and the timeout passed', async () => {
    const { clock, host } = await startFakeTime({ reapIntervalMs: NEVER, permissionTimeoutMs: NEVER });
    const w = h!.window('window 1');
    const id = await detachedSession(w);
    // A request with no turn around it, so only the permission clause is at stake.
    const answer = host.gate.request(id, {
      sessionId: 'agent-side-id',
      toolCall: { toolCallId: randomUUID(), title: 'Edit by hand', kind: 'edit', status: 'pending' },
      options: [{ optionId: 'allow_once', name: 'Allow once', kind: 'allow_once' }],
    });
    expect(host.service.registry.get(id)?.isRunning).toBe(false);
    await clock.advance(10 * IDLE);
    await host.reaper.tick();
    expect(stateOf(id).state).toBe('DETACHED');

    const [pending] = host.gate.pendingFor(id);
    await w.call('permissions:answer', { requestId: pending!.requestId, sessionId: id, optionId: 'allow_once' });
    await answer;
    await clock.advance(IDLE);
    await host.reaper.tick();
    expect(stateOf(id)).toEqual({ state: 'ENDED', reason: 'idle_timeout' });
  });

  it('keeps a detached session whose last activity is recent, until exactly the timeout has passed', async () => {
    const { clock, host } = await startFakeTime({ reapIntervalMs: NEVER });
    const w = h!.window('window 1');
    const id = await detachedSession(w);
    await clock.advance(10 * IDLE);
    // A prompt while nobody watches: activity now, though the last window left long ago.
    const mark = w.events.length;
    await send(w, id, 'are you there');
    await w.until(() => updates(w, id, mark).some((v) => v.running), 'turn start');
    await w.until(() => updates(w, id, mark).some((v, i, all) => !v.running && all.slice(0, i).some((u) => u.running)), 'turn end');
    await clock.advance(IDLE - 1);
    await host.reaper.tick();
    expect(stateOf(id).state).toBe('DETACHED');
    await clock.advance(1);
    await host.reaper.tick();
    expect(stateOf(id)).toEqual({ state: 'ENDED', reason: 'idle_timeout' });
  });

  it('keeps a detached session whose last window left recently though its last activity is old', async () => {
    const { clock, host } = await startFakeTime({ reapIntervalMs: NEVER });
    const w = h!.window('window 1');
    const id = await watchedSession(w);
    await clock.advance(10 * IDLE);
    await w.call('sessions:detach', { sessionId: id });
    await clock.advance(IDLE - 1);
    await host.reaper.tick();
    expect(stateOf(id).state).toBe('DETACHED');
    await clock.advance(1);
    await host.reaper.tick();
    expect(stateOf(id)).toEqual({ state: 'ENDED', reason: 'idle_timeout' });
  });
});

describe('idle reaper (host): races', () => {
  it('checks again right before closing: a window that attaches while the reaper works wins', async () => {
    const { clock, host } = await startFakeTime({ reapIntervalMs: NEVER });
    const w = h!.window('window 1');
    const id = await detachedSession(w);
    const methods = interceptClose(host.pool.brokerOf(id)!);
    const candidates = host.store.sessions.idleDetached.bind(host.store.sessions);
    vi.spyOn(host.store.sessions, 'idleDetached').mockImplementation((cutoff) => {
      const ids = candidates(cutoff);
      expect(ids).toContain(id);
      // A window switches to it between the query and the close (its handler runs synchronously).
      void w.call('sessions:switch', { sessionId: id });
      return ids;
    });
    await clock.advance(10 * IDLE);
    await host.reaper.tick();
    expect(host.store.sessions.idleDetached).toHaveBeenCalled();
    expect(stateOf(id).state).toBe('ACTIVE');
    expect(closeRequests(methods)).toBe(0);
    await send(w, id, 'still mine');
    await w.waitForText(id, 'Echo: still mine');
  });

  it('checks again right before closing: a prompt that arrives while the reaper works wins', async () => {
    const { clock, host } = await startFakeTime({ reapIntervalMs: NEVER });
    const w = h!.window('window 1');
    const id = await detachedSession(w);
    const methods = interceptClose(host.pool.brokerOf(id)!);
    const candidates = host.store.sessions.idleDetached.bind(host.store.sessions);
    let sent = false;
    const mark = w.events.length;
    vi.spyOn(host.store.sessions, 'idleDetached').mockImplementation((cutoff) => {
      const ids = candidates(cutoff);
      if (!sent) void send(w, id, 'one more thing');
      sent = true;
      return ids;
    });
    await clock.advance(10 * IDLE);
    await host.reaper.tick();
    expect(sent).toBe(true);
    expect(stateOf(id).state).toBe('DETACHED');
    expect(closeRequests(methods)).toBe(0);
    await w.until(() => updates(w, id, mark).some((v, i, all) => !v.running && all.slice(0, i).some((u) => u.running)), 'the prompt answered');
    host.eventLog.flush();
    const page = await w.call('transcript:since', { sessionId: id, afterSeq: 0 });
    expect(page.events.filter((e) => e.kind === 'agent_message').map((e) => e.payload.text).join('')).toContain('Echo: one more thing');
  });

  it('closes a session once when ticks overlap, the timer fires and an explicit close arrives during a slow agent close', async () => {
    const { clock, host } = await startFakeTime();
    const w = h!.window('window 1');
    const id = await detachedSession(w);
    let release!: () => void;
    const methods = interceptClose(host.pool.brokerOf(id)!, { hold: new Promise<void>((r) => (release = r)) });
    const teardownsBefore = host.pool.teardowns;

    await clock.advance(IDLE);
    expect(host.service.isClosing(id)).toBe(true);
    const racing = [host.reaper.tick(), host.reaper.tick(), w.call('sessions:close', { sessionId: id })];
    await clock.advance(5 * INTERVAL);
    release();
    const [, , closed] = await Promise.all(racing);
    await reaped(w, id);

    expect(closed).toMatchObject({ state: 'ENDED', stateReason: 'idle_timeout' });
    expect(closeRequests(methods)).toBe(1);
    expect(host.pool.teardowns - teardownsBefore).toBe(1);
    expect(updates(w, id).filter((v) => v.state === 'CLOSING')).toHaveLength(1);
    expect(updates(w, id).filter((v) => v.state === 'ENDED')).toHaveLength(1);
    await clock.advance(5 * INTERVAL);
    expect(updates(w, id).filter((v) => v.state === 'ENDED')).toHaveLength(1);
  });

  it('ends the session even when the agent refuses session/close', async () => {
    const logs: LogEntry[] = [];
    const { clock, host } = await startFakeTime({}, captureLogger(logs));
    const w = h!.window('window 1');
    const id = await detachedSession(w);
    const pid = host.pool.brokerOf(id)!.pid!;
    interceptClose(host.pool.brokerOf(id)!, { fail: new Error('agent refused session/close') });
    await clock.advance(IDLE);
    await reaped(w, id);
    expect(isAlive(pid)).toBe(false);
    expect(logs).toContainEqual(expect.objectContaining({ level: 'warn', msg: 'session/close failed', fields: expect.objectContaining({ session: id }) }));
  });

  it('retries a close that keeps failing a bounded number of times, then ends the session by force and logs why', async () => {
    const logs: LogEntry[] = [];
    const { clock, host } = await startFakeTime({}, captureLogger(logs));
    const w = h!.window('window 1');
    const id = await detachedSession(w);
    const pid = host.pool.brokerOf(id)!.pid!;
    const close = vi.spyOn(host.service, 'close').mockRejectedValue(new Error('store is busy'));
    const failures = () => logs.filter((l) => l.msg === 'closing an idle session failed');

    await clock.advance(IDLE);
    await clock.advance(INTERVAL);
    expect(failures().map((l) => l.fields?.attempts)).toEqual([1, 2]);
    expect(stateOf(id).state).toBe('DETACHED');
    await clock.advance(INTERVAL);
    await reaped(w, id);
    expect(close).toHaveBeenCalledTimes(3);
    expect(isAlive(pid)).toBe(false);
    expect(logs).toContainEqual(
      expect.objectContaining({
        level: 'warn',
        msg: 'ending an idle session by force after repeated failures',
        fields: expect.objectContaining({ session: id, attempts: 3, error: expect.stringContaining('store is busy') }),
      }),
    );
  });
});

describe('idle reaper (host): timer, start-up and shutdown', () => {
  it('runs on the host timer, unref so it never keeps the process alive', async () => {
    const handles: NodeJS.Timeout[] = [];
    const clock: Clock = {
      ...systemClock,
      setTimeout: (fn, ms) => {
        const handle = setTimeout(fn, ms);
        handles.push(handle);
        return handle;
      },
    };
    h = await startHarness({ clock, settings: { idleTimeoutMs: IDLE, reapIntervalMs: INTERVAL } });
    expect(h.host.timers.has('idle-reaper')).toBe(true);
    expect(h.host.timers.isArmed).toBe(true);
    expect(handles).toHaveLength(1);
    expect(handles[0]!.hasRef()).toBe(false);
  });

  it('says at start-up whether it runs and with which values', async () => {
    const logs: LogEntry[] = [];
    h = await startHarness({ log: captureLogger(logs), settings: { idleTimeoutMs: 2_000, reapIntervalMs: 500 } });
    expect(logs.filter((l) => l.msg.startsWith('idle reaper'))).toEqual([
      { level: 'info', msg: expect.stringMatching(/idle reaper on.*2000 ms.*500 ms/), fields: { reaper: 'on', idleTimeoutMs: 2_000, reapIntervalMs: 500 } },
    ]);
    logs.length = 0;
    await h.restart({ log: captureLogger(logs), settings: { idleTimeoutMs: 0, reapIntervalMs: 500 } });
    expect(logs.filter((l) => l.msg.startsWith('idle reaper'))).toEqual([
      { level: 'info', msg: expect.stringContaining('idle reaper off'), fields: { reaper: 'off', idleTimeoutMs: 0, reapIntervalMs: 500 } },
    ]);
  });

  it.each([
    ['idleTimeoutMs', { idleTimeoutMs: 0 }],
    ['reapIntervalMs', { reapIntervalMs: 0 }],
  ])('is disabled by %s 0: no timer, and an idle session stays', async (_name, settings) => {
    const { clock, host } = await startFakeTime(settings);
    const w = h!.window('window 1');
    const id = await detachedSession(w);
    expect(host.reaper.enabled).toBe(false);
    expect(host.timers.has('idle-reaper')).toBe(false);
    await clock.advance(100 * IDLE);
    await host.reaper.tick();
    expect(stateOf(id).state).toBe('DETACHED');
  });

  it('refuses negative, non-numeric and non-finite values at start-up and in settings, and clamps values above 2^31-1', async () => {
    const dir = tempDir();
    try {
      for (const bad of [-1, Number.NaN, Number.POSITIVE_INFINITY, 'soon' as unknown as number]) {
        for (const key of ['idleTimeoutMs', 'reapIntervalMs'] as const) {
          await expect(SessionHost.start({ dataDir: dir.path, headless: true, log: silentLogger, settings: { [key]: bad } })).rejects.toMatchObject({
            code: 'invalid_request',
            message: expect.stringContaining(key),
          });
        }
      }
    } finally {
      dir.cleanup();
    }
    const { clock, host } = await startFakeTime({ reapIntervalMs: 2 ** 40 });
    expect(host.settings.reapIntervalMs).toBe(MAX_TIMER_MS);
    expect(clock.pendingTimers).toBe(1);
    const w = h!.window('window 1');
    await expect(w.call('settings:update', { idleTimeoutMs: -5 })).rejects.toMatchObject({ code: 'invalid_request' });
    await expect(w.call('settings:update', { reapIntervalMs: 1.5 })).rejects.toMatchObject({ code: 'invalid_request' });
    expect(host.settings.idleTimeoutMs).toBe(IDLE);
    const updated = await w.call('settings:update', { idleTimeoutMs: 2 ** 35, reapIntervalMs: 1_000 });
    expect(updated).toMatchObject({ idleTimeoutMs: MAX_TIMER_MS, reapIntervalMs: 1_000 });
    expect(host.reaper.enabled).toBe(true);
    expect(host.timers.has('idle-reaper')).toBe(true);
  });

  it('is stopped before shutdown begins: no tick runs once quit started, even with one due', async () => {
    const { clock, host } = await startFakeTime();
    const w = h!.window('window 1');
    const id = await detachedSession(w);
    await clock.advance(IDLE - 1); // the tick that would reap it is 1 ms away
    const candidates = vi.spyOn(host.store.sessions, 'idleDetached');
    let reaperArmedAtCloseAll: boolean | undefined;
    const closeAll = host.service.closeAll.bind(host.service);
    vi.spyOn(host.service, 'closeAll').mockImplementation((reason) => {
      reaperArmedAtCloseAll = host.timers.has('idle-reaper');
      return closeAll(reason);
    });

    const quitting = host.shutdown();
    await clock.advance(1);
    await quitting;

    expect(reaperArmedAtCloseAll).toBe(false);
    expect(candidates).not.toHaveBeenCalled();
    expect(updates(w, id).at(-1)).toMatchObject({ state: 'ENDED', stateReason: 'host_shutdown' });
    expect(updates(w, id).some((v) => v.stateReason === 'idle_timeout')).toBe(false);
  });

  it('is not brought back by a settings change while quit runs', async () => {
    const { clock, host } = await startFakeTime();
    const w = h!.window('window 1');
    const id = await detachedSession(w);
    const candidates = vi.spyOn(host.store.sessions, 'idleDetached');
    const quitting = host.shutdown();
    await w.call('settings:update', { idleTimeoutMs: 1_000, reapIntervalMs: 1_000 });
    expect(host.timers.has('idle-reaper')).toBe(false);
    await clock.advance(1_000);
    await quitting;
    expect(candidates).not.toHaveBeenCalled();
    expect(updates(w, id).some((v) => v.stateReason === 'idle_timeout')).toBe(false);
  });
});
