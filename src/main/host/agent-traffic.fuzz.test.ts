import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import * as acp from '@agentclientprotocol/sdk';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { fuzzSettings, fuzzTimeout, rawBytes } from '../test-support/fuzz';
import { startHarness, type Harness, type TestWindow } from '../test-support/host-harness';
import { PuppetServer, type PuppetLink } from '../test-support/puppet-link';

/**
 * What an agent process may send, from a puppet agent whose every byte the test writes:
 * updates for sessions it was never given and after a close, invalid updates, answers to
 * requests never made, a request for every client method (`fs/*`, `terminal/*`,
 * `session/request_permission`, unknown and `_` extension methods) with right and wrong
 * params and repeated ids, floods of permission requests, garbage bytes and invalid UTF-8.
 * After each case: every request the agent sent has as many answers as it was sent (JSON-RPC
 * errors where the method or params are wrong), every permission request ended, nothing was
 * stored for a session the agent does not own, the session still streams, and another
 * window is still served.
 */

/** Every method a client may be asked, from the SDK's own table (terminal/* included). */
function leaves(table: object): string[] {
  return Object.values(table).flatMap((v) => (typeof v === 'string' ? [v] : leaves(v as object)));
}
const CLIENT_METHODS = leaves(acp.methods.client).filter((m) => m !== acp.methods.client.session.update);
const UNKNOWN_METHODS = ['_switchboard/fuzz', '_x', 'unknown/method', 'session/new', 'initialize', ''];
/** A file outside every session folder: no fs request may create it. */
const OUTSIDE = `/tmp/switchboard-fuzz-outside-${process.pid}.txt`;

let server: PuppetServer;
let h: Harness;
let w: TestWindow;
let other: TestWindow;
let workDir: string;
const created: string[] = [];

beforeAll(async () => {
  // The SDK reports answers to requests it never made on console.error; here they are on purpose.
  vi.spyOn(console, 'error').mockImplementation(() => {});
  server = await PuppetServer.start();
  h = await startHarness({ agents: [server.agent('puppet')] });
  workDir = join(h.dataDir, 'work');
  mkdirSync(workDir);
  w = h.window('watcher');
  other = h.window('other');
  // The window answers every permission request it is shown, as a person would (eventually).
  w.emitter.on('event', (event: string, payload: { requestId: string; sessionId: string; options: { optionId: string }[] }) => {
    if (event !== 'permission:requested') return;
    const optionId = payload.options[0]?.optionId ?? 'allow';
    w.call('permissions:answer', { requestId: payload.requestId, sessionId: payload.sessionId, optionId }).catch(() => {});
  });
});
afterAll(async () => {
  await h?.cleanup();
  server?.close();
  vi.restoreAllMocks();
});

interface Live {
  sessionId: string;
  acpId: string;
  link: PuppetLink;
  closed: boolean;
}
let live: Live | undefined;
/** A session of the same agent that stays open, so a case's close keeps the agent process. */
let anchor: Live | undefined;

/** The session the puppet serves; a new one when the last was closed or its agent went away. */
async function liveSession(): Promise<Live> {
  if (live && !live.closed && !live.link.isClosed) return live;
  anchor = anchor && !anchor.link.isClosed ? anchor : await newSession();
  live = await newSession();
  return live;
}

async function newSession(): Promise<Live> {
  const view = await w.call('sessions:create', { agentId: 'puppet', cwd: workDir });
  created.push(view.id);
  const mark = w.mark();
  await w.call('sessions:switch', { sessionId: view.id });
  await w.waitForState(view.id, 'ACTIVE', undefined, mark);
  const link = await server.link();
  return { sessionId: view.id, acpId: link.sessions.at(-1)!, link, closed: false };
}

type Params = 'own' | 'foreign' | 'wrong' | 'none';
type AgentOp =
  | { op: 'update'; to: 'own' | 'foreign'; foreignId: string }
  | { op: 'bad-update'; params: unknown }
  | { op: 'orphan-answer'; id: unknown; error: boolean }
  | { op: 'request'; method: string; params: Params; wrong: unknown; path: string; repeatId: boolean }
  | { op: 'permission-flood'; count: number }
  | { op: 'garbage'; bytes: Uint8Array }
  | { op: 'big-update'; kb: number }
  | { op: 'close-then-update' };

const agentOp: fc.Arbitrary<AgentOp> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ op: fc.constant('update' as const), to: fc.constantFrom('own' as const, 'foreign' as const), foreignId: fc.oneof(fc.constantFrom('ghost', '', 'acp-999', 'ACP-1'), fc.string({ maxLength: 8 })) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('bad-update' as const), params: fc.jsonValue({ maxDepth: 3 }) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('orphan-answer' as const), id: fc.oneof(fc.nat(), fc.string({ maxLength: 4 }), fc.constant(null)), error: fc.boolean() }) },
  {
    weight: 6,
    arbitrary: fc.record({
      op: fc.constant('request' as const),
      method: fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...CLIENT_METHODS) }, { weight: 1, arbitrary: fc.constantFrom(...UNKNOWN_METHODS) }),
      params: fc.constantFrom<Params>('own', 'own', 'foreign', 'wrong', 'none'),
      wrong: fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constantFrom([], 'x', 0, null, { sessionId: 42 }, { sessionId: 'acp-1', path: 7 })),
      path: fc.constantFrom('fuzz.txt', 'sub/fuzz.txt', '../outside.txt', OUTSIDE, '', '.', 'a\u0000b', 'x'.repeat(300)),
      repeatId: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('permission-flood' as const), count: fc.integer({ min: 1, max: 30 }) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('garbage' as const), bytes: rawBytes(200) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('big-update' as const), kb: fc.constantFrom(64, 1024) }) },
  { weight: 1, arbitrary: fc.constant({ op: 'close-then-update' as const }) },
);

let nextId = 1_000;
let marker = 0;

/** Params a window-facing handler would accept, for every client method at once. */
function plausibleParams(sessionId: string, path: string): Record<string, unknown> {
  return {
    sessionId,
    path: path.startsWith('/') ? path : join(workDir, path),
    content: 'fuzzed',
    line: 1,
    limit: 5,
    toolCall: { toolCallId: `tc-${nextId}`, title: 'Fuzzed tool call', kind: 'edit' },
    options: [
      { optionId: 'allow', name: 'Allow', kind: 'allow_once' },
      { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
    ],
    command: '/nonexistent/switchboard-fuzz-command',
    args: [],
    env: [],
    cwd: workDir,
    terminalId: 'term-1',
    outputByteLimit: 1024,
  };
}

function updateFor(sessionId: string, text: string): object {
  return { jsonrpc: '2.0', method: acp.methods.client.session.update, params: { sessionId, update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } } } };
}

/** What a case expects of the host's answers to the requests it sent. */
interface Sent {
  id: number;
  method: string;
  params: Params;
}

describe('the host under random agent traffic', () => {
  // ~80 ms a case (each waits for its answers and a marker to be stored and sent).
  const settings = fuzzSettings(200);
  it(
    `survives ${settings.numRuns} random sequences of agent messages, answering every request and storing nothing foreign`,
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(agentOp, { minLength: 1, maxLength: 8 }), async (ops) => {
          const s = await liveSession();
          // Where each session of this agent's stored transcript stood before the case.
          const watched = [...new Set([s.sessionId, anchor!.sessionId])];
          const before = new Map(watched.map((id) => [id, h.host.eventLog.lastSeq(id)]));
          const sent: Sent[] = [];
          let closed = false;
          for (const o of ops) {
            if (closed) break;
            switch (o.op) {
              case 'update':
                s.link.send(updateFor(o.to === 'own' ? s.acpId : o.foreignId === s.acpId ? 'ghost' : o.foreignId, o.to === 'own' ? 'own text ' : 'FOREIGN text '));
                break;
              case 'bad-update':
                s.link.send({ jsonrpc: '2.0', method: acp.methods.client.session.update, params: o.params });
                break;
              case 'orphan-answer':
                s.link.send(o.error ? { jsonrpc: '2.0', id: o.id, error: { code: -32000, message: 'no such request' } } : { jsonrpc: '2.0', id: o.id, result: {} });
                break;
              case 'request': {
                const id = o.repeatId && sent.length > 0 ? sent.at(-1)!.id : nextId++;
                const params = o.params === 'own' ? plausibleParams(s.acpId, o.path) : o.params === 'foreign' ? plausibleParams('ghost', o.path) : o.params === 'wrong' ? o.wrong : undefined;
                s.link.send(params === undefined ? { jsonrpc: '2.0', id, method: o.method } : { jsonrpc: '2.0', id, method: o.method, params });
                sent.push({ id, method: o.method, params: o.params });
                break;
              }
              case 'permission-flood':
                for (let i = 0; i < o.count; i++) {
                  const id = nextId++;
                  s.link.send({ jsonrpc: '2.0', id, method: acp.methods.client.session.requestPermission, params: plausibleParams(i % 5 === 4 ? 'ghost' : s.acpId, 'fuzz.txt') });
                  sent.push({ id, method: acp.methods.client.session.requestPermission, params: i % 5 === 4 ? 'foreign' : 'own' });
                }
                break;
              case 'garbage':
                s.link.send(o.bytes.filter((b) => b !== 0x0a));
                break;
              case 'big-update':
                s.link.send(updateFor(s.acpId, 'b'.repeat(o.kb * 1024)));
                break;
              case 'close-then-update': {
                await w.call('sessions:close', { sessionId: s.sessionId });
                s.link.send(updateFor(s.acpId, 'AFTER CLOSE text '));
                s.closed = closed = true;
                break;
              }
            }
          }

          // Every request has as many answers as it was sent (a repeated id: one per copy).
          const copies = new Map<number, number>();
          for (const r of sent) copies.set(r.id, (copies.get(r.id) ?? 0) + 1);
          const answered = (): boolean => [...copies].every(([id, n]) => s.link.answersTo(id).length >= n);
          // A close cancels what was pending: the answers still come (the anchor keeps the agent up).
          await s.link.until(answered, `answers to ${sent.length} request(s)`);
          for (const [id, n] of copies) expect(s.link.answersTo(id), `answers to request ${id}`).toHaveLength(n);
          // What each answer says, where the id was used once (a repeated id's answers can't be told apart).
          for (const r of sent.filter((x) => copies.get(x.id) === 1)) {
            const answers = s.link.answersTo(r.id);
            if (UNKNOWN_METHODS.includes(r.method) && answers.length > 0) expect(answers[0]!.error?.code, `${r.method}: method not found`).toBe(-32601);
            if (r.params === 'foreign' && answers.length > 0) expect(answers.every((a) => a.error !== undefined || (a.result as { outcome?: { outcome?: string } })?.outcome?.outcome === 'cancelled'), `${r.method} for a session the agent does not own is refused`).toBe(true);
          }

          // The session still streams: a marker sent now arrives (after everything before it).
          if (!closed) {
            const text = `marker-${++marker}`;
            s.link.send(updateFor(s.acpId, text));
            await w.waitForText(s.sessionId, text);
            expect(h.host.service.view(h.host.service.row(s.sessionId)).pendingPermissions, 'every permission request ended').toBe(0);
          }
          // Nothing stored for a session the agent does not own, or after a close: foreign traffic
          // could only land in a session of this agent, so this case's events of those are read.
          h.host.eventLog.flush();
          for (const id of watched) {
            const events = h.host.eventLog.events.pageAfter(id, before.get(id)!, 100_000).events;
            const text = events.filter((e) => e.kind === 'agent_message').map((e) => String(e.payload.text)).join('');
            expect(text).not.toContain('FOREIGN');
            expect(text).not.toContain('AFTER CLOSE');
          }
          expect((await other.call('sessions:list', {})).length, 'no session appeared from agent traffic').toBe(created.length);
          expect(existsSync(OUTSIDE) || existsSync(join(h.dataDir, 'outside.txt')), 'no file written outside the session folder').toBe(false);
        }),
        settings,
      );
      await other.call('host:info', {});
    },
    fuzzTimeout(settings, 60),
  );

  it('answers a line that is not JSON with a JSON-RPC parse error and goes on', async () => {
    const s = await liveSession();
    const before = s.link.messages.length;
    s.link.send(Buffer.from('{"jsonrpc":"2.0","id":77,"method":'));
    await s.link.until(() => s.link.messages.slice(before).some((m) => m.id === null && m.error?.code === -32700), 'a parse error answer');
    const text = `marker-${++marker}`;
    s.link.send(updateFor(s.acpId, text));
    await w.waitForText(s.sessionId, text);
  });

  it('survives a line over the message size limit; the host keeps serving', async () => {
    const s = await liveSession();
    s.link.send(updateFor(s.acpId, `HUGE ${'h'.repeat(acp.DEFAULT_MAX_MESSAGE_BYTES)}`));
    // Whatever becomes of this agent, the host and its other windows go on.
    await other.call('host:info', {});
    const next = await liveSession();
    const text = `marker-${++marker}`;
    next.link.send(updateFor(next.acpId, text));
    await w.waitForText(next.sessionId, text);
    for (const id of created) expect(h.stored(id).some((e) => e.kind === 'agent_message' && String(e.payload.text).includes('HUGE'))).toBe(false);
  });
});
