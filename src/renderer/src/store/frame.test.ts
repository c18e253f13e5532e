import { describe, expect, it } from 'vitest';
import type { Result, SwitchResultT } from '../../../shared/contract';
import { alwaysOpen } from '../api/connection';
import { createAppStore } from './app-store';
import { bindApi } from './bind-api';
import { nextTask, type FrameScheduler } from './frame';
import { ev, FakeApi, range, SID, testDeps, view } from '../test-support/fake-api';
import { buildRows } from '../test-support/rows';

const ok = <T,>(value: T): Result<T> => ({ ok: true, value });

/** Frames that run only when the test says so, like requestAnimationFrame under our control. */
function manualFrames(): FrameScheduler & { pending(): number; run(): void } {
  let queue: (() => void)[] = [];
  const schedule = Object.assign((run: () => void) => void queue.push(run), {
    pending: () => queue.length,
    run() {
      const due = queue;
      queue = [];
      for (const f of due) f();
    },
  });
  return schedule;
}

async function setup(newest: number) {
  const fake = new FakeApi();
  const frames = manualFrames();
  const store = createAppStore(testDeps(fake, { pageSize: 50, transcriptCap: 20, scheduleFrame: frames }));
  bindApi(store, fake.api, alwaysOpen);
  const answer: SwitchResultT = { session: view({ lastSeq: newest }), running: false, lastSeq: newest, pendingPermissions: [], pendingQuestions: [] };
  fake
    .handle('sessions:switch', () => ok(answer))
    .handle('transcript:page', () => ok({ events: range(1, newest), hasMore: false }));
  await store.getState().switchSession(SID);
  frames.run();
  return { fake, store, frames };
}

const rowsOf = (list: { count: number; at(i: number): unknown }) => Array.from({ length: list.count }, (_, i) => list.at(i));

describe('live events reach the view once per frame', () => {
  it('stores every event at once but regroups the rows once per frame, plus once at once for an answer’s first words', async () => {
    const { fake, store, frames } = await setup(2);
    const rowsBefore = store.getState().transcript.rows;
    let rowChanges = 0;
    store.subscribe((s, prev) => void (s.transcript.rows !== prev.transcript.rows && rowChanges++));

    // Answers (agent text after a user message) start at 6, 11, 16, …: only the first of them
    // in this frame is shown at once; the rest of the burst waits for the frame.
    for (let seq = 3; seq <= 40; seq++) fake.emit('session:event', seq % 5 === 0 ? ev(seq, 'user_message', { text: `u${seq}`, clientMessageId: `m${seq}` }) : ev(seq, 'agent_message', { text: `t${seq}` }));
    expect(store.getState().transcript.lastSeq).toBe(40);
    expect(rowChanges).toBe(1);
    expect(store.getState().transcript.rows).not.toBe(rowsBefore);
    expect(rowsOf(store.getState().transcript.rows).at(-1)).toMatchObject({ type: 'agent', text: 't6' });
    expect(frames.pending()).toBe(1);

    frames.run();
    expect(rowChanges).toBe(2);
    const t = store.getState().transcript;
    // Nothing dropped or reordered: the rows are those of the events, grouped from scratch.
    expect(rowsOf(t.rows)).toEqual(buildRows(t.events));
    expect(t.events.map((e) => e.seq)).toEqual(range(t.events[0]?.seq ?? 0, 40).map((e) => e.seq));
  });

  it('shows the first words of an answer at once and the chunks after them at the next frame', async () => {
    const { fake, store, frames } = await setup(2);
    fake.emit('session:event', ev(3, 'user_message', { text: 'question', clientMessageId: 'm3' }));
    expect(rowsOf(store.getState().transcript.rows)).toEqual(buildRows(range(1, 2)));
    frames.run();

    fake.emit('session:event', ev(4, 'agent_message', { text: 'First' }));
    expect(rowsOf(store.getState().transcript.rows).at(-1)).toMatchObject({ type: 'agent', text: 'First' });
    fake.emit('session:event', ev(5, 'agent_message', { text: ' words' }));
    expect(rowsOf(store.getState().transcript.rows).at(-1)).toMatchObject({ type: 'agent', text: 'First' });
    frames.run();
    expect(rowsOf(store.getState().transcript.rows).at(-1)).toMatchObject({ type: 'agent', text: 'First words' });
    // The next frame passed with nothing to do: the next answer is shown at once again.
    frames.run();
    fake.emit('session:event', ev(6, 'user_message', { text: 'again', clientMessageId: 'm6' }));
    fake.emit('session:event', ev(7, 'agent_message', { text: 'Second' }));
    expect(rowsOf(store.getState().transcript.rows).at(-1)).toMatchObject({ type: 'agent', text: 'Second' });
  });

  it('keeps a streaming bubble’s text whole across frames, chunk after chunk', async () => {
    const { fake, store, frames } = await setup(1);
    let expected = 't1';
    for (let seq = 2; seq <= 12; seq++) {
      fake.emit('session:event', ev(seq, 'agent_message', { text: `-${seq}` }));
      expected += `-${seq}`;
      if (seq % 3 === 0) frames.run();
    }
    frames.run();
    const rows = store.getState().transcript.rows;
    expect(rows.count).toBe(1);
    expect(rows.at(0)).toMatchObject({ type: 'agent', key: 'agent-1', text: expected });
  });

  it('replaces a prompt shown while it is sent by its stored row at once: no state of the store has neither', async () => {
    const { fake, store, frames } = await setup(2);
    fake.handle('prompt:send', () => new Promise(() => {}));
    void store.getState().sendPrompt('held');
    const id = [...store.getState().pendingSends.keys()][0]!;
    const shown = (s: ReturnType<typeof store.getState>) =>
      s.pendingSends.has(id) || rowsOf(s.transcript.rows).some((r) => (r as { type: string; text?: string }).type === 'user' && (r as { text: string }).text === 'held');
    const states: boolean[] = [];
    store.subscribe((s) => states.push(shown(s)));
    fake.emit('session:event', ev(3, 'user_message', { text: 'held', clientMessageId: id }));
    expect(store.getState().pendingSends.has(id)).toBe(false);
    expect(rowsOf(store.getState().transcript.rows).at(-1)).toMatchObject({ type: 'user', text: 'held' });
    expect(states.length).toBeGreaterThan(0);
    expect(states.every(Boolean)).toBe(true);
    frames.run();
    expect(rowsOf(store.getState().transcript.rows)).toEqual(buildRows(store.getState().transcript.events));
  });

  it('lets a non-live change (switching away) win over a frame still pending', async () => {
    const { fake, store, frames } = await setup(3);
    fake.emit('session:event', ev(4, 'user_message', { text: 'late' }));
    store.getState().beginTranscript('another');
    frames.run();
    expect(store.getState().transcript.rows.count).toBe(0);
  });
});

describe('the app’s scheduler: a task of its own', () => {
  it('runs each request once, in order, after the current task and its microtasks', async () => {
    const schedule = nextTask();
    const ran: string[] = [];
    schedule(() => ran.push('first'));
    schedule(() => ran.push('second'));
    await Promise.resolve();
    ran.push('microtask');
    expect(ran).toEqual(['microtask']);
    await new Promise((done) => setTimeout(done, 20));
    expect(ran).toEqual(['microtask', 'first', 'second']);
  });
});

describe('rows paced while a stream keeps them busy', () => {
  /** A clock and timers the test moves by hand. */
  function manualPace(minIntervalMs: number) {
    let now = 0;
    let timers: { at: number; run: () => void }[] = [];
    return {
      pace: { minIntervalMs, now: () => now, after: (ms: number, run: () => void) => void timers.push({ at: now + ms, run }) },
      advance(ms: number) {
        now += ms;
        const due = timers.filter((t) => t.at <= now);
        timers = timers.filter((t) => t.at > now);
        for (const t of due) t.run();
      },
    };
  }

  it('paints the first event after a quiet spell at the next frame, then at most once per interval', async () => {
    const fake = new FakeApi();
    const frames = manualFrames();
    const clock = manualPace(40);
    const store = createAppStore(testDeps(fake, { pageSize: 50, scheduleFrame: frames, rowsPace: clock.pace }));
    bindApi(store, fake.api, alwaysOpen);
    const answer: SwitchResultT = { session: view({ lastSeq: 0 }), running: false, lastSeq: 0, pendingPermissions: [], pendingQuestions: [] };
    fake.handle('sessions:switch', () => ok(answer)).handle('transcript:page', () => ok({ events: [], hasMore: false }));
    await store.getState().switchSession(SID);
    frames.run();
    const text = () => (store.getState().transcript.rows.at(0) as { text?: string } | undefined)?.text;

    clock.advance(1000);
    fake.emit('session:event', ev(1, 'agent_message', { text: 'a' }));
    frames.run();
    expect(text()).toBe('a');

    // 16 ms later, another chunk: its frame comes, but the rows wait until 40 ms after the last paint.
    clock.advance(16);
    fake.emit('session:event', ev(2, 'agent_message', { text: 'b' }));
    frames.run();
    expect(text()).toBe('a');
    fake.emit('session:event', ev(3, 'agent_message', { text: 'c' }));
    clock.advance(24);
    expect(frames.pending()).toBe(1);
    frames.run();
    expect(text()).toBe('abc');
    // Every event is in the store all along; only the rows wait.
    expect(store.getState().transcript.lastSeq).toBe(3);
  });
});
