import { writeFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { dataPaths } from './datadir/paths';
import { agentFootprint, demoAgents, isLive, killAll, listProcesses, markedAgentProcesses, markedProcesses, openFiles, waitUntil, watchdogOf } from './test-support/processes';
import { startServe, WsClient, type ServeProcess } from './test-support/serve-process';
import { tempDir } from './test-support/temp-dir';
import { processCount, wrappedStubbornAgent } from './test-support/wrapped-agents';

/**
 * No orphans, ever (issue 11): agents that ignore end of input die with `serve` however it
 * dies, without waiting for the next start, because its watchdog outlives it (ADR 0012).
 */

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
});

/** A data dir with two launcher-wrapped stubborn agents besides the (stubborn) demo agent. */
function dataDir(): string {
  const dir = tempDir();
  const demoDir = dataPaths(dir.path).demoAgent;
  const agents = [wrappedStubbornAgent('npx-like', 'npx', demoDir), wrappedStubbornAgent('escaping', 'escape', demoDir)];
  writeFileSync(dataPaths(dir.path).agents, JSON.stringify({ agents }));
  cleanups.push(() => {
    killAll(agentFootprint(dir.path));
    dir.cleanup();
  });
  return dir.path;
}

function serve(dir: string): ServeProcess {
  const p = startServe(['serve', '--port', '0', '--data-dir', dir], { SWITCHBOARD_DEMO_AGENT_ARGS: '--stubborn' });
  cleanups.push(async () => {
    if (p.child.exitCode === null && p.child.signalCode === null) {
      p.child.kill('SIGKILL');
      await p.exited;
    }
  });
  return p;
}

function brokerIds(dir: string): string[] {
  const db = new Database(dataPaths(dir).database, { readonly: true });
  try {
    return (db.prepare(`SELECT id FROM brokers`).all() as { id: string }[]).map((r) => r.id);
  } finally {
    db.close();
  }
}

/** `serve` with one session on each of the three agents, all their processes up. */
async function serveWithAgents(): Promise<{ dir: string; p: ServeProcess; ids: string[]; watchdog: number }> {
  const dir = dataDir();
  const p = serve(dir);
  const client = await WsClient.connect(await p.ready);
  cleanups.push(() => client.close());
  for (const agentId of ['demo', 'npx-like', 'escaping']) {
    const view = await client.call('sessions:create', { cwd: dir, agentId });
    await client.call('sessions:switch', { sessionId: view.id });
    await client.waitFor('session:updated', (v) => v.id === view.id && v.state === 'ACTIVE');
  }
  const ids = brokerIds(dir);
  expect(ids).toHaveLength(3);
  // The stubborn demo agent and its helper, plus each launcher with what it runs.
  const expected = 2 + processCount('npx') + processCount('escape');
  await waitUntil(() => markedAgentProcesses(ids).length === expected, `${expected} agent processes`);
  const watchdog = watchdogOf(p.pid);
  expect(watchdog).toBeDefined();
  cleanups.push(() => killAll([watchdog!.pid, ...markedProcesses(ids)]));
  return { dir, p, ids, watchdog: watchdog!.pid };
}

describe('serve: its watchdog', () => {
  it('kill -9 of serve: no agent process, launcher or helper is left 3 s later, and the watchdog is gone', async () => {
    const { dir, p, ids, watchdog } = await serveWithAgents();
    const before = markedProcesses(ids);
    expect(demoAgents(dir).length).toBeGreaterThanOrEqual(3);

    const killedAt = Date.now();
    p.child.kill('SIGKILL');
    await waitUntil(() => markedProcesses(ids).length === 0 && before.every((pid) => !isLive(pid)), 'every agent process to be gone', 3_000);
    expect(Date.now() - killedAt).toBeLessThan(3_000);
    expect(agentFootprint(dir)).toEqual([]);
    await waitUntil(() => !isLive(watchdog), 'the watchdog to exit', 3_000);
  });

  it('leads a process group of its own (a signal to the host’s group spares it), and no agent holds the host’s end of its pipe', async () => {
    const { p, ids, watchdog } = await serveWithAgents();
    // No agent, launcher or helper shares a pipe or socket with the host (its end of the
    // watchdog's pipe among them: were it inherited, no host death would ever close it).
    const channels = (pid: number): string[] => openFiles(pid).filter((f) => f.startsWith('socket:') || f.startsWith('pipe:'));
    // Those the host inherited from this test (descriptors our own environment leaks) aside.
    const inherited = new Set(channels(process.pid));
    const hostChannels = new Set(channels(p.pid).filter((f) => !inherited.has(f)));
    expect(hostChannels.size).toBeGreaterThan(0);
    const watchdogStdin = openFiles(watchdog, 0)[0];
    expect(watchdogStdin).toMatch(/^(socket|pipe):/);
    for (const pid of markedProcesses(ids)) {
      expect(channels(pid).filter((f) => hostChannels.has(f) || f === watchdogStdin)).toEqual([]);
    }
    const pgid = (pid: number): number | undefined => listProcesses().find((x) => x.pid === pid)?.pgid;
    expect(pgid(watchdog)).toBe(watchdog);
    expect(pgid(p.pid)).not.toBe(watchdog);
  });

  it('a clean quit (SIGTERM) leaves no watchdog and no agent', async () => {
    const { dir, p, ids, watchdog } = await serveWithAgents();
    p.child.kill('SIGTERM');
    expect(await p.exited).toEqual({ code: 0, signal: null });
    await waitUntil(() => !isLive(watchdog), 'the watchdog to exit', 3_000);
    expect(markedProcesses(ids)).toEqual([]);
    expect(agentFootprint(dir)).toEqual([]);
  });
});
