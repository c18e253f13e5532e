/**
 * Issue 23, agents see only what is theirs: two real agent processes of two agents, each with
 * a secret of its own in the secret box, an MCP server's secret beside them, and a Switchboard
 * environment that carries the serve token and copies of the secrets. Each process's
 * environment is read from /proc; so is what a terminal the agent opens gets.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../util/log';
import { demoAgent } from '../test-support/demo-agent';
import { TestWindow } from '../test-support/host-harness';
import { tempDir } from '../test-support/temp-dir';
import { SessionHost } from './session-host';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const TOKEN = 'serve-token-5f2c9d1e';
const DEMO_SECRET = 'demo-secret-0a1b2c3d';
const SECOND_SECRET = 'second-secret-4e5f6a7b';
const MCP_SECRET = 'mcp-secret-8c9d0e1f';

/** The environment of a running process, as the kernel has it. */
function environOf(pid: number): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0')) {
    const eq = entry.indexOf('=');
    if (eq > 0) out[entry.slice(0, eq)] = entry.slice(eq + 1);
  }
  return out;
}

describe.runIf(process.platform === 'linux')("an agent's environment", () => {
  it("has Switchboard's, less the token and every other agent's and MCP server's secrets, plus its own", async () => {
    const dir = tempDir();
    cleanups.push(dir.cleanup);
    // The secret box as Settings and a sign-in leave it: each agent's key, and an MCP server's.
    writeFileSync(
      join(dir.path, 'secrets.json'),
      JSON.stringify({
        version: 1,
        agents: {
          demo: { DEMO_API_KEY: { box: 'plain', value: DEMO_SECRET } },
          second: { SECOND_API_KEY: { box: 'plain', value: SECOND_SECRET } },
          'mcp:files': { FILES_TOKEN: { box: 'plain', value: MCP_SECRET } },
        },
      }),
      { mode: 0o600 },
    );
    const second = { ...demoAgent(join(dir.path, 'second-demo')), id: 'second', name: 'Second agent' };
    // Switchboard's own environment: the person's shell, which exported the keys too.
    const inheritedEnv = {
      ...process.env,
      PLAIN_SETTING: 'kept for everyone',
      SWITCHBOARD_TOKEN: TOKEN,
      TOKEN_UNDER_ANOTHER_NAME: TOKEN,
      DEMO_API_KEY: DEMO_SECRET,
      SECOND_API_KEY: SECOND_SECRET,
      EXPORTED_SECOND_KEY: SECOND_SECRET,
      FILES_TOKEN: MCP_SECRET,
    };
    const host = await SessionHost.start({ dataDir: dir.path, headless: true, log: silentLogger, graceMs: 500, agents: [second], inheritedEnv, ownSecrets: [TOKEN] });
    cleanups.push(() => host.shutdown());
    const w = new TestWindow(host);
    const envs: Record<string, Record<string, string>> = {};
    for (const agentId of ['demo', 'second']) {
      const { id } = await w.call('sessions:create', { cwd: dir.path, agentId });
      await w.call('sessions:switch', { sessionId: id });
      await w.waitFor('session:updated', (v) => v.id === id && v.state === 'ACTIVE');
      const broker = host.pool.brokerOf(id);
      expect(broker?.pid).toBeDefined();
      envs[agentId] = environOf(broker!.pid!);
      if (agentId === 'demo') {
        // A terminal the agent opens sees what its agent sees, no more.
        await w.prompt(id, '/terminal env');
        host.eventLog.flush();
        const stored = JSON.stringify(host.eventLog.events.pageAfter(id, 0, 10_000).events);
        expect(stored).toContain('PLAIN_SETTING=kept for everyone');
        for (const secret of [TOKEN, SECOND_SECRET, MCP_SECRET]) expect(stored).not.toContain(secret);
      }
    }

    const demo = envs.demo!;
    expect(demo.PLAIN_SETTING).toBe('kept for everyone');
    expect(demo.PATH).toBe(process.env.PATH);
    expect(demo.DEMO_API_KEY).toBe(DEMO_SECRET);
    for (const name of ['SWITCHBOARD_TOKEN', 'TOKEN_UNDER_ANOTHER_NAME', 'SECOND_API_KEY', 'EXPORTED_SECOND_KEY', 'FILES_TOKEN']) expect(demo).not.toHaveProperty(name);
    expect(Object.values(demo)).not.toContain(SECOND_SECRET);

    const other = envs.second!;
    expect(other.PLAIN_SETTING).toBe('kept for everyone');
    expect(other.SECOND_API_KEY).toBe(SECOND_SECRET);
    // Its own key under another name is still its own.
    expect(other.EXPORTED_SECOND_KEY).toBe(SECOND_SECRET);
    for (const name of ['SWITCHBOARD_TOKEN', 'TOKEN_UNDER_ANOTHER_NAME', 'DEMO_API_KEY', 'FILES_TOKEN']) expect(other).not.toHaveProperty(name);
    for (const secret of [TOKEN, DEMO_SECRET, MCP_SECRET]) expect(Object.values(other)).not.toContain(secret);
  });
});
