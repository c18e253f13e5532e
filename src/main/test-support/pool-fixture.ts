import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { AgentDefinition } from '../brokers/agent-definition';
import { defaultSpawn, type Broker } from '../brokers/broker';
import { BrokerPool, type BrokerPoolOptions } from '../brokers/broker-pool';
import { demoAgent } from '../catalogue/demo-agent';
import { Store } from '../store/store';
import { systemClock, type Clock } from '../util/clock';
import { silentLogger } from '../util/log';
import { agentFootprint, groupMembers, killAll, waitUntil, type ProcInfo } from './processes';
import { tempDir } from './temp-dir';

/** A BrokerPool on a real SQLite file in a temp dir, spawning the real demo agent. */
export interface PoolFixture {
  dir: string;
  store: Store;
  pool: BrokerPool;
  agent: AgentDefinition;
  spawns: number;
}

/**
 * What one test started (pools, processes, temp dirs), undone by `cleanup()` in `afterEach`.
 * Process groups are remembered: a helper outlives its leader.
 */
export class PoolTestbed {
  readonly groups = new Set<number>();
  private readonly cleanups: (() => Promise<void> | void)[] = [];
  private readonly dirs: string[] = [];

  pool(o: { stubborn?: boolean; clock?: Clock; pool?: Partial<BrokerPoolOptions> } = {}): PoolFixture {
    const dir = tempDir();
    this.dirs.push(dir.path);
    const store = Store.open(join(dir.path, 'switchboard.db'));
    const f: PoolFixture = {
      dir: dir.path,
      store,
      agent: demoAgent(join(dir.path, 'demo-agent'), o.stubborn ? ['--stubborn'] : []),
      spawns: 0,
      pool: undefined as unknown as BrokerPool,
    };
    f.pool = new BrokerPool({
      repo: store.brokers,
      spawn: (command, args, options) => {
        f.spawns++;
        const child = defaultSpawn(command, args, options);
        if (child.pid) this.groups.add(child.pid);
        return child;
      },
      clock: o.clock ?? systemClock,
      log: silentLogger,
      maxSessionsPerBroker: 8,
      graceMs: 300,
      ...o.pool,
    });
    this.defer(async () => {
      await f.pool.shutdownAll();
      store.dispose();
      dir.cleanup();
    });
    return f;
  }

  /** A process in a group of its own, as an agent of a previous host would be. */
  spawnDetached(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): ChildProcess {
    const child = spawn(command, args, { detached: true, stdio: ['pipe', 'ignore', 'ignore'], env });
    child.stdin?.on('error', () => {});
    if (child.pid) this.groups.add(child.pid);
    this.defer(() => killAll([child.pid as number]));
    return child;
  }

  defer(fn: () => Promise<void> | void): void {
    this.cleanups.push(fn);
  }

  async cleanup(): Promise<void> {
    for (const fn of this.cleanups.splice(0).reverse()) await fn();
    for (const dir of this.dirs.splice(0)) killAll(agentFootprint(dir, this.groups));
    killAll(groupMembers(this.groups));
    this.groups.clear();
  }
}

export function owners(store: Store): { broker_id: string; session_id: string }[] {
  return store.db.prepare(`SELECT broker_id, session_id FROM broker_owners ORDER BY session_id`).all() as never;
}

export function brokerRows(store: Store): number {
  return (store.db.prepare(`SELECT COUNT(*) AS n FROM brokers`).get() as { n: number }).n;
}

/**
 * Waits for the stubborn demo agent (leading group `pgid`) to start its helper; its pid. The
 * helper is recognised by its command line: run from source, tsx's esbuild service joins the
 * group before the agent is up (and before it ignores SIGTERM).
 */
export async function helperOf(pgid: number): Promise<number> {
  const helper = (): ProcInfo | undefined => groupMembers([pgid]).find((p) => p.pid !== pgid && p.cmdline.includes('setInterval'));
  await waitUntil(() => helper() !== undefined, 'the stubborn agent to start its helper');
  return helper()!.pid;
}

export function brokerHelper(broker: Broker): Promise<number> {
  return helperOf(broker.pid as number);
}

/** A pid whose process has exited: it names nothing now (a dead host). */
export async function deadPid(): Promise<number> {
  const child = spawn('true');
  await new Promise((r) => child.once('exit', r));
  return child.pid as number;
}
