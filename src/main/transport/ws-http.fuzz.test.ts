import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFuzzHost, type FuzzHost } from '../test-support/fuzz-host';
import { fuzzSettings, fuzzTimeout, rawBytes } from '../test-support/fuzz';
import { rawConnect, rawUpgrade } from '../test-support/raw-ws';

/**
 * HTTP requests as no browser sends them, byte for byte over TCP, against a real headless
 * host: odd and invalid methods, request targets with `..`, percent escapes, NUL and very long
 * paths, absolute and asterisk forms, hostile headers (Host, Cookie, lengths, upgrades) and
 * query strings. Every request gets an HTTP status line, never a 500, never a file outside
 * the built window, and the host goes on serving another window.
 */

let host: FuzzHost;
beforeAll(async () => {
  host = await startFuzzHost();
});
afterAll(async () => {
  await host?.stop();
});

/** The only file of the stand-in window `startServe` writes. */
const INDEX = '<!doctype html><title>Switchboard</title>';

const method = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'TRACE', 'PATCH', 'CONNECT') },
  // Not PRI: Node's parser reads it as the start of the HTTP/2 preface and waits for the rest
  // (then times the request out), which is right for an incomplete request.
  { weight: 1, arbitrary: fc.constantFrom('get', 'G E T', '', 'M-SEARCH', 'GET\0', 'ÄÖ') },
  { weight: 1, arbitrary: fc.stringMatching(/^[A-Z!#$%&'*+.^_`|~-]{1,12}$/) },
);

const segment = fc.oneof(
  fc.constantFrom('..', '.', '%2e%2e', '%2E%2E', '..%2f', '%2f', '%5c', '..\\', '%00', '\0', '%', '%zz', '%c0%ae%c0%ae', '%ff', 'index.html', 'assets', '~', '', 'é', '%e9', 'etc', 'passwd', ';', '%0d%0a'),
  fc.stringMatching(/^[a-zA-Z0-9._~-]{1,16}$/),
);

const path = fc.oneof(
  { weight: 8, arbitrary: fc.array(segment, { maxLength: 8 }).map((s) => `/${s.join('/')}`) },
  { weight: 1, arbitrary: fc.integer({ min: 1_000, max: 20_000 }).map((n) => `/${'a'.repeat(n)}`) },
  { weight: 1, arbitrary: fc.constantFrom('*', 'http://127.0.0.1/', 'http://[', '//', '/?', '#', 'index.html', '/\\..\\..\\', '/%2e%2e/%2e%2e/etc/passwd', '/ws', '/ws/') },
);

const query = (token: string): fc.Arbitrary<string> =>
  fc
    .array(
      fc.oneof(
        fc.constantFrom(`token=${token}`, 'token=', 'token=wrong', `token=${token}%`, 'token', '=', '&', '%zz=1', 'a=%00'),
        fc.tuple(fc.stringMatching(/^[a-z%0-9]{0,8}$/), fc.stringMatching(/^[^\s#]{0,12}$/)).map(([k, v]) => `${k}=${v}`),
      ),
      { maxLength: 4 },
    )
    .map((parts) => (parts.length === 0 ? '' : `?${parts.join('&')}`));

const header = (page: URL, token: string): fc.Arbitrary<[string, string]> =>
  fc.oneof(
    fc.constantFrom<[string, string]>(
      ['Host', page.host],
      ['Host', 'evil.example'],
      ['Host', ''],
      ['Host', '[::1]'],
      ['Host', `${page.host}, evil.example`],
      ['Cookie', `switchboard_token=${token}`],
      ['Cookie', 'switchboard_token=%zz'],
      ['Cookie', 'switchboard_token=%'],
      ['Cookie', ';;=;switchboard_token'],
      ['Content-Length', '5'],
      ['Content-Length', '-1'],
      ['Content-Length', '99999999999999999999'],
      ['Transfer-Encoding', 'chunked'],
      ['Transfer-Encoding', 'gzip, chunked'],
      ['Expect', '100-continue'],
      ['Connection', 'Upgrade'],
      ['Connection', 'close'],
      ['Upgrade', 'websocket'],
      ['Upgrade', 'h2c'],
      ['Sec-WebSocket-Version', '13'],
      ['Sec-WebSocket-Key', 'dGhlIHNhbXBsZSBub25jZQ=='],
      ['Origin', `http://${page.host}`],
      ['Origin', 'null'],
      ['Accept-Encoding', 'gzip'],
      ['Range', 'bytes=0-1'],
    ),
    fc.tuple(fc.stringMatching(/^[A-Za-z-]{1,20}$/), fc.stringMatching(/^[\x20-\x7e]{0,40}$/)),
    fc.tuple(fc.constant('X-Long'), fc.integer({ min: 1_000, max: 20_000 }).map((n) => 'v'.repeat(n))),
    // Bytes a header may not hold: the parser must answer 400, not choke.
    fc.tuple(fc.constant('X-Bad'), fc.constantFrom('\0', 'a\rb', '\x7f', 'é')),
  );

describe('the headless host, HTTP fuzz', () => {
  const settings = fuzzSettings(3_000);
  it(
    `answers ${settings.numRuns} random requests with an HTTP status and keeps serving another window`,
    async () => {
      const token = host.page.searchParams.get('token') ?? '';
      await fc.assert(
        fc.asyncProperty(
          method,
          path,
          query(token),
          fc.array(header(host.page, token), { maxLength: 6 }),
          fc.oneof({ weight: 5, arbitrary: fc.constant(new Uint8Array()) }, { weight: 1, arbitrary: rawBytes(64) }),
          fc.constantFrom('HTTP/1.1', 'HTTP/1.0', 'HTTP/2.0', 'HTTP/9', ''),
          async (m, p, q, headers, body, version) => {
            const head = `${m} ${p}${q} ${version}\r\n${headers.map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n`;
            const conn = rawConnect(host.page, Buffer.concat([Buffer.from(head, 'latin1'), body]));
            let status = await conn.response;
            if (/^HTTP\/1\.1 100 /.test(status)) {
              await conn.until((b) => b.includes('\r\n\r\n'), 'the final response after 100 Continue').catch(() => {});
              status = conn.received().toString('latin1');
            }
            expect(status, `${JSON.stringify(head)} got no HTTP answer`).toMatch(/^HTTP\/1\.[01] [1-5]\d\d /);
            const code = Number(status.slice(9, 12));
            expect(code, `${JSON.stringify(head)} failed inside the server`).not.toBe(500);
            if (code === 200 && m === 'GET') {
              await conn.until((b) => b.includes(INDEX), 'the window page').catch(() => {});
              expect(conn.received().toString('latin1'), 'a 200 serves the built window and nothing else').toContain(INDEX);
            }
            conn.socket.destroy();
            await conn.closed;
            await host.healthy();
          },
        ),
        settings,
      );
      await host.healthy();
    },
    fuzzTimeout(settings, 10),
  );

  it('refuses a WebSocket upgrade whose token cookie is a malformed escape, and goes on', async () => {
    const conn = rawUpgrade(host.page, { path: '/ws', headers: { Cookie: 'switchboard_token=%E0%A4%A' } });
    expect(await conn.response).toMatch(/^HTTP\/1\.1 401 /);
    await host.healthy();
  });

  it('answers a CONNECT request with 405 instead of dropping the connection', async () => {
    const conn = rawConnect(host.page, Buffer.from(`CONNECT ${host.page.host} HTTP/1.1\r\nHost: ${host.page.host}\r\n\r\n`));
    expect(await conn.response).toMatch(/^HTTP\/1\.1 405 /);
    await host.healthy();
  });
});
