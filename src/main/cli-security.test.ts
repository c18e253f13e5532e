import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testCleanups } from './test-support/cleanups';
import { openHostSocket, startServe, WsClient, type ServeProcess } from './test-support/serve-process';

/** Issue 13, security of the headless host: where it listens, and where its token is written. */

const cleanups = testCleanups();
const dataDir = (): string => cleanups.dataDir();

function serve(args: string[]): ServeProcess {
  const p = startServe(['serve', '--port', '0', ...args]);
  cleanups.add(async () => {
    if (p.child.exitCode === null && p.child.signalCode === null) {
      p.child.kill('SIGKILL');
      await p.exited;
    }
  });
  return p;
}

/** Every file under `dir`, read as bytes decoded latin1 (SQLite pages and logs alike). */
function filesUnder(dir: string): { path: string; text: string }[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((rel) => join(dir, rel))
    .filter((path) => statSync(path).isFile())
    .map((path) => ({ path, text: readFileSync(path).toString('latin1') }));
}

describe('serve: where it listens', () => {
  it('binds to 127.0.0.1 by default and prints no warning', async () => {
    const p = serve(['--data-dir', dataDir()]);
    const url = await p.ready;
    expect(url.hostname).toBe('127.0.0.1');
    expect(p.stdout()).not.toMatch(/WARNING/);
    expect(p.stderr()).not.toMatch(/WARNING/);
  });

  it('bound to every interface, it says so loudly on stderr and beside the ready line', async () => {
    const p = serve(['--data-dir', dataDir(), '--host', '0.0.0.0']);
    const url = await p.ready;
    expect(url.hostname).toBe('0.0.0.0');
    const lines = p.stdout().split('\n');
    const ready = lines.findIndex((l) => l.startsWith('Switchboard ready: '));
    expect(lines[ready + 1]).toMatch(/^WARNING: listening on every network interface/);
    // All of stderr, once it has exited.
    p.child.kill('SIGTERM');
    await p.exited;
    expect(p.stderr()).toMatch(/switchboard: WARNING: listening on every network interface.*token/);
  });
});

describe('serve: the token', () => {
  it('is written nowhere but the ready line: not to stderr, logs, agent logs or the database', async () => {
    const dir = dataDir();
    const token = `tok-${randomUUID().replaceAll('-', '')}`;
    const p = serve(['--data-dir', dir, '--token', token, '--log-level', 'debug']);
    const url = await p.ready;
    // A page load and a refused socket: the paths where a request (and its query) might be logged.
    expect((await fetch(url)).status).toBe(200);
    const bad = new URL(url);
    bad.searchParams.set('token', `${token}x`);
    await expect(openHostSocket(bad)).rejects.toThrow();
    const client = await WsClient.connect(url);
    cleanups.add(() => client.close());
    await client.call('settings:update', { logProtocol: true });
    const view = await client.call('sessions:create', { cwd: dir });
    await client.call('sessions:switch', { sessionId: view.id });
    const clientMessageId = randomUUID();
    await client.call('prompt:send', { sessionId: view.id, clientMessageId, text: `/tool token test` });
    await client.waitFor('session:event', (e) => e.kind === 'turn_ended' && (e.payload as { clientMessageId?: string }).clientMessageId === clientMessageId);
    client.close();
    p.child.kill('SIGTERM');
    expect((await p.exited).code).toBe(0);

    const stdoutHits = p.stdout().split('\n').filter((l) => l.includes(token));
    expect(stdoutHits).toEqual([`Switchboard ready: ${url.href}`]);
    expect(p.stderr()).toContain('"level":"info"');
    expect(p.stderr()).not.toContain(token);
    const files = filesUnder(dir);
    expect(files.some((f) => f.path.endsWith('.log'))).toBe(true);
    expect(files.filter((f) => f.text.includes(token)).map((f) => f.path)).toEqual([]);
  });
});
