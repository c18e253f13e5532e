import { afterEach, describe, expect, it } from 'vitest';
import { deadPid, helperOf, PoolTestbed } from '../../test-support/pool-fixture';
import { demoAgent } from '../../test-support/demo-agent';
import { isLive, waitUntil } from '../../test-support/processes';
import { tempDir } from '../../test-support/temp-dir';
import { BROKER_ENV, processStartTime, processesMarkedWith } from '../../util/process-info';
import type { WatchedAgent } from './protocol';
import { reap, targetOf } from './reap';

/**
 * The watchdog's kill decision and the kill itself: a recorded agent's group dies with its
 * helpers, and a pid that names another process now is never signalled (ADR 0012).
 */

const bed = new PoolTestbed();
afterEach(() => bed.cleanup());

const quick = { graceMs: 200, settleMs: 3_000 };

describe('targetOf: what the watchdog may signal', () => {
  const agent = (over: Partial<WatchedAgent> = {}): WatchedAgent => ({ id: 'b', pid: 4242, startTime: '777', pgid: 4242, ...over });
  const startedAt = (start: string | undefined) => () => start;

  it('signals the group of a live agent that still started when ours did', () => {
    expect(targetOf(agent(), startedAt('777'))).toBe('group');
  });

  it('never signals a pid that was reused: another start time means another process, and our group is gone', () => {
    expect(targetOf(agent(), startedAt('778'))).toBe('nothing');
  });

  it('never signals a live pid whose start time was not recorded', () => {
    expect(targetOf(agent({ startTime: null }), startedAt('777'))).toBe('nothing');
  });

  it('signals the group of an agent that is gone: helpers left in it keep its id ours', () => {
    expect(targetOf(agent(), startedAt(undefined))).toBe('group');
  });

  it('signals only the agent itself when it leads no group, and nothing once it is gone', () => {
    expect(targetOf(agent({ pgid: null }), startedAt('777'))).toBe('process');
    expect(targetOf(agent({ pgid: 1 }), startedAt('777'))).toBe('process');
    expect(targetOf(agent({ pgid: null }), startedAt(undefined))).toBe('nothing');
  });
});

describe('reap: ending recorded agents', () => {
  function stubbornAgent(id: string): { pid: number; record: WatchedAgent } {
    const dir = tempDir();
    bed.defer(() => dir.cleanup());
    const def = demoAgent(dir.path, ['--stubborn']);
    const child = bed.spawnDetached(def.command, def.args, { ...process.env, ...def.env, [BROKER_ENV]: id });
    const pid = child.pid as number;
    return { pid, record: { id, pid, startTime: processStartTime(pid) ?? null, pgid: pid } };
  }

  it('kills an agent that ignores SIGTERM, with the helper in its group, SIGKILL after the grace', async () => {
    const agent = stubbornAgent('stubborn');
    const helper = await helperOf(agent.pid);

    const result = await reap([agent.record], quick);
    expect(result.survivors).toBe(false);
    expect(isLive(agent.pid)).toBe(false);
    expect(isLive(helper)).toBe(false);
  });

  it('kills a helper that left the group by its BROKER_ENV marker, after its agent is gone', async () => {
    const escaped = bed.spawnDetached(process.execPath, ['-e', 'setInterval(() => {}, 1 << 30)'], { ...process.env, [BROKER_ENV]: 'gone-agent' });
    // Until it has exec'd, the new process still carries this one's environment (no marker):
    // on a loaded machine a reap right after the spawn found nothing to kill, and it then started.
    await waitUntil(() => processesMarkedWith(['gone-agent']).get('gone-agent')?.includes(escaped.pid as number) === true, 'the helper to start with its marker');
    const pid = await deadPid();
    expect(await reap([{ id: 'gone-agent', pid, startTime: '1', pgid: pid }], quick)).toMatchObject({ survivors: false });
    // The marker is read from /proc/<pid>/environ, which a process empties early in its exit, a
    // moment before its state says so: the reap sees it gone first (seen in a fresh-clone CI run).
    await waitUntil(() => !isLive(escaped.pid as number), 'the signalled helper to be gone', 2_000);
  });

  it('never signals a recycled pid (same pid, other start time), even as a group leader', async () => {
    const unrelated = bed.spawnDetached('sleep', ['600']);
    const pid = unrelated.pid as number;
    expect(await reap([{ id: 'stale', pid, startTime: '1', pgid: pid }], quick)).toEqual({ signalled: 0, survivors: false });
    expect(isLive(pid)).toBe(true);
    expect(unrelated.exitCode).toBeNull();
  });
});
