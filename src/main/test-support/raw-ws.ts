/**
 * The WebSocket protocol by hand (RFC 6455), for tests that must send what no well-behaved
 * client library would: reserved bits, unmasked or oversized frames, bad close codes, broken
 * handshakes, a connection reset halfway through a frame.
 */
import { randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';

export interface RawFrame {
  fin: boolean;
  /** The three reserved bits, 0–7 (RSV1 is 4). */
  rsv: number;
  opcode: number;
  masked: boolean;
  payload: Uint8Array;
  /** A length to put in the header instead of the payload's own (a lie, or a frame cut short). */
  declaredLength?: number;
}

/** One frame's bytes, with the shortest length encoding for its length. */
export function encodeFrame(f: RawFrame): Buffer {
  const length = f.declaredLength ?? f.payload.length;
  const head = [((f.fin ? 1 : 0) << 7) | ((f.rsv & 7) << 4) | (f.opcode & 0x0f)];
  const mask = f.masked ? 0x80 : 0;
  if (length < 126) head.push(mask | length);
  else if (length < 0x10000) head.push(mask | 126, length >> 8, length & 0xff);
  else {
    head.push(mask | 127);
    const big = Buffer.alloc(8);
    big.writeBigUInt64BE(BigInt(length));
    head.push(...big);
  }
  const key = f.masked ? randomBytes(4) : Buffer.alloc(0);
  const body = Buffer.from(f.payload);
  if (f.masked) for (let i = 0; i < body.length; i++) body[i]! ^= key[i & 3]!;
  return Buffer.concat([Buffer.from(head), key, body]);
}

/** A client text frame (masked, final) carrying `text`. */
export function textFrame(text: string): Buffer {
  return encodeFrame({ fin: true, rsv: 0, opcode: 0x1, masked: true, payload: Buffer.from(text) });
}

/** A client close frame with `code` (masked, final). */
export function closeFrame(code = 1000): Buffer {
  const payload = Buffer.alloc(2);
  payload.writeUInt16BE(code);
  return encodeFrame({ fin: true, rsv: 0, opcode: 0x8, masked: true, payload });
}

export interface HandshakeOptions {
  /** Extra or replacing request headers; `null` leaves a header out. */
  headers?: Record<string, string | null>;
  path?: string;
}

/** A raw TCP connection that has sent an upgrade request, with what the server answered. */
export interface RawConnection {
  socket: Socket;
  /** The status line and headers the server sent (empty if it closed first). */
  response: Promise<string>;
  /** Everything received after the response head. */
  received(): Buffer;
  /** Resolves when the TCP connection is closed (by either side). */
  closed: Promise<void>;
  /** Resolves once `check(received())` holds, re-checked as bytes arrive; rejects if the connection closes first. */
  until(check: (received: Buffer) => boolean, what: string): Promise<void>;
}

/** Connects to `page`'s host and sends an upgrade request for its `/ws` with its token and origin. */
export function rawUpgrade(page: URL, options: HandshakeOptions = {}): RawConnection {
  const token = page.searchParams.get('token') ?? '';
  const headers: Record<string, string | null> = {
    Host: page.host,
    Upgrade: 'websocket',
    Connection: 'Upgrade',
    'Sec-WebSocket-Key': randomBytes(16).toString('base64'),
    'Sec-WebSocket-Version': '13',
    Origin: `http://${page.host}`,
    ...options.headers,
  };
  const lines = Object.entries(headers)
    .filter((e): e is [string, string] => e[1] !== null)
    .map(([k, v]) => `${k}: ${v}`);
  const path = options.path ?? `/ws?token=${encodeURIComponent(token)}`;
  return rawConnect(page, Buffer.from(`GET ${path} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n`, 'latin1'));
}

/** A raw TCP connection to `page`'s host that has sent `request` as it is, byte for byte. */
export function rawConnect(page: URL, request: Uint8Array): RawConnection {
  const socket = connect(Number(page.port), page.hostname);
  socket.on('error', () => {}); // a reset by the server is an outcome, not a test failure
  socket.write(request);
  let buffered = Buffer.alloc(0);
  let headEnd = -1;
  let resolveResponse!: (head: string) => void;
  const response = new Promise<string>((r) => (resolveResponse = r));
  socket.on('data', (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk]);
    if (headEnd === -1) {
      const at = buffered.indexOf('\r\n\r\n');
      if (at !== -1) {
        headEnd = at + 4;
        resolveResponse(buffered.subarray(0, at).toString('latin1'));
      }
    }
  });
  const closed = new Promise<void>((r) => socket.once('close', () => r()));
  void closed.then(() => resolveResponse(headEnd === -1 ? buffered.toString('latin1') : buffered.subarray(0, headEnd).toString('latin1')));
  const received = (): Buffer => (headEnd === -1 ? Buffer.alloc(0) : buffered.subarray(headEnd));
  const until = (check: (bytes: Buffer) => boolean, what: string): Promise<void> =>
    new Promise((resolve, reject) => {
      const test = (): void => {
        if (!check(received())) return;
        socket.off('data', test);
        resolve();
      };
      socket.on('data', test);
      void closed.then(() => reject(new Error(`the connection closed before ${what}`)));
      test();
    });
  return { socket, response, received, closed, until };
}
