import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { DatabaseCheck } from '../store/db-check';
import { Store } from '../store/store';
import { FakeClock } from '../test-support/fake-clock';
import { tempDir } from '../test-support/temp-dir';
import { silentLogger } from '../util/log';
import { TimerQueue } from '../util/timer-queue';
import { StorageHealth } from './storage-health';
import { CHECK_QUIET_MS, CHECK_YIELD_MAX_MS, START_CHECK_DELAY_MS, StorageCare } from './storage-care';

const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A start-up check the test ends: each try waits for `pass()` or for its signal. */
function heldChecks() {
  const tries: { signal: AbortSignal; pass(): void }[] = [];
  const run = (signal: AbortSignal): Promise<DatabaseCheck> =>
    new Promise((resolve, reject) => {
      signal.addEventListener('abort', () => reject(new Error('check stopped')), { once: true });
      tries.push({ signal, pass: () => resolve({ ok: true, schemaVersion: 1 }) });
    });
  return { tries, run };
}

function setup() {
  const dir = tempDir();
  const store = Store.open(join(dir.path, 'switchboard.db'));
  const clock = new FakeClock();
  const timers = new TimerQueue(clock);
  const checks = heldChecks();
  const care = new StorageCare({
    dataDir: dir.path,
    database: join(dir.path, 'switchboard.db'),
    store,
    timers,
    clock,
    log: silentLogger,
    health: new StorageHealth({ file: join(dir.path, 'switchboard.db'), log: silentLogger, broadcast: () => {} }),
    keep: () => 3,
    canRestart: false,
    onDeleted: () => {},
    checkDatabase: checks.run,
    // No backup is taken here: the copy never finishes.
    copy: () => new Promise(() => {}),
  });
  cleanups.push(() => {
    care.dispose();
    timers.dispose();
    store.dispose();
    dir.cleanup();
  });
  return { care, clock, checks };
}

describe('the start-up check gives way to a person at a window', () => {
  it('stops a check under way at a window action and starts it over once the windows were quiet CHECK_QUIET_MS', async () => {
    const { care, clock, checks } = setup();
    care.start();
    await clock.advance(START_CHECK_DELAY_MS);
    expect(checks.tries).toHaveLength(1);
    care.noteActivity();
    expect(checks.tries[0]!.signal.aborted).toBe(true);
    expect(care.yielded).toBe(1);
    // More actions push the next try on: it waits for quiet from the last one.
    await clock.advance(CHECK_QUIET_MS / 2);
    care.noteActivity();
    await clock.advance(CHECK_QUIET_MS - 1);
    expect(checks.tries).toHaveLength(1);
    await clock.advance(1);
    expect(checks.tries).toHaveLength(2);
    checks.tries[1]!.pass();
    await expect(care.check()).resolves.toEqual({ ok: true, schemaVersion: 1 });
    // Done: later actions stop nothing.
    care.noteActivity();
    expect(care.yielded).toBe(1);
  });

  it('runs to its end once its tries have waited CHECK_YIELD_MAX_MS, whatever the windows do', async () => {
    const { care, clock, checks } = setup();
    void care.check();
    await clock.advance(0);
    expect(checks.tries).toHaveLength(1);
    // A person who never stops for long: a try every CHECK_QUIET_MS, each stopped at once.
    const started = clock.now();
    while (clock.now() - started < CHECK_YIELD_MAX_MS) {
      care.noteActivity();
      await clock.advance(CHECK_QUIET_MS);
    }
    const tries = checks.tries.length;
    const last = checks.tries.at(-1)!;
    care.noteActivity();
    expect(last.signal.aborted).toBe(false);
    expect(checks.tries).toHaveLength(tries);
    last.pass();
    await expect(care.check()).resolves.toMatchObject({ ok: true });
  });

  it('ends a try waiting for quiet when the host stops', async () => {
    const { care, clock, checks } = setup();
    const done = care.check();
    await clock.advance(0);
    care.noteActivity();
    await care.settle();
    await expect(done).resolves.toMatchObject({ ok: true });
    expect(checks.tries).toHaveLength(1);
  });
});
