import type { ServerResponse } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../../test-support/fake-clock';
import { hang, serveBytes, startStandIn, type StandIn } from '../../test-support/http-stand-in';
import { fetchableUrl, httpGet, httpGetBuffer, type GetOptions } from './http-get';

let server: StandIn;
let clock: FakeClock;
beforeEach(async () => {
  server = await startStandIn();
  clock = new FakeClock();
});
afterEach(() => server.close());

const opts = (o: Partial<GetOptions> = {}): GetOptions => ({ clock, idleTimeoutMs: 5_000, maxBytes: 1024 * 1024, ...o });

async function failure(p: Promise<unknown>): Promise<{ code: string; message: string }> {
  return p.then(
    () => {
      throw new Error('expected a failure');
    },
    (err: { code: string; message: string }) => err,
  );
}

describe('bounded HTTP GET', () => {
  it('streams a body with progress against the announced length', async () => {
    server.route('/file', serveBytes(Buffer.alloc(300_000, 7)));
    const progress: [number, number | undefined][] = [];
    const got = await httpGetBuffer(server.url('/file'), opts({ onProgress: (b, t) => progress.push([b, t]) }));
    expect(got.status).toBe(200);
    expect(got.body.length).toBe(300_000);
    expect(progress.at(-1)).toEqual([300_000, 300_000]);
    expect(progress.every(([, t]) => t === 300_000)).toBe(true);
  });

  it('follows redirects, checking each address', async () => {
    server.route('/a', (_req, res) => res.writeHead(302, { location: '/b' }).end());
    server.route('/b', (_req, res) => res.writeHead(301, { location: server.url('/file') }).end());
    server.route('/file', serveBytes('done'));
    expect((await httpGetBuffer(server.url('/a'), opts())).body.toString()).toBe('done');
    server.route('/away', (_req, res) => res.writeHead(302, { location: 'http://example.com/x' }).end());
    expect(await failure(httpGet(server.url('/away'), opts(), () => {}))).toMatchObject({ code: 'download_refused', message: expect.stringContaining('only https') });
    server.route('/loop', (_req, res) => res.writeHead(302, { location: '/loop' }).end());
    expect(await failure(httpGet(server.url('/loop'), opts(), () => {}))).toMatchObject({ code: 'download_failed', message: expect.stringContaining('redirected more than 5') });
  });

  it('refuses a body over the cap: at once when announced, as it streams when not', async () => {
    server.route('/big', serveBytes(Buffer.alloc(2 * 1024 * 1024)));
    expect(await failure(httpGet(server.url('/big'), opts(), () => {}))).toMatchObject({ code: 'download_refused', message: expect.stringContaining('offers 2 MiB, over the 1 MiB limit') });
    server.route('/chunked', serveBytes(Buffer.alloc(2 * 1024 * 1024), {}, { chunked: true }));
    let received = 0;
    const err = await failure(httpGet(server.url('/chunked'), opts(), (c) => void (received += c.byteLength)));
    expect(err).toMatchObject({ code: 'download_refused', message: expect.stringContaining('more than the 1 MiB limit') });
    expect(received).toBeLessThanOrEqual(1024 * 1024);
  });

  it('fails on an HTTP error status, and passes 304 through to the caller', async () => {
    server.route('/gone', serveBytes('no', {}, { status: 404 }));
    expect(await failure(httpGet(server.url('/gone'), opts(), () => {}))).toMatchObject({ code: 'download_failed', message: expect.stringContaining('404') });
    server.route('/same', (_req, res) => res.writeHead(304).end());
    expect((await httpGet(server.url('/same'), opts({ headers: { 'if-none-match': '"x"' } }), () => {})).status).toBe(304);
  });

  it('gives up on a host that sends nothing, on the fake clock', async () => {
    server.route('/hang', hang);
    const pending = failure(httpGet(server.url('/hang'), opts(), () => {}));
    await server.requested('/hang');
    await clock.advance(5_000);
    expect(await pending).toMatchObject({ code: 'download_failed', message: expect.stringContaining('sent nothing for 5 s') });
  });

  it('gives up on a body that stalls part-way', async () => {
    server.route('/stall', (_req, res) => {
      res.writeHead(200, { 'content-length': '1000' });
      res.write(Buffer.alloc(10));
    });
    let firstChunk!: () => void;
    const arrived = new Promise<void>((resolve) => (firstChunk = resolve));
    const pending = failure(httpGet(server.url('/stall'), opts({ onProgress: firstChunk }), () => {}));
    await arrived;
    // The first chunk reset the idle timer: just short of it, the download goes on.
    await clock.advance(4_999);
    expect(clock.pendingTimers).toBe(1);
    await clock.advance(1);
    expect(await pending).toMatchObject({ code: 'download_failed', message: expect.stringContaining('sent nothing') });
  });

  it('gives up on a trickle that keeps the idle timer alive once the total time is spent', async () => {
    let response!: ServerResponse;
    server.route('/trickle', (_req, res) => {
      response = res;
      res.writeHead(200, { 'content-length': '1000' });
    });
    let chunkArrived!: () => void;
    let arrived = new Promise<void>((resolve) => (chunkArrived = resolve));
    const pending = failure(httpGet(server.url('/trickle'), opts({ totalTimeoutMs: 8_000, onProgress: () => chunkArrived() }), () => {}));
    await server.requested('/trickle');
    for (let i = 0; i < 2; i++) {
      response.write(Buffer.alloc(1));
      await arrived;
      arrived = new Promise<void>((resolve) => (chunkArrived = resolve));
      await clock.advance(4_000);
    }
    expect(await pending).toMatchObject({ code: 'download_failed', message: expect.stringContaining('took longer than 8 s') });
  });

  it('is a download failure, not a crash, when nothing listens', async () => {
    const url = server.url('/x');
    await server.close();
    expect(await failure(httpGet(url, opts(), () => {}))).toMatchObject({ code: 'download_failed', message: expect.stringContaining('could not reach 127.0.0.1') });
    server = await startStandIn();
  });

  it('fetches only over https, or plain http from this machine', () => {
    expect(fetchableUrl('https://cdn.agentclientprotocol.com/registry/v1/latest/registry.json')).toBe(true);
    expect(fetchableUrl('http://127.0.0.1:8080/x')).toBe(true);
    expect(fetchableUrl('http://localhost/x')).toBe(true);
    expect(fetchableUrl('http://[::1]/x')).toBe(true);
    expect(fetchableUrl('http://example.com/x')).toBe(false);
    expect(fetchableUrl('file:///etc/passwd')).toBe(false);
    expect(fetchableUrl('ftp://example.com/x')).toBe(false);
  });
});
