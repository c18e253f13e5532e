import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { processStartTime } from '../util/process-info';
import { killAll, waitUntil } from '../test-support/processes';
import { tempDir } from '../test-support/temp-dir';
import { DataDirLock } from './data-dir-lock';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const fn of cleanups.splice(0).reverse()) fn();
});

function lockFile(): string {
  const dir = tempDir();
  cleanups.push(dir.cleanup);
  return join(dir.path, 'host.lock');
}

function holder(file: string): { pid: number; startTime: string | null } {
  return JSON.parse(readFileSync(file, 'utf8')) as { pid: number; startTime: string | null };
}

function sleeper(): ChildProcess {
  const child = spawn('sleep', ['600'], { stdio: 'ignore' });
  cleanups.push(() => killAll([child.pid as number]));
  return child;
}

async function deadPid(): Promise<number> {
  const child = spawn('true');
  await new Promise((r) => child.once('exit', r));
  return child.pid as number;
}

describe('DataDirLock: one host per data dir', () => {
  it('refuses a second host while the first runs, naming the first one’s pid', () => {
    const file = lockFile();
    const first = sleeper();
    const pid = first.pid as number;
    writeFileSync(file, JSON.stringify({ pid, startTime: processStartTime(pid) }));

    expect(() => DataDirLock.acquire(file)).toThrow(`pid ${pid}`);
    try {
      DataDirLock.acquire(file);
    } catch (err) {
      expect(err).toMatchObject({ code: 'already_exists', details: { pid } });
    }
    expect(holder(file).pid).toBe(pid);
  });

  it('releases once: disposing again never removes the lock of the host that came next', () => {
    const file = lockFile();
    const first = DataDirLock.acquire(file);
    first.dispose();
    const next = DataDirLock.acquire(file);
    first.dispose();
    expect(existsSync(file)).toBe(true);
    expect(() => DataDirLock.acquire(file)).toThrow(`pid ${process.pid}`);
    next.dispose();
    expect(existsSync(file)).toBe(false);
  });

  it('refuses a second host in the same process (it would sweep the first one’s agents)', () => {
    const file = lockFile();
    const lock = DataDirLock.acquire(file);
    expect(() => DataDirLock.acquire(file)).toThrow(`pid ${process.pid}`);
    lock.dispose();
    expect(existsSync(file)).toBe(false);
    DataDirLock.acquire(file).dispose();
  });

  it('takes over a lock whose host is gone (kill -9 leaves the file behind)', async () => {
    const file = lockFile();
    writeFileSync(file, JSON.stringify({ pid: await deadPid(), startTime: '1' }));
    const lock = DataDirLock.acquire(file);
    expect(holder(file)).toMatchObject({ pid: process.pid, startTime: processStartTime(process.pid) ?? null });
    lock.dispose();
  });

  it('takes over a lock whose pid now names another process (start time differs)', () => {
    const file = lockFile();
    const other = sleeper();
    writeFileSync(file, JSON.stringify({ pid: other.pid, startTime: 'not-its-start-time' }));
    const lock = DataDirLock.acquire(file);
    expect(holder(file).pid).toBe(process.pid);
    lock.dispose();
  });

  it('takes over an unreadable lock file', () => {
    const file = lockFile();
    writeFileSync(file, '');
    DataDirLock.acquire(file).dispose();
  });

  it('does not remove a lock another host took over meanwhile', () => {
    const file = lockFile();
    const lock = DataDirLock.acquire(file);
    const other = sleeper();
    writeFileSync(file, JSON.stringify({ pid: other.pid, startTime: processStartTime(other.pid as number) }));
    lock.dispose();
    expect(holder(file).pid).toBe(other.pid);
  });

  it('lets exactly one of several hosts starting at the same instant have the data dir, even over a stale lock', async () => {
    const dir = tempDir();
    cleanups.push(dir.cleanup);
    const go = join(dir.path, 'go');
    const rounds = 8;
    const files = Array.from({ length: rounds }, (_, i) => join(dir.path, `host-${i}.lock`));
    // Left by hosts killed with -9: every contender judges them stale and races to replace them.
    const dead = await deadPid();
    for (const file of files) writeFileSync(file, JSON.stringify({ pid: dead, startTime: '1' }));
    const contender = resolve(import.meta.dirname, '../test-support/lock-contender.ts');
    const children = Array.from({ length: 4 }, () =>
      spawn(process.execPath, ['--import', 'tsx', contender, go, ...files], { stdio: ['pipe', 'pipe', 'inherit'] }),
    );
    cleanups.push(() => killAll(children.map((c) => c.pid as number)));
    const outputs = children.map((c) => {
      const out = { text: '' };
      c.stdout.on('data', (d: Buffer) => (out.text += d.toString()));
      return out;
    });
    await waitUntil(() => outputs.every((o) => o.text.includes('waiting')), 'every contender to be ready', 20_000);
    writeFileSync(go, `${Date.now() + 200} 60`);
    await waitUntil(() => outputs.every((o) => o.text.includes('done')), 'every contender to try', 20_000);

    for (let i = 0; i < rounds; i++) {
      const winners = children.filter((_, c) => outputs[c]!.text.includes(`\n${i}:locked`));
      expect(winners, `round ${i}`).toHaveLength(1);
      const winner = winners[0]!.pid;
      expect(holder(files[i]!).pid).toBe(winner);
      for (const o of outputs) if (!o.text.includes(`\n${i}:locked`)) expect(o.text).toContain(`${i}:refused: Another Switchboard (pid ${winner})`);
    }
    for (const c of children) c.stdin.end();
    await Promise.all(children.map((c) => new Promise((r) => (c.exitCode === null ? c.once('exit', r) : r(null)))));
  });
});
