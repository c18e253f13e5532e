import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFuzzHost, type FuzzHost } from '../test-support/fuzz-host';
import { fuzzSettings, fuzzTimeout, rawBytes } from '../test-support/fuzz';
import { closeFrame, encodeFrame, rawUpgrade, textFrame, type RawFrame } from '../test-support/raw-ws';

/**
 * The WebSocket protocol itself, from a raw TCP socket, against a real headless host: broken
 * handshakes, reserved bits, unmasked frames, unknown opcodes, fragments, invalid UTF-8, control
 * frames over 125 bytes and with bad close codes, lengths over the limit, resets mid-frame.
 * The `ws` library reports each protocol error as an `error` event; one without a listener
 * would end the process and every session in it.
 */

/** The headless host's `maxPayload` (ws-server.ts). */
const LIMIT = 16 * 1024 * 1024;

let host: FuzzHost;
beforeAll(async () => {
  host = await startFuzzHost();
});
afterAll(async () => {
  await host?.stop();
});

const request = (id: number): string => JSON.stringify({ id, command: 'host:info', payload: {} });

const invalidUtf8 = fc.constantFrom(
  Buffer.from([0xc3, 0x28]),
  Buffer.from([0xed, 0xa0, 0x80]), // a lone surrogate
  Buffer.from([0xf4, 0x90, 0x80, 0x80]), // beyond U+10FFFF
  Buffer.from([0xff, 0xfe]),
  Buffer.concat([Buffer.from('{"id":1,"command":"host:info","payload":{"x":"'), Buffer.from([0xc0, 0xaf]), Buffer.from('"}}')]),
);

const closePayload = fc
  .tuple(fc.oneof(fc.constantFrom(1000, 1001, 1003, 1005, 1006, 1015, 1016, 2999, 3000, 4999, 5000, 0, 65535), fc.integer({ min: 0, max: 65535 })), fc.uint8Array({ maxLength: 200 }))
  .map(([code, reason]) => {
    const b = Buffer.alloc(2 + reason.length);
    b.writeUInt16BE(code);
    b.set(reason, 2);
    return b;
  });

const payload = fc.oneof(
  { weight: 3, arbitrary: fc.nat(1_000_000).map((id) => Buffer.from(request(id))) },
  { weight: 3, arbitrary: rawBytes(300) },
  { weight: 2, arbitrary: invalidUtf8 },
  { weight: 2, arbitrary: closePayload },
  { weight: 1, arbitrary: fc.constantFrom(124, 125, 126, 127, 65535, 65536, 70_000).map((n) => Buffer.alloc(n, 0x61)) },
  { weight: 1, arbitrary: fc.constant(Buffer.alloc(1)) },
);

const frame: fc.Arbitrary<RawFrame> = fc.record({
  fin: fc.oneof({ weight: 4, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
  rsv: fc.oneof({ weight: 6, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 7 }) }),
  // Continuation, text, binary, close, ping, pong; now and then a reserved opcode.
  opcode: fc.oneof({ weight: 8, arbitrary: fc.constantFrom(0x0, 0x1, 0x2, 0x8, 0x9, 0xa) }, { weight: 1, arbitrary: fc.integer({ min: 0, max: 15 }) }),
  masked: fc.oneof({ weight: 8, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
  payload,
  // A length over the limit (or over 2^53) announced without sending the body.
  declaredLength: fc.oneof(
    { weight: 12, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: fc.constantFrom(LIMIT + 1, 2 ** 32, 2 ** 53, 2 ** 63) },
  ),
});

const handshake = fc.oneof(
  { weight: 12, arbitrary: fc.constant({}) },
  {
    weight: 1,
    arbitrary: fc.constantFrom<Record<string, string | null>>(
      { 'Sec-WebSocket-Key': null },
      { 'Sec-WebSocket-Key': 'not-a-key' },
      { 'Sec-WebSocket-Version': '8' },
      { 'Sec-WebSocket-Version': 'x' },
      { 'Sec-WebSocket-Extensions': 'permessage-deflate; client_max_window_bits=300' },
      { 'Sec-WebSocket-Protocol': 'a, , b' },
      { Upgrade: 'h2c' },
      { Connection: 'close' },
      { Origin: null },
    ),
  },
);

const ending = fc.constantFrom('close', 'reset', 'cut');

describe('the headless host, WebSocket protocol fuzz', () => {
  const settings = fuzzSettings(2_000);
  it(
    `survives ${settings.numRuns} random frame sequences and keeps serving another window`,
    async () => {
      await fc.assert(
        fc.asyncProperty(handshake, fc.array(frame, { minLength: 1, maxLength: 5 }), ending, async (headers, frames, end) => {
          const conn = rawUpgrade(host.page, { headers });
          const head = await conn.response;
          if (head.startsWith('HTTP/1.1 101')) {
            const bytes = frames.map(encodeFrame);
            // A frame announcing more than it carries leaves the server waiting for its body:
            // only a reset can end that connection.
            const lies = frames.some((f) => f.declaredLength !== undefined);
            if (end === 'cut') {
              const all = Buffer.concat(bytes);
              conn.socket.write(all.subarray(0, Math.max(1, all.length >> 1)));
              conn.socket.resetAndDestroy();
            } else {
              for (const b of bytes) conn.socket.write(b);
              if (end === 'close' && !lies) conn.socket.write(closeFrame());
              else conn.socket.resetAndDestroy();
            }
          } else {
            expect(head).toMatch(/^HTTP\/1\.1 [45]\d\d /);
            conn.socket.destroy();
          }
          await conn.closed;
          await host.healthy();
        }),
        settings,
      );
      await host.healthy();
    },
    fuzzTimeout(settings, 15),
  );

  it('answers a frame of exactly the size limit and closes one byte over it with 1009', async () => {
    const id = 7;
    const pad = LIMIT - request(id).length - ',"pad":""'.length;
    const atLimit = JSON.stringify({ id, command: 'host:info', payload: {} }).replace('"payload":{}', `"payload":{},"pad":"${'a'.repeat(pad)}"`);
    expect(Buffer.byteLength(atLimit)).toBe(LIMIT);
    const ok = rawUpgrade(host.page);
    expect(await ok.response).toMatch(/^HTTP\/1\.1 101/);
    ok.socket.write(textFrame(atLimit));
    // The extra key makes no difference: the request is well formed and gets its answer.
    await ok.until((bytes) => bytes.includes(`"id":${id}`), 'an answer to the frame at the limit');
    ok.socket.destroy();

    const over = rawUpgrade(host.page);
    expect(await over.response).toMatch(/^HTTP\/1\.1 101/);
    over.socket.write(textFrame(`${atLimit} `));
    await over.closed;
    // The server's close frame: opcode 8, code 1009 (message too big).
    expect(over.received().subarray(0, 4)).toEqual(Buffer.from([0x88, 0x02, 0x03, 0xf1]));
    await host.healthy();
  });

  it('closes a fragmented message whose parts add up to more than the limit', async () => {
    const conn = rawUpgrade(host.page);
    expect(await conn.response).toMatch(/^HTTP\/1\.1 101/);
    const half = Buffer.alloc(LIMIT / 2 + 1, 0x61);
    conn.socket.write(encodeFrame({ fin: false, rsv: 0, opcode: 0x1, masked: true, payload: half }));
    conn.socket.write(encodeFrame({ fin: true, rsv: 0, opcode: 0x0, masked: true, payload: half }));
    await conn.closed;
    expect(conn.received().subarray(0, 4)).toEqual(Buffer.from([0x88, 0x02, 0x03, 0xf1]));
    await host.healthy();
  });
});
