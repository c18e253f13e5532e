import { EventEmitter } from 'node:events';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { silentLogger } from '../util/log';
import { installQuitHandling } from './lifecycle';

class FakeApp extends EventEmitter {
  exits: number[] = [];
  quit(): void {
    const event = { defaultPrevented: false, preventDefault: () => (event.defaultPrevented = true) };
    this.emit('before-quit', event);
    if (!event.defaultPrevented) this.exits.push(0);
  }
  exit(code = 0): void {
    this.exits.push(code);
  }
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('installQuitHandling', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  function setup(shutdown: () => Promise<void>) {
    const app = new FakeApp();
    const proc = new EventEmitter();
    const phase = installQuitHandling({
      app: app as never,
      shutdown,
      log: silentLogger,
      proc: proc as never,
    });
    return { app, proc, phase };
  }

  it('holds the quit until the host has shut down, then exits 0', async () => {
    const done = deferred();
    const shutdown = vi.fn(() => done.promise);
    const { app, phase } = setup(shutdown);
    app.quit();
    expect(phase()).toBe('stopping');
    expect(app.exits).toEqual([]);
    done.resolve();
    await vi.runAllTimersAsync();
    expect(app.exits).toEqual([0]);
    expect(phase()).toBe('stopped');
  });

  it('shuts down once however many quits and signals arrive', async () => {
    const done = deferred();
    const shutdown = vi.fn(() => done.promise);
    const { app, proc } = setup(shutdown);
    app.quit();
    proc.emit('SIGINT');
    proc.emit('SIGTERM');
    app.quit();
    done.resolve();
    await vi.runAllTimersAsync();
    expect(shutdown).toHaveBeenCalledTimes(1);
    expect(app.exits).toEqual([0]);
  });

  it('exits after the 5 s cap when the shutdown hangs', async () => {
    const { app } = setup(() => new Promise<void>(() => {}));
    app.quit();
    await vi.advanceTimersByTimeAsync(4999);
    expect(app.exits).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(app.exits).toEqual([1]);
  });

  it('still exits when the shutdown fails', async () => {
    const { app } = setup(() => Promise.reject(new Error('boom')));
    app.quit();
    await vi.runAllTimersAsync();
    expect(app.exits).toEqual([1]);
  });
});
