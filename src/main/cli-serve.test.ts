import { randomUUID } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './test-support/host-harness';
import { agentFootprint, demoAgents, groupMembers, isLive, killAll, waitUntil, watchdogOf, type ProcInfo } from './test-support/processes';
import { startServe, WsClient, type ServeProcess } from './test-support/serve-process';
import { tempDir } from './test-support/temp-dir';

/**
 * `switchboard serve` as a real process: quit by signal, recovery after kill -9, one host per
 * data dir (issue 4). Agents are the real demo agent; the database is opened afterwards.
 */

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
});

function dataDir(): string {
  const dir = tempDir();
  cleanups.push(() => {
    killAll(agentFootprint(dir.path));
    dir.cleanup();
  });
  return dir.path;
}

function serve(dir: string, env: NodeJS.ProcessEnv = {}): ServeProcess {
  const p = startServe(['serve', '--port', '0', '--data-dir', dir], env);
  cleanups.push(async () => {
    if (p.child.exitCode === null && p.child.signalCode === null) {
      p.child.kill('SIGKILL');
      await p.exited;
    }
  });
  return p;
}

async function connect(p: ServeProcess): Promise<WsClient> {
  const client = await WsClient.connect(await p.ready);
  cleanups.push(() => client.close());
  return client;
}

/** A session the client watches, its agent live, running `/slow N`, once `tick K` arrived. */
async function slowTurn(client: WsClient, cwd: string, seconds: number, ticks: number): Promise<string> {
  const view = await client.call('sessions:create', { cwd });
  await client.call('sessions:switch', { sessionId: view.id });
  await client.call('prompt:send', { sessionId: view.id, clientMessageId: randomUUID(), text: `/slow ${seconds}` });
  await client.waitFor(
    'session:event',
    (e) => e.sessionId === view.id && e.kind === 'agent_message' && String((e.payload as { text: string }).text).includes(`tick ${ticks} `),
  );
  return view.id;
}

function readDb<T>(dir: string, read: (db: Database.Database) => T): T {
  const db = new Database(join(dir, 'switchboard.db'), { readonly: true });
  try {
    return read(db);
  } finally {
    db.close();
  }
}

function transcript(db: Database.Database, sessionId: string): { kind: string; payload: Record<string, unknown> }[] {
  const rows = db.prepare(`SELECT kind, payload FROM events WHERE session_id = ? ORDER BY seq`).all(sessionId) as { kind: string; payload: string }[];
  return rows.map((r) => ({ kind: r.kind, payload: JSON.parse(r.payload) as Record<string, unknown> }));
}

function agentText(events: { kind: string; payload: Record<string, unknown> }[]): string {
  return events
    .filter((e) => e.kind === 'agent_message')
    .map((e) => String(e.payload.text))
    .join('');
}

describe('serve: quit by signal', () => {
  it.each([
    ['a well-behaved agent', ''],
    ['a stubborn agent (ignores EOF and SIGTERM, keeps a helper)', '--stubborn'],
  ])('SIGTERM during a turn with %s: exit 0 within 5 s, partial output stored, no agent left', async (_name, demoArgs) => {
    const dir = dataDir();
    const p = serve(dir, { SWITCHBOARD_DEMO_AGENT_ARGS: demoArgs });
    const client = await connect(p);
    const id = await slowTurn(client, dir, 10, 3);
    const [agent] = demoAgents(dir);
    const group = groupMembers([agent!.pid]);

    const started = Date.now();
    p.child.kill('SIGTERM');
    const exit = await p.exited;
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(exit).toEqual({ code: 0, signal: null });
    expect(agentFootprint(dir, [agent!.pid])).toEqual([]);
    for (const member of group) expect(isLive(member.pid)).toBe(false);

    readDb(dir, (db) => {
      expect(db.prepare(`SELECT state, state_reason FROM sessions WHERE id = ?`).get(id)).toEqual({ state: 'ENDED', state_reason: 'host_shutdown' });
      const events = transcript(db, id);
      expect(agentText(events)).toContain('tick 3 ');
      expect(agentText(events)).not.toContain('Done after');
      expect(events.filter((e) => e.kind === 'turn_ended').at(-1)?.payload).toMatchObject({ stopReason: 'cancelled' });
      expect(db.prepare(`SELECT COUNT(*) AS n FROM brokers`).get()).toEqual({ n: 0 });
    });
  });
});

describe('serve: its terminal or pipe closed', () => {
  it('goes on serving with nothing written to its crash logs, and quits cleanly after', async () => {
    const dir = dataDir();
    // Debug logs: every command writes lines to stderr.
    const p = serve(dir, { SWITCHBOARD_LOG: 'debug' });
    await p.ready;
    // The reader of its output goes away (a closed terminal, a parent that died).
    p.child.stdout!.destroy();
    p.child.stderr!.destroy();
    const client = await connect(p);
    for (let i = 0; i < 5; i++) await client.call('sessions:list', {});
    const view = await client.call('sessions:create', { cwd: dir });
    await client.call('sessions:switch', { sessionId: view.id });
    expect((await client.call('sessions:list', {})).map((s) => s.id)).toContain(view.id);

    p.child.kill('SIGTERM');
    expect(await p.exited).toEqual({ code: 0, signal: null });
    // Each write that failed used to be an uncaught error, with its crash log.
    expect(readdirSync(join(dir, 'logs')).filter((f) => f.startsWith('crash-'))).toEqual([]);
  });
});

describe('serve: recovery after kill -9 of the host and its watchdog', () => {
  it('the next serve on the data dir kills what the first run’s agent left, and leaves another data dir’s agent alone', async () => {
    const dir = dataDir();
    const env = { SWITCHBOARD_DEMO_AGENT_ARGS: '--stubborn' };
    const first = serve(dir, env);
    const client = await connect(first);
    const id = await slowTurn(client, dir, 30, 2);
    const [agent] = demoAgents(dir);
    const pgid = agent!.pgid;
    await waitUntil(() => groupMembers([pgid]).length >= 2, 'the stubborn agent’s helper');
    const leftBehind = (): ProcInfo[] => agentFootprint(dir, [pgid]);
    cleanups.push(() => killAll(leftBehind()));

    // Another host on another data dir, with a live agent of its own.
    const other: Harness = await startHarness({ demoAgentArgs: ['--stubborn'] });
    cleanups.push(() => other.cleanup());
    const w = other.window();
    const otherId = (await w.call('sessions:create', { cwd: other.dataDir })).id;
    await w.call('sessions:switch', { sessionId: otherId });
    await w.waitFor('session:updated', (v) => v.id === otherId && v.state === 'ACTIVE');
    const [otherAgent] = demoAgents(other.dataDir);

    // Its watchdog dies first (the second line is for when both go, e.g. a whole cgroup killed).
    const watchdog = watchdogOf(first.pid);
    expect(watchdog).toBeDefined();
    process.kill(watchdog!.pid, 'SIGKILL');
    await waitUntil(() => !isLive(watchdog!.pid), 'the watchdog to die');
    first.child.kill('SIGKILL');
    await first.exited;
    client.close();
    // What a host crash leaves: without the sweep these would run forever.
    expect(leftBehind().length).toBeGreaterThan(0);

    const second = serve(dir, env);
    await second.ready;
    await waitUntil(() => leftBehind().length === 0, 'the first run’s agent group to be killed', 3_000);
    expect(isLive(otherAgent!.pid)).toBe(true);
    expect(groupMembers([otherAgent!.pid]).length).toBeGreaterThanOrEqual(2);

    readDb(dir, (db) => {
      expect(db.prepare(`SELECT COUNT(*) AS n FROM brokers`).get()).toEqual({ n: 0 });
      expect(db.prepare(`SELECT state, state_reason FROM sessions WHERE id = ?`).get(id)).toEqual({ state: 'ENDED', state_reason: 'recovered' });
      expect(agentText(transcript(db, id))).toContain('tick 1 ');
    });
    const w2 = other.window();
    await w2.call('sessions:switch', { sessionId: otherId });
    await w2.call('prompt:send', { sessionId: otherId, clientMessageId: randomUUID(), text: 'still here' });
    await w2.waitForText(otherId, 'Echo: still here');

    second.child.kill('SIGTERM');
    expect(await second.exited).toEqual({ code: 0, signal: null });
  });
});

describe('serve: one host per data dir', () => {
  it('a second serve on the same data dir exits non-zero naming the first one’s pid; the first keeps its agent', async () => {
    const dir = dataDir();
    const first = serve(dir);
    const client = await connect(first);
    const view = await client.call('sessions:create', { cwd: dir });
    await client.call('sessions:switch', { sessionId: view.id });
    await client.waitFor('session:updated', (v) => v.id === view.id && v.state === 'ACTIVE');
    const [agent] = demoAgents(dir);

    const second = serve(dir);
    const exit = await second.exited;
    expect(exit.code).not.toBe(0);
    expect(exit.code).not.toBeNull();
    expect(second.stderr()).toContain(`Another Switchboard (pid ${first.pid}) is already using this data folder`);
    expect(second.stdout()).not.toContain('Switchboard ready');

    expect(isLive(agent!.pid)).toBe(true);
    await client.call('prompt:send', { sessionId: view.id, clientMessageId: randomUUID(), text: 'unharmed' });
    await client.waitFor('session:event', (e) => e.sessionId === view.id && e.kind === 'turn_ended');
    first.child.kill('SIGTERM');
    expect(await first.exited).toEqual({ code: 0, signal: null });
  });
});
