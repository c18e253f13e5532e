import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SessionStateT, StateReason } from '../../shared/contract';
import { Store } from '../store/store';
import { tempDir } from '../test-support/temp-dir';
import { FakeClock, flushMicrotasks } from '../test-support/fake-clock';
import { TimerQueue } from '../util/timer-queue';
import { IdleReaper, keepReason, type IdleFacts } from './idle-reaper';
import { captureLogger, type LogEntry } from '../test-support/capture-logger';

const IDLE = 5_000;
const INTERVAL = 1_000;


function deferred(): { promise: Promise<void>; resolve(): void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

/**
 * An IdleReaper over a real sessions table. `close` behaves like SessionService.close: a close
 * in flight is shared, the precondition is checked synchronously first, the row goes
 * CLOSING → ENDED. What the agent side does meanwhile (`agentClose`) is up to each test.
 */
function setup(o: { idleTimeoutMs?: number; intervalMs?: number; maxCloseAttempts?: number } = {}) {
  const dir = tempDir();
  const store = Store.open(join(dir.path, 'host.db'));
  const clock = new FakeClock();
  const timers = new TimerQueue(clock);
  const logs: LogEntry[] = [];
  const watchers = new Map<string, number>();
  const turns = new Set<string>();
  const permissions = new Map<string, number>();
  const closing = new Map<string, Promise<boolean>>();
  /** Sessions whose close actually began, in order. */
  const closes: string[] = [];
  const forced: string[] = [];
  const ctl = {
    agentClose: (_id: string): Promise<void> => Promise.resolve(),
    /** Makes `close` reject before changing anything, as a close that fails outright. */
    failClose: undefined as Error | undefined,
    /** Runs just before a failing close rejects (something changes while it fails). */
    whileFailing: (_id: string): void => {},
  };

  const setState = (id: string, to: SessionStateT, reason?: StateReason): void => {
    const row = store.sessions.get(id)!;
    expect(store.sessions.setState(id, row.state, to, reason, clock.now())).toBe(true);
  };

  const close = (id: string, precondition: () => boolean = () => true): Promise<boolean> => {
    const inFlight = closing.get(id);
    if (inFlight) return inFlight;
    if (!precondition()) return Promise.resolve(false);
    if (ctl.failClose) {
      ctl.whileFailing(id);
      return Promise.reject(ctl.failClose);
    }
    closes.push(id);
    setState(id, 'CLOSING', 'idle_timeout');
    const run = (async () => {
      try {
        await ctl.agentClose(id);
      } finally {
        closing.delete(id);
        setState(id, 'ENDED', 'idle_timeout');
      }
      return true;
    })();
    closing.set(id, run);
    return run;
  };

  const candidates = vi.fn((cutoff: number) => store.sessions.idleDetached(cutoff));
  const inspect = (id: string): IdleFacts | undefined => {
    const row = store.sessions.get(id);
    return (
      row && {
        state: row.state,
        lastActivityAt: row.last_activity_at,
        detachedAt: row.detached_at ?? undefined,
        watchers: watchers.get(id) ?? 0,
        turnInFlight: turns.has(id),
        pendingPermissions: permissions.get(id) ?? 0,
      }
    );
  };
  const reaper = new IdleReaper({
    clock,
    timers,
    log: captureLogger(logs),
    idleTimeoutMs: o.idleTimeoutMs ?? IDLE,
    intervalMs: o.intervalMs ?? INTERVAL,
    candidates,
    inspect,
    isClosing: (id) => closing.has(id),
    close,
    forceEnd: (id) => {
      forced.push(id);
      setState(id, 'ENDED', 'idle_timeout');
      return Promise.resolve();
    },
    ...(o.maxCloseAttempts ? { maxCloseAttempts: o.maxCloseAttempts } : {}),
  });
  cleanups.push(() => {
    reaper.stop();
    timers.dispose();
    store.dispose();
    dir.cleanup();
  });

  /** A live session nobody watches, its last window gone now. */
  const detached = (): string => {
    const id = randomUUID();
    store.sessions.insert({ id, agent_id: 'demo', cwd: '/', state: 'CREATED' }, clock.now());
    setState(id, 'STARTING', 'new');
    setState(id, 'DETACHED', 'new');
    return id;
  };
  const state = (id: string): SessionStateT | undefined => store.sessions.get(id)?.state;
  return { store, clock, timers, logs, watchers, turns, permissions, closes, forced, ctl, reaper, detached, state, setState, close, candidates };
}

describe('keepReason: the reaper predicate', () => {
  const idle: IdleFacts = { state: 'DETACHED', lastActivityAt: 100, detachedAt: 200, watchers: 0, turnInFlight: false, pendingPermissions: 0 };

  it('reaps only when every clause holds, at or after the cutoff', () => {
    expect(keepReason(idle, 200)).toBeUndefined();
    expect(keepReason(idle, 199)).toBe('recently active');
  });

  it.each<[string, Partial<IdleFacts>]>([
    ['a window watches it (ACTIVE)', { state: 'ACTIVE' }],
    ['a window watches it (count)', { watchers: 1 }],
    ['it is closing already', { state: 'CLOSING' }],
    ['it has ended', { state: 'ENDED' }],
    ['a turn is in flight', { turnInFlight: true }],
    ['a permission is pending', { pendingPermissions: 1 }],
    ['its last activity is recent', { lastActivityAt: 1_000 }],
    ['its last window left recently', { detachedAt: 1_000 }],
  ])('keeps a session when only this fails: %s', (_name, change) => {
    expect(keepReason({ ...idle, ...change }, 500)).toBeDefined();
    expect(keepReason(idle, 500)).toBeUndefined();
  });

  it('keeps a session that no longer exists', () => {
    expect(keepReason(undefined, 500)).toBe('gone');
  });
});

describe('IdleReaper: timer', () => {
  it('runs on one host timer, re-armed after each pass, and reaps once the timeout has passed', async () => {
    const { reaper, clock, timers, detached, closes, state, candidates } = setup();
    const id = detached();
    reaper.start();
    expect(timers.has('idle-reaper')).toBe(true);
    expect(clock.pendingTimers).toBe(1);
    await clock.advance(IDLE - 1);
    expect(candidates).toHaveBeenCalledTimes(4);
    expect(closes).toEqual([]);
    expect(clock.pendingTimers).toBe(1);
    await clock.advance(1);
    expect(closes).toEqual([id]);
    await flushMicrotasks();
    expect(state(id)).toBe('ENDED');
    expect(clock.pendingTimers).toBe(1);
  });

  it('runs no tick after stop, even with one due', async () => {
    const { reaper, clock, candidates, detached, closes } = setup();
    detached();
    reaper.start();
    await clock.advance(INTERVAL - 1);
    reaper.stop();
    expect(clock.pendingTimers).toBe(0);
    await clock.advance(100 * INTERVAL);
    expect(candidates).not.toHaveBeenCalled();
    expect(closes).toEqual([]);
  });

  it('stops a pass in flight before its next session', async () => {
    const { reaper, clock, detached, closes, ctl, store, state } = setup();
    const a = detached();
    const b = detached();
    store.sessions.touch(a, clock.now() - 1); // a is first
    const gate = deferred();
    ctl.agentClose = () => gate.promise;
    await clock.advance(IDLE);
    const pass = reaper.tick();
    await flushMicrotasks();
    expect(closes).toEqual([a]);
    reaper.stop();
    gate.resolve();
    await pass;
    expect(closes).toEqual([a]);
    expect(state(b)).toBe('DETACHED');
  });

  it('runs again when started after a stop', async () => {
    const { reaper, clock, detached, closes } = setup();
    const id = detached();
    reaper.start();
    reaper.stop();
    reaper.start();
    await clock.advance(IDLE);
    expect(closes).toEqual([id]);
  });

  it.each([
    ['idleTimeoutMs', { idleTimeoutMs: 0 }],
    ['reapIntervalMs', { intervalMs: 0 }],
  ])('is disabled by %s 0: no timer, and even a direct tick closes nothing', async (_name, o) => {
    const { reaper, clock, timers, detached, closes, candidates } = setup(o);
    detached();
    await clock.advance(10 * IDLE);
    reaper.start();
    expect(reaper.enabled).toBe(false);
    expect(timers.size).toBe(0);
    expect(clock.pendingTimers).toBe(0);
    await reaper.tick();
    expect(candidates).not.toHaveBeenCalled();
    expect(closes).toEqual([]);
  });

  it('logs a pass that throws and keeps running', async () => {
    const { reaper, clock, detached, closes, candidates, logs } = setup();
    const id = detached();
    candidates.mockImplementationOnce(() => {
      throw new Error('database is locked');
    });
    reaper.start();
    await clock.advance(INTERVAL);
    expect(logs).toContainEqual(expect.objectContaining({ level: 'error', msg: 'idle reaper pass failed', fields: { error: expect.stringContaining('locked') } }));
    await clock.advance(IDLE);
    expect(closes).toEqual([id]);
  });
});

describe('IdleReaper: the predicate, clause by clause', () => {
  it('reaps a DETACHED, idle session with reason idle_timeout', async () => {
    const { reaper, clock, detached, closes, store } = setup();
    const id = detached();
    await clock.advance(IDLE);
    await reaper.tick();
    expect(closes).toEqual([id]);
    expect(store.sessions.get(id)).toMatchObject({ state: 'ENDED', state_reason: 'idle_timeout' });
  });

  it('keeps an ACTIVE session (a window watches it), then reaps it once the window left and the timeout passed', async () => {
    const { reaper, clock, detached, closes, setState, watchers } = setup();
    const id = detached();
    setState(id, 'ACTIVE', 'watched');
    watchers.set(id, 1);
    await clock.advance(10 * IDLE);
    await reaper.tick();
    expect(closes).toEqual([]);
    watchers.delete(id);
    setState(id, 'DETACHED', 'unwatched');
    await clock.advance(IDLE);
    await reaper.tick();
    expect(closes).toEqual([id]);
  });

  it('keeps a session with a turn in flight, then reaps it once the turn is done', async () => {
    const { reaper, clock, detached, closes, turns } = setup();
    const id = detached();
    turns.add(id);
    await clock.advance(10 * IDLE);
    await reaper.tick();
    expect(closes).toEqual([]);
    turns.delete(id);
    await reaper.tick();
    expect(closes).toEqual([id]);
  });

  it('keeps a session with a pending permission, then reaps it once it is answered', async () => {
    const { reaper, clock, detached, closes, permissions } = setup();
    const id = detached();
    permissions.set(id, 1);
    await clock.advance(10 * IDLE);
    await reaper.tick();
    expect(closes).toEqual([]);
    permissions.delete(id);
    await reaper.tick();
    expect(closes).toEqual([id]);
  });

  it('keeps a session whose last activity is recent though it was detached long ago', async () => {
    const { reaper, clock, detached, closes, store } = setup();
    const id = detached();
    await clock.advance(10 * IDLE);
    store.sessions.touch(id, clock.now() - IDLE + 1);
    await reaper.tick();
    expect(closes).toEqual([]);
    await clock.advance(1);
    await reaper.tick();
    expect(closes).toEqual([id]);
  });

  it('keeps a session whose last window left recently though its last activity is old', async () => {
    const { reaper, clock, detached, closes, setState } = setup();
    const id = detached();
    setState(id, 'ACTIVE', 'watched');
    await clock.advance(10 * IDLE);
    setState(id, 'DETACHED', 'unwatched');
    await clock.advance(IDLE - 1);
    await reaper.tick();
    expect(closes).toEqual([]);
    await clock.advance(1);
    await reaper.tick();
    expect(closes).toEqual([id]);
  });
});

describe('IdleReaper: races', () => {
  it('checks again right before closing: a window that attached while the reaper worked wins', async () => {
    const { reaper, clock, detached, closes, ctl, store, watchers, setState, state } = setup();
    const a = detached();
    const b = detached();
    store.sessions.touch(a, clock.now() - 1);
    const gate = deferred();
    ctl.agentClose = () => gate.promise;
    await clock.advance(IDLE);
    const pass = reaper.tick();
    await flushMicrotasks();
    expect(closes).toEqual([a]);
    watchers.set(b, 1);
    setState(b, 'ACTIVE', 'watched');
    gate.resolve();
    await pass;
    expect(closes).toEqual([a]);
    expect(state(b)).toBe('ACTIVE');
  });

  it('checks again right before closing: a prompt that arrived while the reaper worked wins', async () => {
    const { reaper, clock, detached, closes, ctl, store, turns, state } = setup();
    const a = detached();
    const b = detached();
    store.sessions.touch(a, clock.now() - 1);
    const gate = deferred();
    ctl.agentClose = () => gate.promise;
    await clock.advance(IDLE);
    const pass = reaper.tick();
    await flushMicrotasks();
    turns.add(b);
    gate.resolve();
    await pass;
    expect(closes).toEqual([a]);
    expect(state(b)).toBe('DETACHED');
  });

  it('closes a session once when ticks overlap, the timer fires and an explicit close comes during a slow agent close', async () => {
    const { reaper, clock, detached, closes, ctl, close, state, timers } = setup();
    const id = detached();
    const gate = deferred();
    ctl.agentClose = () => gate.promise;
    reaper.start();
    await clock.advance(IDLE);
    expect(closes).toEqual([id]);
    const overlapping = [reaper.tick(), reaper.tick()];
    const explicit = close(id);
    await clock.advance(10 * INTERVAL);
    expect(timers.has('idle-reaper')).toBe(false); // the next tick waits for the slow pass
    gate.resolve();
    await Promise.all([...overlapping, explicit]);
    await clock.advance(10 * INTERVAL);
    expect(closes).toEqual([id]);
    expect(state(id)).toBe('ENDED');
  });

  it('skips a session whose explicit close is in flight', async () => {
    const { reaper, clock, detached, closes, ctl, close, forced } = setup();
    const id = detached();
    const gate = deferred();
    ctl.agentClose = () => gate.promise;
    await clock.advance(IDLE);
    const explicit = close(id);
    await reaper.tick();
    gate.resolve();
    await explicit;
    await reaper.tick();
    expect(closes).toEqual([id]);
    expect(forced).toEqual([]);
  });
});

describe('IdleReaper: a close that keeps failing', () => {
  it('is retried on later ticks up to maxCloseAttempts, then the session is ended by force and the reason logged', async () => {
    const { reaper, clock, detached, ctl, forced, logs, state } = setup({ maxCloseAttempts: 3 });
    const id = detached();
    ctl.failClose = new Error('agent refused session/close');
    reaper.start();
    await clock.advance(IDLE);
    await clock.advance(INTERVAL);
    expect(forced).toEqual([]);
    expect(logs.filter((l) => l.msg === 'closing an idle session failed').map((l) => l.fields?.attempts)).toEqual([1, 2]);
    await clock.advance(INTERVAL);
    expect(forced).toEqual([id]);
    expect(state(id)).toBe('ENDED');
    expect(logs).toContainEqual(
      expect.objectContaining({
        level: 'warn',
        msg: 'ending an idle session by force after repeated failures',
        fields: expect.objectContaining({ session: id, attempts: 3, error: expect.stringContaining('agent refused') }),
      }),
    );
    await clock.advance(10 * INTERVAL);
    expect(forced).toEqual([id]);
  });

  it('does not end a session by force once it stopped being idle', async () => {
    const { reaper, clock, detached, ctl, forced, watchers, state, logs } = setup({ maxCloseAttempts: 2 });
    const id = detached();
    ctl.failClose = new Error('agent refused session/close');
    await clock.advance(IDLE);
    await reaper.tick();
    // The second, last allowed attempt fails while a window attaches.
    ctl.whileFailing = (sid) => watchers.set(sid, 1);
    await reaper.tick();
    expect(logs.filter((l) => l.msg === 'closing an idle session failed')).toHaveLength(2);
    expect(forced).toEqual([]);
    expect(state(id)).toBe('DETACHED');
  });

  it('starts counting again for a session that stopped being a candidate', async () => {
    const { reaper, clock, detached, ctl, forced, store } = setup({ maxCloseAttempts: 2 });
    const id = detached();
    ctl.failClose = new Error('agent refused session/close');
    await clock.advance(IDLE);
    await reaper.tick(); // attempt 1
    store.sessions.touch(id, clock.now()); // used again
    await reaper.tick(); // not a candidate: its count is forgotten
    await clock.advance(IDLE);
    await reaper.tick(); // attempt 1 again, not 2
    expect(forced).toEqual([]);
    await reaper.tick();
    expect(forced).toEqual([id]);
  });
});

describe('keepReason across a sleep', () => {
  const facts = { state: 'DETACHED' as const, lastActivityAt: 1_000, detachedAt: 1_000, watchers: 0, turnInFlight: false, pendingPermissions: 0 };
  it('does not count the time asleep as idle', () => {
    // Cutoff: idle since 2,000 or earlier. Wall-idle, but 5,000 of it was asleep.
    expect(keepReason(facts, 2_000)).toBeUndefined();
    expect(keepReason(facts, 2_000, () => 5_000)).toBe('recently active');
    expect(keepReason(facts, 7_000, () => 5_000)).toBeUndefined();
  });
});
