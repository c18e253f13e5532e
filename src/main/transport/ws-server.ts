import { timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { WebSocket, WebSocketServer as WsServer } from 'ws';
import { createRequire } from 'node:module';
import { WsRequest } from '../../shared/contract';
import type { z } from 'zod';
import type { HostPort } from '../host/host-port';
import type { Logger } from '../util/log';
import { cacheControlFor, isPublicFile, readStatic } from './static-files';
import { WindowSender } from './window-sender';
import { coalesceWrites } from './write-coalescer';

export interface HeadlessServerOptions {
  host: HostPort;
  rendererDir: string;
  hostname: string;
  port: number;
  token: string;
  log: Logger;
  /** A window further behind than this many bytes is resynchronised instead of buffered. */
  maxBufferedBytes?: number;
}

export interface HeadlessServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

const COOKIE = 'switchboard_token';

/**
 * ws, read with `require` for the reason `store/sqlite.ts` gives (ADR 0027), and on first use:
 * its files took 12–22 ms to load, on the way to the ready line while no window can have
 * connected yet. The server loads it just after it listens (`startHeadlessServer`).
 */
let wsLib: { WebSocketServer: typeof WsServer } | undefined;
const wsModule = (): { WebSocketServer: typeof WsServer } => (wsLib ??= createRequire(import.meta.url)('ws') as { WebSocketServer: typeof WsServer });
const CSP =
  "default-src 'self'; connect-src 'self' ws: wss:; style-src 'self' 'unsafe-inline'; img-src 'self' data:; worker-src 'self'; manifest-src 'self'; frame-ancestors 'none'";
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

function parseUrl(raw: string | undefined): URL | undefined {
  try {
    return new URL(raw ?? '/', 'http://localhost');
  } catch {
    return undefined;
  }
}

function sameToken(given: string | undefined, token: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

function tokenOf(req: IncomingMessage, url: URL): string | undefined {
  const fromQuery = url.searchParams.get('token');
  if (fromQuery) return fromQuery;
  const cookie = req.headers.cookie ?? '';
  const match = cookie.split(/;\s*/).find((c) => c.startsWith(`${COOKIE}=`));
  return match ? safeDecode(match.slice(COOKIE.length + 1)) : undefined;
}

/** A cookie value as it was set; a malformed escape is no token (and must never throw in `upgrade`). */
function safeDecode(value: string): string | undefined {
  try {
    return decodeURIComponent(value);
  } catch {
    return undefined;
  }
}

type WsRequestT = z.output<typeof WsRequest>;

/**
 * A request frame's text as a request. A frame with a request id and a command whose payload
 * can't be checked (nested deeper than the validator's stack) is answered with an error;
 * one without them is no request at all (undefined: the socket is closed).
 */
function readRequest(text: string): WsRequestT | { id: number; refused: string } | undefined {
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    return undefined;
  }
  try {
    const parsed = WsRequest.safeParse(message);
    if (parsed.success) return parsed.data;
  } catch {
    // A RangeError (stack) from a deeply nested payload: refused below like any invalid one.
  }
  const { id, command } = (typeof message === 'object' && message !== null ? message : {}) as { id?: unknown; command?: unknown };
  return Number.isSafeInteger(id) && typeof command === 'string' ? { id: id as number, refused: 'The request payload is nested too deeply to check' } : undefined;
}

/**
 * The headless host's front: the built renderer over HTTP and the contract over a WebSocket,
 * both behind the per-run token. Host and Origin headers are checked so a web page the user
 * visits can't reach the host through DNS rebinding or a cross-site socket.
 */
export async function startHeadlessServer(o: HeadlessServerOptions): Promise<HeadlessServer> {
  const loopbackOnly = LOOPBACK.has(o.hostname);
  const hostAllowed = (req: IncomingMessage): boolean => {
    if (!loopbackOnly) return true;
    const host = req.headers.host ?? '';
    const name = host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.split(':')[0];
    return LOOPBACK.has(name ?? '');
  };

  const server = createServer((req, res) => {
    // One malformed request must never take the host (and every session) down.
    serveHttp(req, res).catch((err: unknown) => {
      o.log.warn('http request failed', { error: String(err) });
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  async function serveHttp(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = parseUrl(req.url);
    if (!url) return void res.writeHead(400).end('Bad request');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'no-referrer');
    if (!hostAllowed(req)) return void res.writeHead(421).end('Misdirected request');
    if (req.method !== 'GET' && req.method !== 'HEAD') return void res.writeHead(405).end();
    if (!isPublicFile(url.pathname) && !sameToken(tokenOf(req, url), o.token)) {
      res.writeHead(401, { 'Content-Type': 'text/plain; charset=utf-8' });
      return void res.end('Switchboard: open the address printed by `switchboard serve` (it carries ?token=…).\n');
    }
    const file = await readStatic(o.rendererDir, url.pathname);
    if (!file) return void res.writeHead(404).end('Not found');
    const isPage = file.type.startsWith('text/html');
    res.writeHead(200, {
      'Content-Type': file.type,
      'Cache-Control': cacheControlFor(url.pathname, isPage),
      ...(isPage
        ? { 'Content-Security-Policy': CSP, 'Set-Cookie': `${COOKIE}=${encodeURIComponent(o.token)}; HttpOnly; SameSite=Strict; Path=/` }
        : {}),
    });
    res.end(req.method === 'HEAD' ? undefined : file.body);
  }

  // Without a listener Node drops a CONNECT request's connection without a word: answer it.
  server.on('connect', (_req, socket) => {
    socket.on('error', () => {}); // the client may be gone already; nothing to answer then
    socket.end('HTTP/1.1 405 Method Not Allowed\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
  });
  // allowSynchronousEvents false: each message gets its own turn of the loop. Messages read
  // together were all dispatched in one turn, so a quick request's answer (sent once its handler's
  // promise settles) waited for every slower handler read with it: at start, the window's first
  // page of sessions waited ~200 ms for the whole list asked for right after it.
  let wss: WsServer | undefined;
  const wsServer = (): WsServer => {
    if (wss) return wss;
    wss = new (wsModule().WebSocketServer)({ noServer: true, maxPayload: 16 * 1024 * 1024, allowSynchronousEvents: false });
    // `ws` emits `error` here only for an HTTP server it owns (not with noServer); a listener keeps a
    // future one from being fatal.
    wss.on('error', (err) => o.log.warn('websocket server error', { error: String(err) }));
    return wss;
  };
  server.on('upgrade', (req, socket, head) => {
    // Node's HTTP server takes its own error listener off an upgraded socket: a reset from the
    // client before `ws` takes the socket over (or while a refusal is written) must not be fatal.
    socket.on('error', (err) => o.log.debug('upgrade socket error', { error: String(err) }));
    const url = parseUrl(req.url);
    if (!url) return void socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    const origin = req.headers.origin;
    const expectedOrigin = `http://${req.headers.host ?? ''}`;
    if (url.pathname !== '/ws' || !hostAllowed(req) || origin !== expectedOrigin || !sameToken(tokenOf(req, url), o.token)) {
      socket.end('HTTP/1.1 401 Unauthorized\r\nConnection: close\r\n\r\n');
      return;
    }
    wsServer().handleUpgrade(req, socket, head, (ws) => attach(ws, socket));
  });

  let tabs = 0;
  const sockets = new Set<WebSocket>();
  function attach(ws: WebSocket, socket: Duplex): void {
    sockets.add(ws);
    const together = coalesceWrites(socket);
    const frame = (data: unknown): void => {
      if (ws.readyState !== ws.OPEN) return;
      together();
      ws.send(JSON.stringify(data));
    };
    const sender = new WindowSender({
      bufferedAmount: () => ws.bufferedAmount,
      write: frame,
      maxBufferedBytes: o.maxBufferedBytes ?? 8 * 1024 * 1024,
      poll: (fn) => {
        const timer = setInterval(() => fn() && clearInterval(timer), 100);
        return () => clearInterval(timer);
      },
    });
    const client = o.host.connect({
      label: `tab ${++tabs}`,
      send: (event, payload) => sender.send(event, payload),
    });
    // `ws` reports every protocol error from the client (reserved bits, bad UTF-8, a frame over
    // the limit, an oversized control frame, a bad close code) as an `error` event and closes
    // the socket itself with the matching code; without a listener the event would end the host.
    ws.on('error', (err) => o.log.debug('websocket protocol error', { window: client.id, error: String(err) }));
    let alive = true;
    ws.on('pong', () => (alive = true));
    const heartbeat = setInterval(() => {
      if (!alive) return ws.terminate();
      alive = false;
      ws.ping();
    }, 30_000);
    heartbeat.unref();
    ws.on('message', (data) => {
      const request = readRequest(String(data));
      if (request === undefined) return ws.close(1003, 'Malformed frame');
      if ('refused' in request) {
        return frame({ type: 'response', id: request.id, result: { ok: false, error: { code: 'invalid_request', message: request.refused } } });
      }
      void o.host.dispatch(client.id, request.command, request.payload).then((result) => frame({ type: 'response', id: request.id, result }));
    });
    ws.on('close', () => {
      sockets.delete(ws);
      clearInterval(heartbeat);
      sender.dispose();
      client.dispose();
    });
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.hostname, () => resolve());
  });
  // Once listening, a server error (accept failing for want of file descriptors) is reported,
  // never thrown: the sessions and the windows already connected go on.
  server.on('error', (err) => o.log.error('http server error', { error: String(err) }));
  // Loaded now, after the ready line and long before a window opened from it connects; an upgrade
  // that comes first loads it itself.
  let closed = false;
  setImmediate(() => closed || wsServer());
  const port = (server.address() as AddressInfo).port;
  const shownHost = o.hostname.includes(':') ? `[${o.hostname}]` : o.hostname;
  return {
    url: `http://${shownHost}:${port}/?token=${encodeURIComponent(o.token)}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        closed = true;
        for (const ws of sockets) ws.close(1001, 'Switchboard is shutting down');
        // A tab that never answers the close handshake (asleep laptop, dead tunnel) must not
        // hold up quitting.
        const force = setTimeout(() => {
          for (const ws of sockets) ws.terminate();
          resolve();
        }, 500);
        force.unref();
        wss?.close();
        server.close(() => {
          clearTimeout(force);
          resolve();
        });
        server.closeAllConnections();
      }),
  };
}
