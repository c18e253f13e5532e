/**
 * `node --import tsx bench/contract-check.ts`: what checking answers and events against the
 * contract costs the window (src/renderer/src/api/contract-check.ts), measured through that
 * very layer with zod jitless, as the window's CSP makes it run.
 *
 * A `session:event` stream shaped like a busy turn (nine in ten events are message chunks, the
 * rest tool calls with output and diffs, a plan, usage), one `sessions:switch` answer and a
 * 200-event `transcript:page`; each is also timed through `JSON.parse` of its frame, the work
 * the WebSocket transport does anyway, for scale. Prints µs per message and what a 200 events/s
 * stream costs per second and per 60 Hz frame.
 */
// First: zod's configuration must precede every schema the imports below create (as in main.tsx).
import '../src/renderer/src/lib/zod-config';
import { performance } from 'node:perf_hooks';
import { checkApi } from '../src/renderer/src/api/contract-check';
import type { Api, Result } from '../src/shared/contract';
import { sampleEvents, sampleSwitch } from '../src/renderer/src/test-support/contract-samples';
import { fmt, median } from './lib/stats';

const STREAM_RATE = 200;
const FRAME_MS = 1000 / 60;

/** A host that answers from memory and pushes events on request: only the check costs anything. */
function memoryHost(answers: Record<string, unknown>) {
  const listeners = new Map<string, (payload: unknown) => void>();
  const raw: Record<string, unknown> = {
    on: (event: string, l: (payload: unknown) => void) => {
      listeners.set(event, l);
      return () => listeners.delete(event);
    },
    onReconnect: () => () => {},
  };
  for (const [name, value] of Object.entries(answers)) raw[name] = () => Promise.resolve({ ok: true, value });
  return { raw: raw as unknown as Api, push: (event: string, payload: unknown) => listeners.get(event)?.(payload) };
}

/** µs per call of `fn` over `items`: the median of `rounds` passes after a warm-up pass. */
function perItem<T>(items: readonly T[], rounds: number, fn: (item: T) => void): number {
  const pass = (): number => {
    const start = performance.now();
    for (const item of items) fn(item);
    return ((performance.now() - start) * 1000) / items.length;
  };
  for (let i = 0; i < 3; i++) pass();
  return median(Array.from({ length: rounds }, pass));
}

async function perAnswer(call: () => Promise<Result<unknown>>, reps: number): Promise<number> {
  const once = async (): Promise<number> => {
    const start = performance.now();
    const res = await call();
    if (!res.ok) throw new Error(`the sample answer was refused: ${res.error.message}`);
    return (performance.now() - start) * 1000;
  };
  for (let i = 0; i < 20; i++) await once();
  const all: number[] = [];
  for (let i = 0; i < reps; i++) all.push(await once());
  return median(all);
}

const events = sampleEvents(10_000);
const chunks = events.filter((e) => e.kind === 'agent_message' || e.kind === 'agent_thought');
const toolEvents = events.filter((e) => e.kind === 'tool_call' || e.kind === 'tool_call_update');
const page = { events: events.slice(0, 200), hasMore: true };
const switched = sampleSwitch();

const host = memoryHost({ 'sessions:switch': switched, 'transcript:page': page });
const { api } = checkApi(host.raw, (e) => {
  throw new Error(`a sample broke the contract: ${e.message}`);
});
let delivered = 0;
api.on('session:event', () => void delivered++);

const frames = (list: readonly unknown[]) => list.map((payload) => JSON.stringify({ type: 'event', event: 'session:event', payload }));
const push = (e: unknown) => host.push('session:event', e);
const rows: [string, number, number][] = [
  ['session:event, the stream (mixed)', perItem(events, 15, push), perItem(frames(events), 15, (f) => JSON.parse(f))],
  ['session:event, a message chunk', perItem(chunks, 15, push), perItem(frames(chunks), 15, (f) => JSON.parse(f))],
  ['session:event, a tool call or update', perItem(toolEvents, 15, push), perItem(frames(toolEvents), 15, (f) => JSON.parse(f))],
  [
    'sessions:switch answer',
    await perAnswer(() => api['sessions:switch']({ sessionId: switched.session.id }), 500),
    perItem([JSON.stringify({ type: 'response', id: 1, result: { ok: true, value: switched } })], 500, (f) => JSON.parse(f)),
  ],
  [
    'transcript:page answer, 200 events',
    await perAnswer(() => api['transcript:page']({ sessionId: switched.session.id }), 100),
    perItem([JSON.stringify({ type: 'response', id: 1, result: { ok: true, value: page } })], 100, (f) => JSON.parse(f)),
  ],
];
if (delivered === 0) throw new Error('no event reached the listener');

console.log(`Contract check in the window (zod jitless), ${process.version} on ${process.arch}; median µs per message`);
console.log('| message | check µs | JSON.parse of its frame µs |');
console.log('| --- | ---: | ---: |');
for (const [name, check, json] of rows) console.log(`| ${name} | ${fmt(check)} | ${fmt(json)} |`);
const perEvent = rows[0]![1];
const perSecondMs = (perEvent * STREAM_RATE) / 1000;
const perFrameMs = (perEvent * STREAM_RATE) / 60 / 1000;
console.log(
  `\nA ${STREAM_RATE} events/s stream: ${fmt(perSecondMs)} ms of checking per second (${fmt(perSecondMs / 10)}% of one core), ` +
    `${fmt(perFrameMs * 1000)} µs per 60 Hz frame = ${fmt((perFrameMs / FRAME_MS) * 100)}% of the ${fmt(FRAME_MS)} ms frame budget.`,
);
