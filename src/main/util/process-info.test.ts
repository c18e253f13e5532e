import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { isLive, killAll, waitUntil } from '../test-support/processes';
import { BROKER_ENV, groupAlive, isSameProcess, processesMarkedWith, processStartTime, signalGroup } from './process-info';

const started: ChildProcess[] = [];
afterEach(() => killAll(started.splice(0).map((c) => c.pid as number)));

function sleeper(options: { detached?: boolean; env?: NodeJS.ProcessEnv } = {}): ChildProcess {
  const child = spawn('sleep', ['600'], { stdio: 'ignore', ...options });
  started.push(child);
  return child;
}

async function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) await new Promise((r) => child.once('exit', r));
}

describe('process identity (pid + start time)', () => {
  it('names a live process by pid and start time, and nothing once it is gone', async () => {
    const child = sleeper();
    const pid = child.pid as number;
    const start = processStartTime(pid);
    expect(start).toMatch(/^\d+$/);
    expect(isSameProcess(pid, start)).toBe(true);
    expect(isSameProcess(pid, `${Number(start) + 1}`)).toBe(false);
    expect(isSameProcess(pid, null)).toBe(false);
    child.kill('SIGKILL');
    await exited(child);
    expect(processStartTime(pid)).toBeUndefined();
    expect(isSameProcess(pid, start)).toBe(false);
  });
});

describe('process groups', () => {
  it('signals a whole group, helpers included', async () => {
    // A leader that starts a helper in its own group, like an npx wrapper.
    const leader = spawn('sh', ['-c', 'sleep 600 & wait'], { detached: true, stdio: 'ignore' });
    started.push(leader);
    const pgid = leader.pid as number;
    expect(groupAlive(pgid)).toBe(true);
    expect(signalGroup(pgid, 'SIGKILL')).toBe(true);
    await waitUntil(() => !groupAlive(pgid), 'the group to die');
  });

  it('never signals a process that leads no group (a recycled pid is no group leader)', () => {
    const child = sleeper(); // in the test runner's group
    const pid = child.pid as number;
    expect(signalGroup(pid, 'SIGKILL')).toBe(false);
    expect(groupAlive(pid)).toBe(false);
    expect(isLive(pid)).toBe(true);
  });
});

describe('processes carrying a broker id', () => {
  it('finds the processes started with a broker id in their environment, and only those', () => {
    const id = randomUUID();
    const marked = sleeper({ detached: true, env: { ...process.env, [BROKER_ENV]: id } });
    const other = sleeper({ detached: true, env: { ...process.env, [BROKER_ENV]: randomUUID() } });
    sleeper({ detached: true });
    const found = processesMarkedWith([id]);
    expect([...found.keys()]).toEqual([id]);
    expect(found.get(id)).toEqual([marked.pid]);
    expect(found.get(id)).not.toContain(other.pid);
  });
});
