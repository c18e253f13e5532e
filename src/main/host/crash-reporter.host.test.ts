/**
 * Issue 23, when something goes wrong anyway: an uncaught error in a real host with real demo
 * agents. It is logged to a crash log in the data folder (versions, the agents' last protocol
 * lines, every secret scrubbed), every window hears of it and can fetch the log, the host goes
 * on; errors that come too fast end the run, and the next start says it restarted.
 */
import { EventEmitter } from 'node:events';
import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { HostProblemT } from '../../shared/contract';
import { CRASH_LOGS_KEPT } from '../datadir/crash-logs';
import { FakeClock } from '../test-support/fake-clock';
import { startHarness, type Harness } from '../test-support/host-harness';
import { catchUncaught, CRASH_LOG_LINES, STORM_LIMIT } from './crash-reporter';

const SECRET = 'demo-secret-9f8e7d6c';
const TOKEN = 'serve-token-1a2b3c4d';

let h: Harness | undefined;
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
});

const crashLogs = (dir: string): string[] => readdirSync(join(dir, 'logs')).filter((n) => n.startsWith('crash-'));

describe('an uncaught error in the host', () => {
  it('is logged with the versions and the redacted last protocol lines, told to every window, and the host goes on', async () => {
    h = await startHarness({ ownSecrets: [TOKEN] });
    // The demo agent keeps a secret; the person pastes it into a prompt (it travels in session/prompt).
    await h.restart({ ownSecrets: [TOKEN] }, () =>
      writeFileSync(join(h!.dataDir, 'secrets.json'), JSON.stringify({ version: 1, agents: { demo: { DEMO_API_KEY: { box: 'plain', value: SECRET } } } }), { mode: 0o600 }),
    );
    const w = h.window();
    const { id } = await w.call('sessions:create', { cwd: h.dataDir });
    await w.call('sessions:switch', { sessionId: id });
    for (let i = 0; i < 3; i++) await w.prompt(id, '/flood 300');
    await w.prompt(id, `my key is ${SECRET}, keep it safe`);

    const proc = new EventEmitter();
    const restarts: number[] = [];
    catchUncaught(proc as never, h.host.crashes, () => restarts.push(1));
    proc.emit('uncaughtException', new Error(`the parser fell over near ${TOKEN}`));

    const problem = await w.waitFor('host:problem', () => true);
    expect(problem).toMatchObject({ kind: 'error', message: 'Error: the parser fell over near [redacted]' });
    expect(crashLogs(h.dataDir)).toEqual([problem.report]);
    expect(statSync(join(h.dataDir, 'logs', problem.report)).mode & 0o077).toBe(0);
    const { text } = await w.call('crashes:read', { report: problem.report });
    expect(text).toMatch(/^Switchboard crash log\ntime: .*\nwhat: an uncaught exception\nthen: the host went on\nversions: Switchboard \S+, Node \d+\.\d+\.\d+, \S+ \S+ \(linux \w+\)\n/);
    expect(text).toContain('at '); // the stack
    expect(text).toContain(`The last ${CRASH_LOG_LINES} protocol lines of the agents (secrets redacted):`);
    const lines = text.slice(text.indexOf('protocol lines of the agents')).split('\n').slice(1).filter((l) => / (->|<-) /.test(l));
    expect(lines).toHaveLength(CRASH_LOG_LINES);
    expect(text).toContain('"method":"session/update"');
    // The prompt that carried the secret is among them, scrubbed.
    expect(text).toContain('my key is [redacted], keep it safe');
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain(TOKEN);
    expect(restarts).toEqual([]);

    // A rejection nobody handled goes the same way; the host serves on, and a window that
    // connects later hears of both.
    proc.emit('unhandledRejection', 'a plain string');
    expect(await w.prompt(id, 'still there?')).toMatchObject({ payload: { stopReason: 'end_turn' } });
    const info = await h.window('later').call('host:info', {});
    expect(info.problems?.map((p) => p.message)).toEqual(['Error: the parser fell over near [redacted]', 'A value that is not an Error was thrown: a plain string']);
    await expect(w.call('crashes:read', { report: 'crash-2020-01-01T00-00-00-000Z.log' })).rejects.toMatchObject({ code: 'not_found' });
    await expect(w.call('crashes:read', { report: '../secrets.json' })).rejects.toMatchObject({ code: 'invalid_request' });
  });

  it(`restarts after more than ${STORM_LIMIT} within a minute; the next start tells every window it restarted`, async () => {
    const clock = new FakeClock();
    h = await startHarness({ clock });
    const proc = new EventEmitter();
    const restarts: number[] = [];
    catchUncaught(proc as never, h.host.crashes, () => restarts.push(1));
    for (let i = 0; i <= STORM_LIMIT; i++) {
      proc.emit('uncaughtException', new TypeError(`boom ${i}`));
      await clock.advance(1_000);
    }
    expect(restarts).toEqual([1]);
    proc.emit('uncaughtException', new TypeError('once more'));
    expect(restarts).toEqual([1]);

    await h.restart();
    const problems = (await h.window().call('host:info', {})).problems ?? [];
    // The mark names the last error of the run: the one it ended on.
    expect(problems).toEqual([{ kind: 'restarted', at: expect.any(Number) as number, message: 'TypeError: once more', report: expect.stringMatching(/^crash-.*\.log$/) as string } satisfies HostProblemT]);
    // Said once: the start after that is an ordinary one.
    await h.restart();
    expect((await h.window().call('host:info', {})).problems).toBeUndefined();
  });

  it(`keeps the newest ${CRASH_LOGS_KEPT} crash logs`, async () => {
    const clock = new FakeClock();
    h = await startHarness({ clock });
    for (let i = 0; i < CRASH_LOGS_KEPT + 3; i++) {
      h.host.crashes.uncaught(new Error(`error ${i}`), 'uncaughtException');
      await clock.advance(61_000);
    }
    const kept = crashLogs(h.dataDir);
    expect(kept).toHaveLength(CRASH_LOGS_KEPT);
    expect((await h.window().call('crashes:read', { report: kept.at(-1)! })).text).toContain(`error: Error: error ${CRASH_LOGS_KEPT + 2}`);
  });
});
