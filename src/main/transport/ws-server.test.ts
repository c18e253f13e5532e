import { mkdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect as tcpConnect } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startHarness, type Harness } from '../test-support/host-harness';
import { silentLogger } from '../util/log';
import { startHeadlessServer, type HeadlessServer } from './ws-server';
import { rawUpgrade, textFrame } from '../test-support/raw-ws';

let h: Harness | undefined;
let server: HeadlessServer | undefined;
afterEach(async () => {
  await server?.close();
  await h?.cleanup();
  server = undefined;
  h = undefined;
});

const TOKEN = 'test-token-123';

async function start(): Promise<{ base: string; port: number }> {
  h = await startHarness();
  const renderer = join(h.dataDir, 'renderer');
  mkdirSync(join(renderer, 'assets'), { recursive: true });
  writeFileSync(join(renderer, 'index.html'), '<!doctype html><title>Switchboard</title>');
  writeFileSync(join(renderer, 'assets', 'app.js'), 'console.log(1)');
  mkdirSync(join(renderer, 'icons'), { recursive: true });
  writeFileSync(join(renderer, 'manifest.webmanifest'), '{"name":"Switchboard"}');
  writeFileSync(join(renderer, 'sw.js'), 'self.addEventListener("fetch", () => {})');
  writeFileSync(join(renderer, 'icons', 'icon-192.png'), 'png');
  writeFileSync(join(renderer, 'icons', 'icon.svg'), '<svg/>');
  writeFileSync(join(h.dataDir, 'secret.txt'), 'do not serve');
  server = await startHeadlessServer({ host: h.host, rendererDir: renderer, hostname: '127.0.0.1', port: 0, token: TOKEN, log: silentLogger });
  return { base: `http://127.0.0.1:${server.port}`, port: server.port };
}

function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    request(url, { headers }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    })
      .on('error', reject)
      .end();
  });
}

function connect(url: string, origin?: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, origin ? { origin } : {});
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
    ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
  });
}

function call(ws: WebSocket, id: number, command: string, payload: unknown): Promise<{ ok: boolean; value?: unknown; error?: { code: string } }> {
  return new Promise((resolve) => {
    const onMessage = (data: WebSocket.RawData): void => {
      const frame = JSON.parse(String(data)) as { type: string; id?: number; result?: never };
      if (frame.type === 'response' && frame.id === id) {
        ws.off('message', onMessage);
        resolve(frame.result as never);
      }
    };
    ws.on('message', onMessage);
    ws.send(JSON.stringify({ id, command, payload }));
  });
}

describe('the headless server', () => {
  it('serves the window only with the token, then by cookie, with a CSP', async () => {
    const { base } = await start();
    expect((await get(`${base}/`)).status).toBe(401);
    expect((await get(`${base}/?token=wrong-token-123`)).status).toBe(401);
    const page = await get(`${base}/?token=${TOKEN}`);
    expect(page.status).toBe(200);
    expect(String(page.headers['content-security-policy'])).toContain("default-src 'self'");
    const cookie = String((page.headers['set-cookie'] as string[])[0]).split(';')[0]!;
    expect(cookie).toContain('switchboard_token=');
    expect((await get(`${base}/assets/app.js`)).status).toBe(401);
    expect((await get(`${base}/assets/app.js`, { cookie })).status).toBe(200);
  });

  it('serves what installing the app needs (manifest, icons, service worker) without the token, with their types, and nothing else', async () => {
    const { base } = await start();
    const manifest = await get(`${base}/manifest.webmanifest`);
    expect(manifest.status).toBe(200);
    expect(manifest.headers['content-type']).toBe('application/manifest+json; charset=utf-8');
    expect(manifest.headers['cache-control']).toBe('no-cache');
    const worker = await get(`${base}/sw.js`);
    expect(worker.status).toBe(200);
    expect(worker.headers['content-type']).toBe('text/javascript; charset=utf-8');
    // A new build's worker is picked up at once, never kept for a year like hashed files.
    expect(worker.headers['cache-control']).toBe('no-cache');
    expect((await get(`${base}/icons/icon-192.png`)).headers['content-type']).toBe('image/png');
    expect((await get(`${base}/icons/icon.svg`)).headers['content-type']).toBe('image/svg+xml');
    // The page, its scripts and anything else still need the token; so do tricks on the public names.
    for (const path of ['/', '/index.html', '/assets/app.js', '/icons/../index.html', '/icons/%2e%2e/index.html', '/sw.js/..', '/icons/']) {
      expect((await get(`${base}${path}`)).status, path).toBe(401);
    }
  });

  it('sends a CSP that lets the page load its own worker and manifest only', async () => {
    const { base } = await start();
    const csp = String((await get(`${base}/?token=${TOKEN}`)).headers['content-security-policy']);
    expect(csp).toContain("worker-src 'self'");
    expect(csp).toContain("manifest-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
  });

  it('never serves a file outside the built window', async () => {
    const { base } = await start();
    for (const path of ['/../secret.txt', '/%2e%2e/secret.txt', '/assets/../../secret.txt', '/..%2fsecret.txt']) {
      const res = await get(`${base}${path}?token=${TOKEN}`);
      expect(res.body).not.toContain('do not serve');
    }
  });

  it('refuses a Host header that is not loopback (DNS rebinding)', async () => {
    const { base } = await start();
    expect((await get(`${base}/?token=${TOKEN}`, { host: 'evil.example:80' })).status).toBe(421);
  });

  it('opens the socket only with the token and our own Origin', async () => {
    const { port } = await start();
    const ws = `ws://127.0.0.1:${port}/ws`;
    const origin = `http://127.0.0.1:${port}`;
    await expect(connect(`${ws}`, origin)).rejects.toThrow(/401/);
    await expect(connect(`${ws}?token=${TOKEN}`, 'http://evil.example')).rejects.toThrow(/401/);
    await expect(connect(`${ws}?token=${TOKEN}`)).rejects.toThrow(/401/);
    const socket = await connect(`${ws}?token=${TOKEN}`, origin);
    const info = await call(socket, 1, 'host:info', {});
    expect(info).toMatchObject({ ok: true, value: { headless: true } });
    const bad = await call(socket, 2, 'sessions:create', { nonsense: true });
    expect(bad).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    socket.close();
  });

  it('closes a socket that sends a malformed frame', async () => {
    const { port } = await start();
    const socket = await connect(`ws://127.0.0.1:${port}/ws?token=${TOKEN}`, `http://127.0.0.1:${port}`);
    const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
    socket.send('this is not json');
    expect(await closed).toBe(1003);
  });

  it('disposes the window when its socket closes, so sessions it watched become DETACHED', async () => {
    const { port } = await start();
    const socket = await connect(`ws://127.0.0.1:${port}/ws?token=${TOKEN}`, `http://127.0.0.1:${port}`);
    const created = (await call(socket, 1, 'sessions:create', {})) as { value: { id: string } };
    await call(socket, 2, 'sessions:switch', { sessionId: created.value.id });
    expect(h!.host.watchers.count(created.value.id)).toBe(1);
    socket.close();
    await new Promise<void>((resolve) => {
      const check = (): void => (h!.host.watchers.count(created.value.id) === 0 ? resolve() : void setTimeout(check, 10));
      check();
    });
    expect(h!.host.watchers.count(created.value.id)).toBe(0);
  });

  it('answers a malformed request target with 400 and keeps serving', async () => {
    const { base, port } = await start();
    const raw = (line: string): Promise<string> =>
      new Promise((resolve) => {
        const socket = tcpConnect(port, '127.0.0.1', () => socket.write(`${line}\r\nHost: 127.0.0.1\r\n\r\n`));
        let got = '';
        socket.on('data', (d) => (got += d.toString()));
        socket.on('close', () => resolve(got));
        socket.on('error', () => resolve(got));
        socket.setTimeout(2_000, () => socket.destroy());
      });
    expect(await raw('GET http://[ HTTP/1.1')).toMatch(/^HTTP\/1\.1 400/);
    await raw('GET http://[ HTTP/1.1\r\nConnection: Upgrade\r\nUpgrade: websocket');
    expect((await get(`${base}/?token=${TOKEN}`)).status).toBe(200);
  });

  it('answers each request of a burst as soon as it is done: a quick one is not held behind a slow one read with it', async () => {
    const { port } = await start();
    // Enough sessions for the whole list to take a while to answer.
    const insert = h!.host.store.db.prepare(`INSERT INTO sessions (id, agent_id, cwd, state, created_at, updated_at, last_activity_at) VALUES (?, 'demo', '/', 'ENDED', ?, ?, ?)`);
    h!.host.store.db.transaction(() => {
      for (let i = 0; i < 10_000; i++) insert.run(`s-${i}`, i, i, i);
    })();
    const conn = rawUpgrade(new URL(`http://127.0.0.1:${port}/?token=${TOKEN}`));
    expect(await conn.response).toMatch(/^HTTP\/1\.1 101/);
    const arrived = new Map<number, number>();
    conn.socket.on('data', () => {
      const text = conn.received().toString('latin1');
      for (const id of [1, 2]) if (!arrived.has(id) && text.includes(`"type":"response","id":${id},`)) arrived.set(id, performance.now());
    });
    const started = performance.now();
    // One write: both frames reach the server in one read.
    conn.socket.write(Buffer.concat([textFrame('{"id":1,"command":"host:info","payload":{}}'), textFrame('{"id":2,"command":"sessions:list","payload":{}}')]));
    await conn.until(() => arrived.has(1) && arrived.has(2), 'both answers');
    conn.socket.destroy();
    const listMs = arrived.get(2)! - started;
    // Before each message had its own turn, the quick answer left only after the list was built.
    expect(arrived.get(1)! - started).toBeLessThan(listMs / 2);
  });
});
