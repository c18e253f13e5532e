import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * A local HTTP server (127.0.0.1, a free port) standing in for the ACP registry's CDN and for
 * the hosts its archives download from. Routes are set per test; `requested(path)` resolves
 * when a request for it has arrived, so a test waits on that instead of sleeping (e.g. before
 * moving a fake clock past a timeout).
 */
export interface StandIn {
  url(path: string): string;
  route(path: string, handler: Handler): void;
  requested(path: string): Promise<IncomingMessage>;
  /** Every request so far, as `METHOD path`. */
  readonly log: string[];
  close(): Promise<void>;
}

export async function startStandIn(): Promise<StandIn> {
  const routes = new Map<string, Handler>();
  const waiters = new Map<string, ((req: IncomingMessage) => void)[]>();
  const seen = new Map<string, IncomingMessage>();
  const log: string[] = [];
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    log.push(`${req.method} ${path}`);
    seen.set(path, req);
    for (const w of waiters.get(path)?.splice(0) ?? []) w(req);
    const handler = routes.get(path);
    if (handler) handler(req, res);
    else res.writeHead(404).end('not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    route: (path, handler) => routes.set(path, handler),
    requested: (path) =>
      new Promise((resolve) => {
        const already = seen.get(path);
        if (already) return resolve(already);
        waiters.set(path, [...(waiters.get(path) ?? []), resolve]);
      }),
    log,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Answers with `body` (and its length, unless `chunked`). */
export function serveBytes(body: Buffer | string, headers: Record<string, string> = {}, options: { chunked?: boolean; status?: number } = {}): Handler {
  return (_req, res) => {
    const data = Buffer.from(body);
    res.writeHead(options.status ?? 200, { 'content-type': 'application/octet-stream', ...(options.chunked ? {} : { 'content-length': String(data.length) }), ...headers });
    res.end(data);
  };
}

/** Never answers (a host that accepted the connection and went silent). */
export const hang: Handler = () => {};
