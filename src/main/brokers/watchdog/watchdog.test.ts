import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { captureLogger, type LogEntry } from '../../test-support/capture-logger';
import { demoAgent } from '../../test-support/demo-agent';
import { helperOf, PoolTestbed } from '../../test-support/pool-fixture';
import { isLive, killAll, waitUntil } from '../../test-support/processes';
import { tempDir } from '../../test-support/temp-dir';
import { BROKER_ENV, processStartTime } from '../../util/process-info';
import { encodeMessage, type WatchedAgent } from './protocol';
import { Watchdog, watchdogEntry } from './watchdog';

/**
 * The host's watchdog as a real process (run from source through tsx, as the host finds it
 * under vitest): what it kills when its pipe closes, what it leaves alone, and how the host
 * copes when it is missing or dies (ADR 0012).
 */

const bed = new PoolTestbed();
const watchdogs: Watchdog[] = [];
afterEach(async () => {
  for (const w of watchdogs.splice(0)) w.dispose();
  await bed.cleanup();
});

function start(entries: LogEntry[] = [], script?: string): Watchdog {
  const w = Watchdog.start({ log: captureLogger(entries), ...(script ? { script } : {}) });
  watchdogs.push(w);
  return w;
}

/** A stubborn demo agent (ignores end of input and SIGTERM) as the pool starts it, up and running. */
async function stubbornAgent(id: string): Promise<WatchedAgent & { helper: number }> {
  const dir = tempDir();
  bed.defer(() => dir.cleanup());
  const def = demoAgent(dir.path, ['--stubborn']);
  const pid = bed.spawnDetached(def.command, def.args, { ...process.env, ...def.env, [BROKER_ENV]: id }).pid as number;
  return { id, pid, startTime: processStartTime(pid) ?? null, pgid: pid, helper: await helperOf(pid) };
}

function record({ id, pid, startTime, pgid }: WatchedAgent): WatchedAgent {
  return { id, pid, startTime, pgid };
}

describe('Watchdog: a process of its own that outlives its host', () => {
  it('kills a tracked agent that ignores end of input, and its helper, once the host’s end of the pipe closes; then exits', async () => {
    const w = start();
    const agent = await stubbornAgent('tracked');
    w.track(record(agent));
    const watchdog = w.pid!;
    expect(isLive(watchdog)).toBe(true);

    // What the kernel does when the host dies, however it dies.
    w.dispose();
    await waitUntil(() => !isLive(agent.pid) && !isLive(agent.helper), 'the agent and its helper to be killed', 5_000);
    await waitUntil(() => !isLive(watchdog), 'the watchdog to exit', 5_000);
  });

  it('leaves an agent the host untracked alone, and exits', async () => {
    const w = start();
    const agent = await stubbornAgent('untracked');
    w.track(record(agent));
    w.untrack(agent.id);
    const watchdog = w.pid!;
    w.dispose();
    await waitUntil(() => !isLive(watchdog), 'the watchdog to exit', 5_000);
    expect(isLive(agent.pid)).toBe(true);
    expect(isLive(agent.helper)).toBe(true);
  });

  it('is started again when it dies, and told of every agent still running', async () => {
    const entries: LogEntry[] = [];
    const w = start(entries);
    const agent = await stubbornAgent('survivor');
    w.track(record(agent));
    const first = w.pid!;
    process.kill(first, 'SIGKILL');
    await waitUntil(() => w.pid !== undefined && w.pid !== first, 'a new watchdog');
    expect(entries).toContainEqual(expect.objectContaining({ level: 'warn', msg: 'the watchdog exited; starting it again' }));
    expect(isLive(agent.pid)).toBe(true);

    w.dispose();
    await waitUntil(() => !isLive(agent.pid) && !isLive(agent.helper), 'the new watchdog to kill the agent', 5_000);
  });

  it.runIf(process.platform === 'linux')('starts without NODE_EXTRA_CA_CERTS, which it has no use for and Node would parse as it starts', async () => {
    const before = process.env.NODE_EXTRA_CA_CERTS;
    process.env.NODE_EXTRA_CA_CERTS = '/etc/ssl/certs/ca-certificates.crt';
    let w: Watchdog;
    try {
      w = start();
    } finally {
      if (before === undefined) delete process.env.NODE_EXTRA_CA_CERTS;
      else process.env.NODE_EXTRA_CA_CERTS = before;
    }
    const environ = readFileSync(`/proc/${w.pid!}/environ`, 'utf8').split('\0');
    expect(environ.some((v) => v.startsWith('PATH='))).toBe(true);
    expect(environ.filter((v) => v.startsWith('NODE_EXTRA_CA_CERTS='))).toEqual([]);
  });

  it('on demand: starts no process until the first agent is tracked, then one that kills it once the pipe closes', async () => {
    const w = Watchdog.start({ log: captureLogger([]), onDemand: true });
    watchdogs.push(w);
    expect(w.pid).toBeUndefined();
    const agent = await stubbornAgent('first');
    w.track(record(agent));
    const watchdog = w.pid!;
    expect(watchdog).toBeDefined();
    expect(isLive(watchdog)).toBe(true);
    w.dispose();
    await waitUntil(() => !isLive(agent.pid) && !isLive(agent.helper), 'the agent tracked first to be killed', 5_000);
    await waitUntil(() => !isLive(watchdog), 'the watchdog to exit', 5_000);
  });

  it('on demand: says at once that its script is missing, not first when an agent starts', () => {
    const entries: LogEntry[] = [];
    const w = Watchdog.start({ log: captureLogger(entries), script: '/nonexistent/watchdog.js', onDemand: true });
    watchdogs.push(w);
    expect(entries).toContainEqual(expect.objectContaining({ level: 'warn', msg: expect.stringContaining('the watchdog is missing') }));
    w.track({ id: 'x', pid: process.pid, startTime: processStartTime(process.pid) ?? null, pgid: null });
    expect(w.pid).toBeUndefined();
    expect(entries.filter((e) => e.msg.includes('the watchdog is missing'))).toHaveLength(1);
  });

  it('costs the host only a warning when its script is missing', () => {
    const entries: LogEntry[] = [];
    const w = start(entries, '/nonexistent/watchdog.js');
    expect(w.pid).toBeUndefined();
    expect(entries).toContainEqual(expect.objectContaining({ level: 'warn', msg: expect.stringContaining('the watchdog is missing') }));
    w.track({ id: 'x', pid: process.pid, startTime: processStartTime(process.pid) ?? null, pgid: null });
    w.untrack('x');
    w.dispose();
  });

  it('acts when its host is gone even if the pipe stays open (a descriptor leaked to another process)', async () => {
    const host = bed.spawnDetached('sleep', ['600']);
    const hostPid = host.pid as number;
    const entry = watchdogEntry()!;
    // This test holds the pipe's write end, as a leaked descriptor would after the host died.
    const watchdog = spawn(process.execPath, [...entry, '--host-pid', String(hostPid), '--host-start', processStartTime(hostPid)!], {
      stdio: ['pipe', 'ignore', 'ignore'],
      detached: true,
    });
    bed.defer(() => killAll([watchdog.pid!]));
    const agent = await stubbornAgent('leaked-pipe');
    watchdog.stdin.write(encodeMessage({ op: 'track', ...record(agent) }));

    process.kill(hostPid, 'SIGKILL');
    await waitUntil(() => !isLive(agent.pid) && !isLive(agent.helper), 'the agent to be killed', 5_000);
    await waitUntil(() => !isLive(watchdog.pid!), 'the watchdog to exit', 5_000);
  });
});
