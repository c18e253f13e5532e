import { describe, expect, it, vi } from 'vitest';
import { onAbort } from './abortable';

describe('onAbort', () => {
  it('runs at once for a signal that already aborted (its event will not fire again)', () => {
    const controller = new AbortController();
    controller.abort();
    const fn = vi.fn();
    onAbort(controller.signal, fn);
    expect(fn).toHaveBeenCalledTimes(1);
  });

  it('runs once when the signal aborts later, and not at all once told to stop listening', () => {
    const later = new AbortController();
    const fn = vi.fn();
    onAbort(later.signal, fn);
    expect(fn).not.toHaveBeenCalled();
    later.abort();
    later.abort();
    expect(fn).toHaveBeenCalledTimes(1);

    const stopped = new AbortController();
    const never = vi.fn();
    onAbort(stopped.signal, never)();
    stopped.abort();
    expect(never).not.toHaveBeenCalled();
  });
});
