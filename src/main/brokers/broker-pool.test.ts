import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BrokersRepo } from '../store/brokers.repo';
import { openDatabase } from '../store/db';
import { brokerHelper, brokerRows, owners, PoolTestbed } from '../test-support/pool-fixture';
import { agentFootprint, demoAgents, groupMembers, isLive, killAll, listProcesses, waitUntil } from '../test-support/processes';
import { ShiftableClock } from '../test-support/shiftable-clock';
import { tempDir } from '../test-support/temp-dir';
import type { AgentDefinition } from './agent-definition';
import type { Broker } from './broker';
import { processStartTime } from '../util/process-info';

/** BrokerPool with real demo agent processes and real SQLite: ownership, teardown, crashes. */

const bed = new PoolTestbed();
afterEach(() => bed.cleanup());

describe('BrokerPool: ownership by session ids', () => {
  it('keeps the agent while an owner remains and leaves no process once the last owner is out', async () => {
    const f = bed.pool();
    const a = await f.pool.acquire('s1', f.agent);
    const b = await f.pool.acquire('s2', f.agent);
    expect(b).toBe(a);
    expect(demoAgents(f.dir)).toHaveLength(1);

    await f.pool.release('s1');
    expect(a.isAlive).toBe(true);
    expect(isLive(a.pid as number)).toBe(true);
    expect(owners(f.store)).toEqual([{ broker_id: a.id, session_id: 's2' }]);

    await f.pool.release('s2');
    expect(agentFootprint(f.dir, bed.groups)).toEqual([]);
    expect(brokerRows(f.store)).toBe(0);
    expect(owners(f.store)).toEqual([]);
    expect(f.pool.teardowns).toBe(1);
  });

  it('ends a stubborn agent (ignores EOF and SIGTERM) and its helper: SIGKILL reaches the whole group', async () => {
    const f = bed.pool({ stubborn: true });
    const broker = await f.pool.acquire('s1', f.agent);
    const helper = await brokerHelper(broker);

    await f.pool.release('s1');
    const exit = await broker.exited;
    expect(exit).toMatchObject({ expected: true, signal: 'SIGKILL' });
    expect(isLive(broker.pid as number)).toBe(false);
    expect(isLive(helper)).toBe(false);
    expect(agentFootprint(f.dir, bed.groups)).toEqual([]);
    expect(brokerRows(f.store)).toBe(0);
  });

  it('also ends helpers a wrapper started outside the agent’s process group', async () => {
    const f = bed.pool();
    // A shell wrapper that starts a helper in a session of its own, then becomes the agent.
    const marker = `${600 + Math.random()}`;
    const wrapped: AgentDefinition = {
      ...f.agent,
      command: 'sh',
      args: ['-c', `setsid sleep ${marker} & exec "$0" "$@"`, f.agent.command, ...f.agent.args],
    };
    const escaped = (): number[] => listProcesses().filter((p) => p.cmdline === `sleep ${marker}`).map((p) => p.pid);
    bed.defer(() => killAll(escaped()));
    const broker = await f.pool.acquire('s1', wrapped);
    await waitUntil(() => escaped().length === 1, 'the wrapper to start its helper');
    expect(groupMembers([broker.pid as number]).map((p) => p.pid)).not.toContain(escaped()[0]);

    await f.pool.release('s1');
    expect(escaped()).toEqual([]);
    expect(agentFootprint(f.dir, bed.groups)).toEqual([]);
  });

  it('shares a broker up to maxSessionsPerBroker; the next session gets a new one; owners are stored', async () => {
    const f = bed.pool({ pool: { maxSessionsPerBroker: 2 } });
    const [a, b, c] = await Promise.all([
      f.pool.acquire('s1', f.agent),
      f.pool.acquire('s2', f.agent),
      f.pool.acquire('s3', f.agent),
    ]);
    expect(b).toBe(a);
    expect(c).not.toBe(a);
    expect(f.spawns).toBe(2);
    expect(demoAgents(f.dir)).toHaveLength(2);
    expect(owners(f.store)).toEqual([
      { broker_id: a.id, session_id: 's1' },
      { broker_id: a.id, session_id: 's2' },
      { broker_id: c.id, session_id: 's3' },
    ]);
    const rows = f.store.brokers.all();
    expect(rows.map((r) => r.pid).sort()).toEqual([a.pid, c.pid].sort());
    for (const row of rows) {
      expect(row.pid_start_time).toBe(processStartTime(row.pid as number));
      expect(row.host_pid).toBe(process.pid);
      expect(row.host_start_time).toBe(processStartTime(process.pid));
    }
  });

  it('writes every owner change inside a SQLite transaction', async () => {
    const dir = tempDir();
    const db = openDatabase(join(dir.path, 'switchboard.db'));
    const inTransaction: boolean[] = [];
    const prepare = db.prepare.bind(db);
    // Record, for every statement that writes broker_owners, whether it ran inside a transaction.
    db.prepare = ((sql: string) => {
      const stmt = prepare(sql);
      if (/broker_owners/.test(sql) && /^\s*(INSERT|DELETE)/i.test(sql)) {
        const run = stmt.run.bind(stmt);
        stmt.run = ((...args: unknown[]) => {
          inTransaction.push(db.inTransaction);
          return run(...(args as []));
        }) as typeof stmt.run;
      }
      return stmt;
    }) as typeof db.prepare;
    const repo = new BrokersRepo(db);
    bed.defer(() => {
      db.close();
      dir.cleanup();
    });

    repo.insert({ id: 'b', agent_id: 'demo', pid: null, pid_start_time: null, host_pid: 1, host_start_time: null, created_at: 0 });
    repo.addOwner('b', 's1');
    repo.addOwner('b', 's2');
    expect(repo.removeOwner('b', 's1')).toBe(1);
    expect(repo.removeOwner('b', 's2')).toBe(0);
    repo.addOwner('b', 's3');
    repo.removeAllOwners('b');
    expect(repo.owners('b')).toEqual([]);
    expect(inTransaction).toEqual([true, true, true, true, true, true]);
  });

  it('tears a shared broker down exactly once when 20 owners leave at the same moment', async () => {
    const f = bed.pool({ pool: { maxSessionsPerBroker: 20 } });
    const ids = Array.from({ length: 20 }, (_, i) => `s${i}`);
    const brokers = await Promise.all(ids.map((id) => f.pool.acquire(id, f.agent)));
    const broker = brokers[0] as Broker;
    expect(new Set(brokers).size).toBe(1);
    expect(owners(f.store)).toHaveLength(20);
    let shutdowns = 0;
    const shutdown = broker.shutdown.bind(broker);
    broker.shutdown = (grace) => {
      shutdowns++;
      return shutdown(grace);
    };

    await Promise.all(ids.map((id) => f.pool.release(id)));
    expect(f.pool.teardowns).toBe(1);
    expect(shutdowns).toBe(1);
    expect(agentFootprint(f.dir, bed.groups)).toEqual([]);
    expect(owners(f.store)).toEqual([]);
    expect(brokerRows(f.store)).toBe(0);
  });

  it('gives a session that arrives while the broker shuts down a fresh broker', async () => {
    const f = bed.pool({ stubborn: true });
    const old = await f.pool.acquire('s1', f.agent);
    const leaving = f.pool.release('s1');
    expect(old.status).toBe('closing');

    const fresh = await f.pool.acquire('s2', f.agent);
    expect(fresh).not.toBe(old);
    expect(fresh.isAlive).toBe(true);
    await leaving;
    expect(isLive(old.pid as number)).toBe(false);
    expect(isLive(fresh.pid as number)).toBe(true);
    expect(f.pool.brokerOf('s2')).toBe(fresh);
    expect(owners(f.store)).toEqual([{ broker_id: fresh.id, session_id: 's2' }]);
    expect(f.store.brokers.all().map((r) => r.id)).toEqual([fresh.id]);
  });
});

describe('BrokerPool: crashes', () => {
  it('kills what is left of a crashed agent’s process group and clears its record', async () => {
    const f = bed.pool({ stubborn: true });
    const crashed: string[][] = [];
    f.pool.onDidCrash(({ sessionIds }) => crashed.push(sessionIds));
    const broker = await f.pool.acquire('s1', f.agent);
    const helper = await brokerHelper(broker);

    process.kill(broker.pid as number, 'SIGKILL'); // the agent dies; its helper does not
    const exit = await broker.exited;
    expect(exit.expected).toBe(false);
    expect(crashed).toEqual([['s1']]);
    await waitUntil(() => !isLive(helper), 'the crashed agent’s helper to be killed', 5_000);
    await waitUntil(() => brokerRows(f.store) === 0, 'the broker record to be cleared', 5_000);
    expect(owners(f.store)).toEqual([]);
    expect(f.pool.brokerOf('s1')).toBeUndefined();
  });

  it('stops respawning an agent that crashed 3 times within a minute until a retry', async () => {
    const clock = new ShiftableClock();
    const f = bed.pool({ clock });
    for (let i = 0; i < 3; i++) {
      const broker = await f.pool.acquire('s1', f.agent);
      process.kill(broker.pid as number, 'SIGKILL');
      await broker.exited;
    }
    expect(f.spawns).toBe(3);
    await expect(f.pool.acquire('s1', f.agent)).rejects.toMatchObject({ code: 'crash_loop' });
    expect(f.spawns).toBe(3);
    expect(demoAgents(f.dir)).toEqual([]);

    const again = await f.pool.acquire('s1', f.agent, { retry: true });
    expect(f.spawns).toBe(4);
    expect(again.isAlive).toBe(true);
  });

  it('counts only crashes within the last minute', async () => {
    const clock = new ShiftableClock();
    const f = bed.pool({ clock });
    const crash = async (): Promise<void> => {
      const broker = await f.pool.acquire('s1', f.agent);
      process.kill(broker.pid as number, 'SIGKILL');
      await broker.exited;
    };
    await crash();
    clock.shift(61_000);
    await crash();
    await crash();
    const broker = await f.pool.acquire('s1', f.agent);
    expect(broker.isAlive).toBe(true);
    expect(f.spawns).toBe(4);
  });
});

describe('BrokerPool: agents that never become usable', () => {
  it('forgets an agent whose command does not exist: the session gets the error, nothing is left', async () => {
    const f = bed.pool();
    const missing: AgentDefinition = { ...f.agent, id: 'missing', name: 'Missing agent', command: '/nonexistent/agent-binary' };
    await expect(f.pool.acquire('s1', missing)).rejects.toMatchObject({ code: 'agent_unavailable', message: expect.stringMatching(/Could not start.*ENOENT/) });
    await waitUntil(() => brokerRows(f.store) === 0, 'the record to be cleared');
    // A wrong command is not a crash: trying again never turns into a crash loop.
    for (let i = 0; i < 3; i++) await expect(f.pool.acquire('s1', missing)).rejects.toMatchObject({ code: 'agent_unavailable' });
    expect(owners(f.store)).toEqual([]);
    expect(f.pool.brokerOf('s1')).toBeUndefined();
  });

  it('kills an agent that never answers initialize and forgets it', async () => {
    const f = bed.pool({ pool: { initTimeoutMs: 300 } });
    const marker = `${600 + Math.random()}`;
    const silent: AgentDefinition = { ...f.agent, id: 'silent', name: 'Silent agent', command: 'sleep', args: [marker] };
    const running = (): number[] => listProcesses().filter((p) => p.cmdline === `sleep ${marker}`).map((p) => p.pid);
    bed.defer(() => killAll(running()));
    await expect(f.pool.acquire('s1', silent)).rejects.toMatchObject({ code: 'agent_error' });
    await waitUntil(() => running().length === 0 && brokerRows(f.store) === 0, 'the silent agent to be killed and forgotten', 5_000);
    expect(owners(f.store)).toEqual([]);
  });

  it('treats an agent that closes its connection but keeps running as crashed: it is killed, never reused', async () => {
    const f = bed.pool();
    // Answers initialize, then closes its stdout and lingers (a wedged agent).
    const script = `
      const fs = require('node:fs');
      process.stdin.once('data', (d) => {
        const req = JSON.parse(String(d).split('\\n')[0]);
        fs.writeSync(1, JSON.stringify({ jsonrpc: '2.0', id: req.id, result: { protocolVersion: req.params.protocolVersion, agentCapabilities: {} } }) + '\\n');
        setTimeout(() => fs.closeSync(1), 100);
      });
      setInterval(() => {}, 1 << 30);`;
    const wedged: AgentDefinition = { ...f.agent, id: 'wedged', name: 'Wedged agent', command: process.execPath, args: ['-e', script] };
    const crashed: string[][] = [];
    f.pool.onDidCrash(({ sessionIds }) => crashed.push(sessionIds));
    const broker = await f.pool.acquire('s1', wedged);
    const exit = await broker.exited;
    expect(exit).toMatchObject({ expected: false, signal: 'SIGKILL' });
    expect(crashed).toEqual([['s1']]);
    expect(isLive(broker.pid as number)).toBe(false);
    const next = await f.pool.acquire('s1', wedged);
    expect(next).not.toBe(broker);
  });
});
