import { afterEach, describe, expect, it } from 'vitest';
import { brokerRows, deadPid, helperOf, owners, PoolTestbed, type PoolFixture } from '../test-support/pool-fixture';
import { isLive, waitUntil } from '../test-support/processes';
import { BROKER_ENV, processStartTime } from '../util/process-info';

/**
 * At start-up the host kills recorded agent processes whose host is gone, verifying pid and
 * start time (a recycled pid is never killed), then clears the records (issue 4).
 */

const bed = new PoolTestbed();
afterEach(() => bed.cleanup());

describe('BrokerPool: orphan sweep at start-up', () => {
  function record(f: PoolFixture, row: { id: string; pid: number; pidStart: string | null | undefined; hostPid: number; hostStart: string | null | undefined }): void {
    f.store.brokers.insert({
      id: row.id,
      agent_id: 'demo',
      pid: row.pid,
      pid_start_time: row.pidStart ?? null,
      host_pid: row.hostPid,
      host_start_time: row.hostStart ?? null,
      created_at: 0,
    });
    f.store.brokers.addOwner(row.id, `owner-of-${row.id}`);
  }

  /** An agent a previous (now dead) host started, as that host would have: its own group. */
  async function orphanAgent(f: PoolFixture, id: string): Promise<{ pid: number; helper: number }> {
    const child = bed.spawnDetached(f.agent.command, f.agent.args, { ...process.env, ...f.agent.env, [BROKER_ENV]: id });
    const pid = child.pid as number;
    const start = processStartTime(pid);
    const helper = await helperOf(pid);
    record(f, { id, pid, pidStart: start, hostPid: await deadPid(), hostStart: '12345' });
    return { pid, helper };
  }

  it('kills a recorded agent group whose host is gone, after checking pid and start time', async () => {
    const f = bed.pool({ stubborn: true });
    const orphan = await orphanAgent(f, 'old');
    expect(f.pool.sweepOrphans()).toEqual({ killed: 1, cleared: 1 });
    await waitUntil(() => !isLive(orphan.pid) && !isLive(orphan.helper), 'the orphan group to die', 5_000);
    expect(brokerRows(f.store)).toBe(0);
    expect(owners(f.store)).toEqual([]);
  });

  it('kills the helpers of a recorded agent that already died with its host', async () => {
    const f = bed.pool({ stubborn: true });
    const orphan = await orphanAgent(f, 'old');
    process.kill(orphan.pid, 'SIGKILL'); // like an agent that exits on EPIPE once its host is gone
    await waitUntil(() => !isLive(orphan.pid), 'the orphan leader to die');
    expect(isLive(orphan.helper)).toBe(true);

    expect(f.pool.sweepOrphans()).toEqual({ killed: 1, cleared: 1 });
    await waitUntil(() => !isLive(orphan.helper), 'the leftover helper to be killed', 5_000);
    expect(brokerRows(f.store)).toBe(0);
  });

  it('never kills a recycled pid (same pid, other start time) and clears its record', async () => {
    const f = bed.pool();
    // A group leader, so even a signal to the whole group would reach it if the sweep misjudged it.
    const unrelated = bed.spawnDetached('sleep', ['600']);
    const pid = unrelated.pid as number;
    record(f, { id: 'stale', pid, pidStart: '1', hostPid: await deadPid(), hostStart: '1' });

    expect(f.pool.sweepOrphans()).toEqual({ killed: 0, cleared: 1 });
    expect(brokerRows(f.store)).toBe(0);
    expect(isLive(pid)).toBe(true);
    expect(unrelated.exitCode).toBeNull();
  });

  it('leaves the records and processes of a host that is still running alone', async () => {
    const f = bed.pool({ stubborn: true });
    // Stands in for another live host: a running process with its real start time.
    const otherHost = bed.spawnDetached('sleep', ['600']);
    const hostPid = otherHost.pid as number;
    const agent = bed.spawnDetached(f.agent.command, f.agent.args);
    const pid = agent.pid as number;
    record(f, { id: 'theirs', pid, pidStart: processStartTime(pid), hostPid, hostStart: processStartTime(hostPid) });

    expect(f.pool.sweepOrphans()).toEqual({ killed: 0, cleared: 0 });
    expect(brokerRows(f.store)).toBe(1);
    expect(isLive(pid)).toBe(true);
  });
});

