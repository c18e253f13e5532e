import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { captureLogger, type LogEntry } from '../test-support/capture-logger';
import { startHarness, type Harness } from '../test-support/host-harness';
import { isLive, waitUntil } from '../test-support/processes';

/** The host's watchdog from the host's side: it comes and goes with the host, and is optional (ADR 0012). */

const harnesses: Harness[] = [];
afterEach(async () => {
  for (const h of harnesses.splice(0)) await h.cleanup();
});

async function harness(...args: Parameters<typeof startHarness>): Promise<Harness> {
  const h = await startHarness(...args);
  harnesses.push(h);
  return h;
}

describe('SessionHost: its watchdog', () => {
  it('starts one watchdog with the first agent (not before: a host start does not wait on it) and leaves none after quit', async () => {
    const h = await harness();
    expect(h.host.watchdog.pid).toBeUndefined();
    const w = h.window();
    const { id } = await w.call('sessions:create', { cwd: h.dataDir });
    await w.call('sessions:switch', { sessionId: id });
    await w.prompt(id, 'hello', randomUUID());
    await w.waitForText(id, 'Echo: hello');
    const watchdog = h.host.watchdog.pid;
    expect(watchdog).toBeDefined();
    expect(isLive(watchdog!)).toBe(true);
    await h.host.shutdown();
    await waitUntil(() => !isLive(watchdog!), 'the watchdog to exit after quit', 3_000);
  });

  it('keeps working, with a warning, when the watchdog’s script is missing', async () => {
    const entries: LogEntry[] = [];
    const h = await harness({ log: captureLogger(entries), watchdogScript: '/nonexistent/watchdog.js' });
    expect(h.host.watchdog.pid).toBeUndefined();
    expect(entries).toContainEqual(expect.objectContaining({ level: 'warn', msg: expect.stringContaining('the watchdog is missing') }));

    const w = h.window();
    const { id } = await w.call('sessions:create', { cwd: h.dataDir });
    await w.call('sessions:switch', { sessionId: id });
    await w.prompt(id, 'still works', randomUUID());
    await w.waitForText(id, 'Echo: still works');
  });
});
