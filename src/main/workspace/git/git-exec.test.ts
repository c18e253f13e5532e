/**
 * git's processes are started by a helper process (git-exec.ts): the host's own process never
 * starts one, output and stdin cross intact, a helper that died fails its calls and the next
 * call starts another, a call in flight keeps the host up and an idle helper does not, an idle
 * helper is retired, and the helper goes (stopping what it runs) when the host does.
 */
import type * as childProcess from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { waitUntil } from '../../test-support/processes';
import { Git } from './git';
import { execInRunner, gitRunnerForTests, IDLE_MS } from './git-exec';

// In this process only the helper itself may be started: git, cat or sleep started here would
// be the host starting a process for a call.
vi.mock('node:child_process', async (original) => {
  const real = await original<typeof childProcess>();
  return {
    ...real,
    execFile: () => {
      throw new Error('a process was started by the host for a call');
    },
    spawn: (command: string, args: readonly string[], options: object) => {
      if (!args.some((a) => /git-runner\.(mjs|js)$/.test(a))) throw new Error(`the host started ${command} ${args.join(' ')}`);
      return real.spawn(command, args, options);
    },
  };
});

const call = (file: string, args: string[], extra: { stdin?: string | Buffer; timeoutMs?: number } = {}) =>
  execInRunner({ file, args, cwd: process.cwd(), env: process.env, timeoutMs: extra.timeoutMs ?? 10_000, maxBytes: 1 << 26, ...(extra.stdin !== undefined ? { stdin: extra.stdin } : {}) });

const isLive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('git through the helper process', () => {
  it('runs git while the host itself cannot start a process', async () => {
    const version = await new Git().version();
    expect(version.major).toBeGreaterThanOrEqual(2);
    expect(gitRunnerForTests.pid()).toBeGreaterThan(0);
  });

  it('carries stdin in and small and large output out, byte for byte', async () => {
    const large = 'línea ✓ '.repeat(40_000);
    expect((await call('cat', [], { stdin: large })).stdout.toString('utf8')).toBe(large);
    const bytes = Buffer.from([0, 1, 2, 0xff, 0x0a, 0xfe]);
    expect((await call('cat', [], { stdin: bytes })).stdout.equals(bytes)).toBe(true);
    const failed = await call('sh', ['-c', 'echo why >&2; exit 3']);
    expect(failed.error?.code).toBe(3);
    expect(failed.stderr.toString()).toBe('why\n');
    const timedOut = await call('sleep', ['5'], { timeoutMs: 200 });
    expect(timedOut.error?.killed).toBe(true);
  });

  it('fails the calls in flight when its helper dies, and starts another for the next call', async () => {
    const first = gitRunnerForTests.pid() ?? (await call('true', []), gitRunnerForTests.pid());
    const hanging = call('sleep', ['30']);
    gitRunnerForTests.kill();
    await expect(hanging).rejects.toThrow(/the helper that runs git stopped/);
    expect((await call('printf', ['%s', 'again'])).stdout.toString()).toBe('again');
    expect(gitRunnerForTests.pid()).not.toBe(first);
  });

  it.runIf(process.platform === 'linux')('starts its helper without NODE_EXTRA_CA_CERTS, and each call\'s process gets the environment the call gives', async () => {
    // A helper started now, with the variable set in the host's environment.
    gitRunnerForTests.kill();
    await waitUntil(() => gitRunnerForTests.pid() === undefined, 'the helper to be gone');
    const before = process.env.NODE_EXTRA_CA_CERTS;
    process.env.NODE_EXTRA_CA_CERTS = '/etc/ssl/certs/ca-certificates.crt';
    try {
      const echoed = await call('sh', ['-c', 'printf %s "$NODE_EXTRA_CA_CERTS"']);
      expect(echoed.stdout.toString()).toBe('/etc/ssl/certs/ca-certificates.crt');
      const environ = readFileSync(`/proc/${gitRunnerForTests.pid()!}/environ`, 'utf8').split('\0');
      expect(environ.some((v) => v.startsWith('PATH='))).toBe(true);
      expect(environ.filter((v) => v.startsWith('NODE_EXTRA_CA_CERTS='))).toEqual([]);
    } finally {
      if (before === undefined) delete process.env.NODE_EXTRA_CA_CERTS;
      else process.env.NODE_EXTRA_CA_CERTS = before;
    }
  });

  it('retires a helper left idle for IDLE_MS, and starts another for the next call', async () => {
    // Only the host's timers are fake: the helper and its children run in real time.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      await call('true', []);
      const first = gitRunnerForTests.pid()!;
      // A call within the idle time keeps the same helper, and starts its idle time again.
      vi.advanceTimersByTime(IDLE_MS - 1);
      await call('true', []);
      expect(gitRunnerForTests.pid()).toBe(first);
      vi.advanceTimersByTime(IDLE_MS - 1);
      expect(gitRunnerForTests.pid()).toBe(first);
      expect(isLive(first)).toBe(true);
      vi.advanceTimersByTime(1);
      expect(gitRunnerForTests.pid()).toBeUndefined();
      await vi.waitFor(() => expect(isLive(first)).toBe(false), { timeout: 5_000, interval: 20 });
      expect((await call('printf', ['%s', 'next'])).stdout.toString()).toBe('next');
      expect(gitRunnerForTests.pid()).not.toBe(first);
    } finally {
      vi.useRealTimers();
    }
  });

  it('keeps a host whose only work is a git call alive until it answers, then lets it exit', () => {
    const module = new URL('./git-exec.ts', import.meta.url).pathname;
    const script = `import { execInRunner } from ${JSON.stringify(module)};
      execInRunner({ file: 'sleep', args: ['0.3'], cwd: process.cwd(), env: process.env, timeoutMs: 10000, maxBytes: 1024 }).then(() => console.log('answered'));`;
    const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 30_000 });
    expect(out.trim()).toBe('answered');
  });

  it('goes with its host, and stops what it runs', async () => {
    const module = new URL('./git-exec.ts', import.meta.url).pathname;
    // A host that starts a long call, says the pids, and is then killed outright.
    const script = `import { execInRunner, gitRunnerForTests } from ${JSON.stringify(module)};
      execInRunner({ file: 'sh', args: ['-c', 'echo $$; exec sleep 60'], cwd: process.cwd(), env: process.env, timeoutMs: 120000, maxBytes: 1024 });
      setTimeout(() => console.log(JSON.stringify({ runner: gitRunnerForTests.pid() })), 1500);
      setInterval(() => {}, 1000);`;
    const { spawn } = await vi.importActual<typeof childProcess>('node:child_process');
    const host = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    const line = await new Promise<string>((resolve) => host.stdout.once('data', (d: Buffer) => resolve(d.toString())));
    const { runner } = JSON.parse(line) as { runner: number };
    const sleeper = Number(execFileSync('pgrep', ['-P', String(runner)], { encoding: 'utf8' }).trim().split('\n')[0]);
    expect(isLive(runner) && isLive(sleeper)).toBe(true);
    host.kill('SIGKILL');
    const deadline = Date.now() + 10_000;
    while ((isLive(runner) || isLive(sleeper)) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect([isLive(runner), isLive(sleeper)]).toEqual([false, false]);
  });
});
