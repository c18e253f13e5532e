import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { testCleanups } from '../test-support/cleanups';
import { isLive, processStartTime, waitUntil } from '../test-support/processes';
import { ownProcess, ROLE_FLAG } from '../util/own-process';
import { roleOf, roleScriptsIn, ROLE_SCRIPTS, UnknownRoleError } from './roles';

const cleanups = testCleanups();

describe('roleOf: the role a process of the app was started in', () => {
  it('is none for the app itself', () => {
    expect(roleOf(['/opt/Switchboard/switchboard'])).toBeUndefined();
    expect(roleOf(['/n/electron', '/src/switchboard', '--inspect'])).toBeUndefined();
  });

  it('reads the role and hands the helper everything after it', () => {
    expect(roleOf(['/opt/S/switchboard', `${ROLE_FLAG}=watchdog`, '--host-pid', '42', '--host-start', '99'])).toEqual({
      role: 'watchdog',
      args: ['--host-pid', '42', '--host-start', '99'],
    });
    expect(roleOf(['/n/electron', '/src/switchboard', ROLE_FLAG, 'demo-agent', '--data-dir', '/d'])).toEqual({ role: 'demo-agent', args: ['--data-dir', '/d'] });
  });

  it('refuses a role it does not know rather than starting the app', () => {
    expect(() => roleOf(['/x', `${ROLE_FLAG}=shell`])).toThrow(UnknownRoleError);
    expect(() => roleOf(['/x', ROLE_FLAG])).toThrow(/unknown --switchboard-role ""/);
  });

  it('reads back what ownProcess writes', () => {
    const launch = ownProcess('watchdog', [], ['--host-pid', '3'], { execPath: '/S', argv: ['/S'], versions: { electron: '45' } });
    expect(roleOf([launch.command, ...launch.args])).toEqual({ role: 'watchdog', args: ['--host-pid', '3'] });
  });

  it('runs the scripts the build puts beside the entry', () => {
    expect(roleScriptsIn('/opt/S/resources/app.asar/out/main')).toEqual({
      watchdog: '/opt/S/resources/app.asar/out/main/watchdog.js',
      'demo-agent': '/opt/S/resources/app.asar/out/main/demo-agent.js',
      'git-runner': '/opt/S/resources/app.asar/out/main/git-runner.js',
    });
    expect(ROLE_SCRIPTS).toEqual({ watchdog: 'watchdog.js', 'demo-agent': 'demo-agent.js', 'git-runner': 'git-runner.js' });
  });
});

/**
 * A process started the way the packaged app starts its helpers (its binary, the role, the
 * helper's arguments; no script path), with Node standing in for the Electron binary, which
 * cannot run here: the entry's dispatch (`roleOf`, `runRole`) runs the helper from source.
 */
function startInRole(args: string[]) {
  const roles = pathToFileURL(resolve(import.meta.dirname, 'roles.ts')).href;
  const scripts = {
    watchdog: resolve(import.meta.dirname, '../brokers/watchdog/main.ts'),
    'demo-agent': resolve(import.meta.dirname, '../../agents/demo/demo-agent.ts'),
    'git-runner': resolve(import.meta.dirname, '../workspace/git/git-runner.mjs'),
  };
  const entry = `import { roleOf, runRole } from ${JSON.stringify(roles)}; await runRole(roleOf(process.argv), ${JSON.stringify(scripts)});`;
  // `--`: the rest is the helper's command line (argv after the binary, as the packaged app has it).
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', entry, '--', ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  cleanups.add(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  return { child, out: () => out, exited: new Promise<number | null>((r) => child.once('exit', (code) => r(code))) };
}

describe('a helper started in its role', () => {
  it('demo-agent: speaks ACP on its stdio', async () => {
    const dir = cleanups.dataDir();
    const agent = startInRole([`${ROLE_FLAG}=demo-agent`, '--data-dir', dir]);
    agent.child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: 1, clientCapabilities: {} } })}\n`);
    await waitUntil(() => agent.out().includes('"id":1'), 'the answer to initialize', 20_000);
    const answer = JSON.parse(agent.out().split('\n')[0]!) as { result?: { protocolVersion: number; agentInfo?: { name: string } } };
    expect(answer.result?.protocolVersion).toBe(1);
    agent.child.stdin.end();
    expect(await agent.exited).toBe(0);
  });

  it('git-runner: runs a request line and answers it on one line, and exits when its stdin closes', async () => {
    const runner = startInRole([`${ROLE_FLAG}=git-runner`]);
    runner.child.stdin.write(`${JSON.stringify({ id: 7, file: 'git', args: ['--version'], cwd: process.cwd(), env: process.env, timeoutMs: 10_000, maxBytes: 1 << 20 })}\n`);
    await waitUntil(() => runner.out().includes('\n'), 'the answer', 20_000);
    const answer = JSON.parse(runner.out().split('\n')[0]!) as { id: number; stdout: string; error?: unknown };
    expect(answer.id).toBe(7);
    expect(answer.error).toBeUndefined();
    expect(Buffer.from(answer.stdout, 'base64').toString()).toMatch(/^git version \d+\.\d+/);
    runner.child.stdin.end();
    expect(await runner.exited).toBe(0);
  });

  it('watchdog: kills the agents it was told of once the host\'s end of its pipe closes', async () => {
    const victim = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1 << 30)'], { detached: true, stdio: 'ignore' });
    cleanups.add(() => {
      if (isLive(victim.pid!)) process.kill(victim.pid!, 'SIGKILL');
    });
    const watchdog = startInRole([`${ROLE_FLAG}=watchdog`, '--host-pid', String(process.pid)]);
    watchdog.child.stdin.write(`${JSON.stringify({ op: 'track', id: 'b1', pid: victim.pid, startTime: processStartTime(victim.pid!) ?? null, pgid: victim.pid })}\n`);
    // The line, then the end of the pipe, in that order: as when a host that spawned an agent dies.
    watchdog.child.stdin.end();
    expect(await watchdog.exited).toBe(0);
    await waitUntil(() => !isLive(victim.pid!), 'the tracked agent to be killed', 5_000);
  });
});
