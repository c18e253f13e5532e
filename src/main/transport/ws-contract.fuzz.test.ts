import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type WebSocket from 'ws';
import { ErrorCode } from '../../shared/errors';
import { contractRequest } from '../test-support/contract-fuzz';
import { startFuzzHost, type FuzzHost } from '../test-support/fuzz-host';
import { fuzzSettings, fuzzTimeout, hostileJsonText } from '../test-support/fuzz';
import { openHostSocket } from '../test-support/serve-process';

/**
 * The contract over the WebSocket of a real headless host: every command with random and
 * wrong payloads, unknown commands, and frames of hostile JSON (deep nesting, huge numbers,
 * duplicate and prototype keys, invalid UTF-8). Each well-formed request gets exactly one
 * answer with its id; no handler fails with an unexpected (`internal`) error; the host serves
 * another window after each case.
 */

let host: FuzzHost;
let workDir: string;
const sessionIds: string[] = [];
beforeAll(async () => {
  host = await startFuzzHost();
  workDir = join(host.dataDir, 'work');
  mkdirSync(workDir);
  for (let i = 0; i < 3; i++) sessionIds.push((await host.observer.call('sessions:create', { cwd: workDir })).id);
});
afterAll(async () => {
  await host?.stop();
});

interface Answer {
  ok: boolean;
  error?: { code: string; message: string };
}

/** A tab's socket that counts the answers to each request id. */
class CountingSocket {
  readonly answers = new Map<number, Answer[]>();
  closeCode: number | undefined;
  readonly closed: Promise<number>;
  private readonly waiters = new Set<() => void>();

  constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const frame = JSON.parse(String(data)) as { type: string; id?: number; result?: Answer };
      if (frame.type !== 'response' || frame.id === undefined) return;
      this.answers.set(frame.id, [...(this.answers.get(frame.id) ?? []), frame.result as Answer]);
      for (const w of this.waiters) w();
    });
    this.closed = new Promise((resolve) =>
      ws.once('close', (code) => {
        this.closeCode = code;
        for (const w of this.waiters) w();
        resolve(code);
      }),
    );
  }

  /** Resolves once each id has an answer, or the socket closed; rejects after `ms`. */
  answered(ids: readonly number[], ms = 30_000): Promise<void> {
    const done = (): boolean => this.closeCode !== undefined || ids.every((id) => this.answers.has(id));
    if (done()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error(`no answer within ${ms} ms to request(s) ${ids.filter((id) => !this.answers.has(id)).join(', ')}`));
      }, ms);
      const check = (): void => {
        if (!done()) return;
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve();
      };
      this.waiters.add(check);
    });
  }
}

let socket: CountingSocket | undefined;
/** The fuzzing tab's socket; a new one once the host closed the last (a refused frame). */
async function tab(): Promise<CountingSocket> {
  if (!socket || socket.closeCode !== undefined) socket = new CountingSocket(await openHostSocket(host.page));
  return socket;
}

let nextId = 1;
const errorCodes = new Set<string>(ErrorCode.options);

function expectOneGoodAnswer(s: CountingSocket, id: number, what: string): void {
  const answers = s.answers.get(id) ?? [];
  expect(answers, `${what}: exactly one answer`).toHaveLength(1);
  const answer = answers[0]!;
  if (answer.ok) return;
  expect(errorCodes.has(answer.error?.code ?? ''), `${what}: a contract error code, got ${answer.error?.code}`).toBe(true);
  expect(answer.error?.code, `${what}: a handler failed unexpectedly: ${answer.error?.message}`).not.toBe('internal');
}

describe('the headless host, contract fuzz', () => {
  // Most requests are well typed and reach a handler (sessions start, prompts run): ~15 ms each.
  const settings = fuzzSettings(450);
  it(
    `answers each of ${settings.numRuns} batches of random requests to every command exactly once`,
    async () => {
      const request = contractRequest({ sessionIds, workDir });
      await fc.assert(
        fc.asyncProperty(fc.array(request, { minLength: 1, maxLength: 4 }), async (batch) => {
          const s = await tab();
          const ids = batch.map(({ command, payload }) => {
            const id = nextId++;
            s.ws.send(JSON.stringify(payload === undefined ? { id, command } : { id, command, payload }));
            return id;
          });
          await s.answered(ids);
          expect(s.closeCode, 'the host kept the socket of well-formed requests open').toBeUndefined();
          batch.forEach((r, i) => expectOneGoodAnswer(s, ids[i]!, `${r.command} ${JSON.stringify(r.payload)?.slice(0, 300)}`));
          await host.healthy();
        }),
        settings,
      );
      // Nothing answered twice later on either.
      for (const [id, answers] of socket?.answers ?? []) expect(answers, `request ${id}`).toHaveLength(1);
      await host.healthy();
    },
    fuzzTimeout(settings, 40),
  );

  const jsonSettings = fuzzSettings(500);
  it(
    `answers or refuses each of ${jsonSettings.numRuns} frames of hostile JSON and goes on`,
    async () => {
      const commands = fc.constantFrom('host:info', 'sessions:list', 'settings:update', 'sessions:create', 'transcript:page');
      const frame = fc.oneof(
        fc.tuple(commands, hostileJsonText()).map(([command, json]) => ({ text: `{"id":ID,"command":"${command}","payload":${json}}` })),
        fc.constantFrom(
          { text: '{"id":ID,"command":"sessions:list","command":"host:info"}' },
          { text: '{"id":ID,"id":ID,"command":"host:info"}' },
          { text: '{"__proto__":{"id":ID},"command":"host:info"}' },
          { text: '{"id":ID,"command":"host:info","__proto__":{"payload":{}}}' },
          { text: '{"id":1e400,"command":"host:info"}' },
          { text: '{"id":ID.5,"command":"host:info"}' },
          { text: '{"id":"ID","command":"host:info"}' },
          { text: '{"id":ID,"command":{"toString":"host:info"}}' },
          { text: '[ID,"host:info"]' },
          { text: 'null' },
          { text: '"' },
        ),
        hostileJsonText().map((json) => ({ text: json })),
      );
      await fc.assert(
        fc.asyncProperty(frame, fc.boolean(), async ({ text }, asBinary) => {
          const s = await tab();
          const id = nextId++;
          const body = text.replaceAll('ID', String(id));
          s.ws.send(Buffer.from(body), { binary: asBinary });
          // What the request says, read as the host reads it (the last of duplicate keys wins).
          let parsed: unknown;
          try {
            parsed = JSON.parse(body);
          } catch {
            parsed = undefined;
          }
          const request = parsed as { id?: unknown; command?: unknown } | undefined;
          const wellFormed = typeof request === 'object' && request !== null && !Array.isArray(request) && Number.isSafeInteger(request.id) && typeof request.command === 'string';
          if (wellFormed) {
            await s.answered([request.id as number]);
            expect(s.closeCode, `${body.slice(0, 200)}: kept open`).toBeUndefined();
            expectOneGoodAnswer(s, request.id as number, body.slice(0, 200));
          } else {
            expect(await s.closed, `${body.slice(0, 200)}: refused as a malformed frame`).toBe(1003);
          }
          await host.healthy();
        }),
        jsonSettings,
      );
    },
    fuzzTimeout(jsonSettings, 40),
  );
});
