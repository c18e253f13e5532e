import * as acp from '@agentclientprotocol/sdk';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EventBody, TerminalOutputT } from '../../shared/contract';
import { FakeClock } from '../test-support/fake-clock';
import { isLive, waitUntil } from '../test-support/processes';
import { tempDir } from '../test-support/temp-dir';
import { clientCapabilities, type RequestScope } from './client-handlers';
import { PATH_REFUSED_CODE } from './confine';
import { fsHandlers } from './fs-handlers';
import { BROKER_ENV } from '../util/process-info';
import { terminalHandlers } from './terminal-handlers';
import { OUTPUT_PUSH_MS, TerminalManager } from './terminals/terminal-manager';

const linuxOnly = process.platform === 'linux' ? it : it.skip; // counts processes through /proc
const node = process.execPath;

/** A node script as a terminal command (no shell: the command and its arguments as given). */
const script = (code: string) => ({ command: node, args: ['-e', code] });
/** Prints the pid of a child it leaves running, then runs forever itself. */
const SPAWNS_HELPER = `const c = require('child_process').spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' }); console.log('helper ' + c.pid); setInterval(() => {}, 1000);`;

describe('terminal/* client request handlers', () => {
  let dir: ReturnType<typeof tempDir>;
  let cwd: string;
  let clock: FakeClock;
  let terminals: TerminalManager;
  let recorded: EventBody[];
  let pushed: Omit<TerminalOutputT, 'sessionId'>[];
  let scopes: Record<string, RequestScope>;

  beforeEach(() => {
    dir = tempDir();
    cwd = join(dir.path, 'work');
    mkdirSync(join(cwd, 'sub'), { recursive: true });
    clock = new FakeClock();
    terminals = new TerminalManager(clock);
    recorded = [];
    pushed = [];
    const scope: RequestScope = { cwd, record: (e) => recorded.push(e), terminalOutput: (u) => pushed.push(u) };
    scopes = { s1: scope, s2: { cwd } };
  });
  afterEach(async () => {
    terminals.dispose();
    await terminals.allExited();
    dir.cleanup();
  });

  function asAgent<T>(op: (ctx: acp.AgentContext) => Promise<T>): Promise<T> {
    const lookup = (id: string) => scopes[id];
    const client = terminalHandlers(lookup, { terminals, fixedEnv: { [BROKER_ENV]: 'b-test' } }).register(acp.client({ name: 'test-client' }));
    return acp.agent({ name: 'test-agent' }).connectWith(client, op);
  }
  const create = (ctx: acp.AgentContext, spec: { command: string; args?: string[] }, extra: Partial<acp.CreateTerminalRequest> = {}) =>
    ctx.request(acp.methods.client.terminal.create, { sessionId: 's1', ...spec, ...extra });
  const ids = (terminalId: string) => ({ sessionId: 's1', terminalId });
  // The SDK types the terminal/output answer `unknown` (2.4.0); its shape is ACP's.
  const outputOf = async (ctx: acp.AgentContext, terminalId: string, sessionId = 's1') =>
    (await ctx.request(acp.methods.client.terminal.output, { sessionId, terminalId })) as acp.TerminalOutputResponse;

  async function helperPid(terminalId: string, sessionId = 's1'): Promise<number> {
    let pid: number | undefined;
    await waitUntil(() => {
      pid = Number(/helper (\d+)/.exec(terminals.snapshot(sessionId, terminalId)?.text ?? '')?.[1]) || undefined;
      return pid !== undefined;
    }, 'the helper pid');
    return pid!;
  }

  it('runs a command, reports its output (stdout and stderr) and exit code, then releases it', async () => {
    await asAgent(async (ctx) => {
      const { terminalId } = await create(ctx, script(`console.log('out line'); console.error('err line'); process.exit(3)`));
      expect(await ctx.request(acp.methods.client.terminal.waitForExit, ids(terminalId))).toEqual({ exitCode: 3, signal: null });
      const out = await outputOf(ctx, terminalId);
      expect(out.output).toContain('out line\n');
      expect(out.output).toContain('err line\n');
      expect(out).toMatchObject({ truncated: false, exitStatus: { exitCode: 3, signal: null } });
      await ctx.request(acp.methods.client.terminal.release, ids(terminalId));
      await expect(ctx.request(acp.methods.client.terminal.output, ids(terminalId))).rejects.toThrow(/No terminal/);
    });
    expect(terminals.size).toBe(0);
  });

  it('reports no exit status while the command runs', async () => {
    await asAgent(async (ctx) => {
      const { terminalId } = await create(ctx, script(`console.log('ready'); setInterval(() => {}, 1000)`));
      const out = await outputOf(ctx, terminalId);
      expect(out.exitStatus).toBeUndefined();
      await ctx.request(acp.methods.client.terminal.kill, ids(terminalId));
      expect(await ctx.request(acp.methods.client.terminal.waitForExit, ids(terminalId))).toEqual({ exitCode: null, signal: 'SIGKILL' });
      // Killed, not released: the output and the status can still be read.
      expect((await outputOf(ctx, terminalId)).exitStatus).toEqual({ exitCode: null, signal: 'SIGKILL' });
    });
  });

  it('runs in the session folder, or a cwd inside it, with the asked environment on top of ours', async () => {
    await asAgent(async (ctx) => {
      const code = `console.log(JSON.stringify({ cwd: process.cwd(), asked: process.env.ASKED, path: !!process.env.PATH, broker: process.env.${BROKER_ENV} }))`;
      const a = await create(ctx, script(code), { env: [{ name: 'ASKED', value: 'yes' }] });
      await ctx.request(acp.methods.client.terminal.waitForExit, ids(a.terminalId));
      expect(JSON.parse((await outputOf(ctx, a.terminalId)).output)).toEqual({
        cwd: realpathSync(cwd),
        asked: 'yes',
        path: true,
        broker: 'b-test',
      });
      const b = await create(ctx, script(code), { cwd: join(cwd, 'sub') });
      await ctx.request(acp.methods.client.terminal.waitForExit, ids(b.terminalId));
      expect(JSON.parse((await outputOf(ctx, b.terminalId)).output).cwd).toBe(realpathSync(join(cwd, 'sub')));
    });
  });

  it('refuses a cwd outside the session folder before running anything, and says so in the transcript', async () => {
    await asAgent(async (ctx) => {
      const err = (await create(ctx, script('1'), { cwd: dir.path }).catch((e: unknown) => e)) as acp.RequestError;
      expect(err.code).toBe(PATH_REFUSED_CODE);
      expect(err.message).toContain(dir.path);
    });
    expect(terminals.size).toBe(0);
    expect(recorded).toEqual([{ kind: 'notice', payload: expect.objectContaining({ kind: 'path_refused' }) }]);
  });

  it('keeps output up to outputByteLimit, cut from the start at a character boundary', async () => {
    await asAgent(async (ctx) => {
      const { terminalId } = await create(ctx, script(`process.stdout.write('é'.repeat(10) + 'x')`), { outputByteLimit: 6 });
      await ctx.request(acp.methods.client.terminal.waitForExit, ids(terminalId));
      expect(await outputOf(ctx, terminalId)).toMatchObject({ output: 'ééx', truncated: true });
    });
  });

  it('answers a command that cannot be started with a clear error', async () => {
    await asAgent(async (ctx) => {
      await expect(create(ctx, { command: join(dir.path, 'no-such-command') })).rejects.toThrow(/Could not run .*no-such-command.*ENOENT/);
      await expect(create(ctx, { command: '' })).rejects.toThrow(/empty/);
    });
    expect(terminals.size).toBe(0);
  });

  it('keeps each session to its own terminals', async () => {
    await asAgent(async (ctx) => {
      const { terminalId } = await create(ctx, script(`setInterval(() => {}, 1000)`));
      await expect(ctx.request(acp.methods.client.terminal.output, { sessionId: 's2', terminalId })).rejects.toThrow(/No terminal/);
      await expect(ctx.request(acp.methods.client.terminal.kill, { sessionId: 's2', terminalId })).rejects.toThrow(/No terminal/);
      await expect(ctx.request(acp.methods.client.terminal.output, { sessionId: 'nobody', terminalId })).rejects.toThrow();
      expect((await outputOf(ctx, terminalId)).exitStatus).toBeUndefined();
    });
  });

  it('pushes live output in order, throttled, and records the final output when the command ends', async () => {
    await asAgent(async (ctx) => {
      // The command prints its second line once the test lets it (a file appears).
      const go = join(dir.path, 'go');
      const code = `const fs = require('fs'); console.log('first'); const t = setInterval(() => { if (fs.existsSync(${JSON.stringify(go)})) { clearInterval(t); console.log('second'); } }, 5);`;
      const { terminalId } = await create(ctx, script(code));
      await waitUntil(() => terminals.snapshot('s1', terminalId)?.text.includes('first') === true, 'first line');
      expect(pushed).toEqual([]);
      await clock.advance(OUTPUT_PUSH_MS);
      expect(pushed).toEqual([{ terminalId, start: 0, text: 'first\n' }]);
      writeFileSync(go, '');
      await ctx.request(acp.methods.client.terminal.waitForExit, ids(terminalId));
      expect(pushed.map((p) => p.text).join('')).toBe('first\nsecond\n');
      expect(pushed.at(-1)).toEqual({ terminalId, start: 'first\nsecond\n'.length, text: '', exit: { exitCode: 0, signal: null } });
    });
    expect(recorded).toEqual([
      {
        kind: 'terminal_output',
        payload: expect.objectContaining({ output: 'first\nsecond\n', truncated: false, exit: { exitCode: 0, signal: null } }),
      },
    ]);
  });

  linuxOnly('kill and release end the whole process group: no helper outlives its terminal', async () => {
    await asAgent(async (ctx) => {
      const killed = await create(ctx, script(SPAWNS_HELPER));
      const helper1 = await helperPid(killed.terminalId);
      expect(isLive(helper1)).toBe(true);
      await ctx.request(acp.methods.client.terminal.kill, ids(killed.terminalId));
      await ctx.request(acp.methods.client.terminal.waitForExit, ids(killed.terminalId));
      await waitUntil(() => !isLive(helper1), 'the helper of the killed terminal to die');

      const released = await create(ctx, script(SPAWNS_HELPER));
      const helper2 = await helperPid(released.terminalId);
      const waiting = ctx.request(acp.methods.client.terminal.waitForExit, ids(released.terminalId));
      await ctx.request(acp.methods.client.terminal.release, ids(released.terminalId));
      expect(await waiting).toEqual({ exitCode: null, signal: 'SIGKILL' });
      await waitUntil(() => !isLive(helper2), 'the helper of the released terminal to die');
    });
  });

  linuxOnly('a command that exits leaves nothing of its group behind', async () => {
    await asAgent(async (ctx) => {
      const code = `const c = require('child_process').spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' }); console.log('helper ' + c.pid); c.unref();`;
      const { terminalId } = await create(ctx, script(code));
      expect(await ctx.request(acp.methods.client.terminal.waitForExit, ids(terminalId))).toEqual({ exitCode: 0, signal: null });
      const pid = Number(/helper (\d+)/.exec((await outputOf(ctx, terminalId)).output)?.[1]);
      await waitUntil(() => !isLive(pid), 'the background helper to die');
    });
  });

  linuxOnly("killing a session's terminals or all of them leaves no process", async () => {
    await asAgent(async (ctx) => {
      const a = await create(ctx, script(SPAWNS_HELPER));
      const b = await create(ctx, script(SPAWNS_HELPER), { sessionId: 's2' });
      const helperA = await helperPid(a.terminalId);
      const helperB = await helperPid(b.terminalId, 's2');
      terminals.killSession('s1');
      await waitUntil(() => !isLive(helperA), 'session 1 terminal helper to die');
      expect(isLive(helperB)).toBe(true);
      expect(terminals.size).toBe(1);
      terminals.dispose();
      await waitUntil(() => !isLive(helperB), 'session 2 terminal helper to die');
      await expect(create(ctx, script('1'))).rejects.toThrow(/closing/);
    });
  });

  it('advertises terminal support beside fs', () => {
    const lookup = () => undefined;
    expect(clientCapabilities([fsHandlers(lookup), terminalHandlers(lookup, { terminals, fixedEnv: {} })])).toEqual({
      fs: { readTextFile: true, writeTextFile: true },
      terminal: true,
    });
  });
});
