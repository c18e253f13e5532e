import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Result, SwitchResultT } from '../../../shared/contract';
import { alwaysOpen } from '../api/connection';
import { createAppStore } from './app-store';
import { bindApi } from './bind-api';
import { nextAnimationFrame, type FrameScheduler } from './frame';
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

  it('lets a non-live change (switching away) win over a frame still pending', async () => {
    const { fake, store, frames } = await setup(3);
    fake.emit('session:event', ev(4, 'user_message', { text: 'late' }));
    store.getState().beginTranscript('another');
    frames.run();
    expect(store.getState().transcript.rows.count).toBe(0);
  });
});

describe('the app’s frame scheduler', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  function stubFrames() {
    const frames = new Map<number, () => void>();
    let next = 1;
    vi.stubGlobal('requestAnimationFrame', (f: () => void) => (frames.set(next, f), next++));
    vi.stubGlobal('cancelAnimationFrame', (id: number) => frames.delete(id));
    return () => {
      const due = [...frames.values()];
      frames.clear();
      for (const f of due) f();
    };
  }

  it('runs once, at the next animation frame', () => {
    vi.useFakeTimers();
    const paint = stubFrames();
    let runs = 0;
    nextAnimationFrame(() => runs++);
    expect(runs).toBe(0);
    paint();
    vi.advanceTimersByTime(1000);
    expect(runs).toBe(1);
  });

  it('still runs in a hidden window, where no frame ever comes', () => {
    vi.useFakeTimers();
    const paint = stubFrames();
    let runs = 0;
    nextAnimationFrame(() => runs++);
    vi.advanceTimersByTime(1000);
    expect(runs).toBe(1);
    paint();
    expect(runs).toBe(1);
  });
});
