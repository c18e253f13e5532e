import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SessionStateT } from '../../shared/contract';
import { FakeClock } from '../test-support/fake-clock';
import { fuzzSettings, fuzzTimeout } from '../test-support/fuzz';
import { tempDir } from '../test-support/temp-dir';
import { EventLog } from './event-log';
import { Store } from './store';

/**
 * Random sequences of what the host does to its database (create sessions, append transcript
 * events, record prompts, change state, archive, restore, delete, restart cleanly or after a
 * crash) against a small in-memory model, on a real SQLite file. After every step the model's
 * view and SQLite's must be the same: sessions, their rows, their gap-free transcripts, their
 * prompts.
 */

const STATES = ['CREATED', 'STARTING', 'ACTIVE', 'DETACHED', 'CLOSING', 'ENDED'] as const satisfies readonly SessionStateT[];
/** Session ids the steps pick from (some never created, some deleted and created again). */
const IDS = ['s1', 's2', 's3', 's4'];

type Op =
  | { op: 'create'; id: string }
  | { op: 'append'; id: string; kind: 'user_message' | 'agent_message' | 'turn_started' | 'turn_ended'; text: string; messageId: string | undefined }
  | { op: 'flush' }
  | { op: 'prompt'; id: string; clientMessageId: string; text: string }
  | { op: 'state'; id: string; from: SessionStateT; to: SessionStateT }
  | { op: 'title'; id: string; title: string }
  | { op: 'archive'; id: string; on: boolean }
  | { op: 'delete'; id: string }
  | { op: 'restart' }
  | { op: 'crash' };

const id = fc.constantFrom(...IDS);
const text = fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('', '\u0000', '\ud83d\ude00', "'; DROP TABLE events; --", 'é'.repeat(20)));
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 2, arbitrary: fc.record({ op: fc.constant('create' as const), id }) },
  {
    weight: 6,
    arbitrary: fc.record({
      op: fc.constant('append' as const),
      id,
      kind: fc.constantFrom('user_message' as const, 'agent_message' as const, 'agent_message' as const, 'turn_started' as const, 'turn_ended' as const),
      text,
      messageId: fc.constantFrom(undefined, 'm1', 'm2'),
    }),
  },
  { weight: 2, arbitrary: fc.constant({ op: 'flush' as const }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('prompt' as const), id, clientMessageId: fc.constantFrom('c1', 'c2', 'c3'), text }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('state' as const), id, from: fc.constantFrom(...STATES), to: fc.constantFrom(...STATES) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('title' as const), id, title: text }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('archive' as const), id, on: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('delete' as const), id }) },
  { weight: 1, arbitrary: fc.constant({ op: 'restart' as const }) },
  { weight: 1, arbitrary: fc.constant({ op: 'crash' as const }) },
);

interface ModelEvent {
  seq: number;
  kind: string;
  payload: Record<string, unknown>;
}

interface ModelSession {
  state: SessionStateT;
  title: string | null;
  firstPrompt: string | null;
  archivedAt: number | null;
  committed: ModelEvent[];
  /** Appended, not yet written (lost in a crash). */
  pending: ModelEvent[];
  prompts: Set<string>;
}

/** The host's database as the steps should leave it. */
class Model {
  readonly sessions = new Map<string, ModelSession>();

  lastSeq(s: ModelSession): number {
    return (s.pending.at(-1) ?? s.committed.at(-1))?.seq ?? 0;
  }

  /** What EventLog promises: a new gap-free seq, or the unwritten chunk of the same message grows. */
  append(s: ModelSession, kind: string, payload: Record<string, unknown>): number {
    const last = s.pending.at(-1);
    if (last && kind === 'agent_message' && last.kind === 'agent_message' && last.payload.messageId === payload.messageId) {
      last.payload = { ...last.payload, text: `${String(last.payload.text)}${String(payload.text)}` };
      return last.seq;
    }
    const event = { seq: this.lastSeq(s) + 1, kind, payload };
    s.pending.push(event);
    return event.seq;
  }

  flush(): void {
    for (const s of this.sessions.values()) s.committed.push(...s.pending.splice(0));
  }

  crash(): void {
    for (const s of this.sessions.values()) s.pending = [];
  }
}

/** The real thing: a Store on a SQLite file and the EventLog writing to it, flushed by hand. */
class Real {
  store: Store;
  log: EventLog;
  private ticks: (() => void)[] = [];

  constructor(
    readonly file: string,
    readonly clock: FakeClock,
  ) {
    [this.store, this.log] = this.open();
  }

  private open(): [Store, EventLog] {
    const store = Store.open(this.file);
    this.ticks = [];
    const log = new EventLog(store.db, this.clock, () => {}, (fn) => this.ticks.push(fn), (err) => {
      throw err;
    });
    return [store, log];
  }

  tick(): void {
    for (const fn of this.ticks.splice(0)) fn();
  }

  restart(): void {
    this.log.dispose();
    this.store.dispose();
    [this.store, this.log] = this.open();
  }

  /** The process died: nothing queued is written, the file is opened again as it was left. */
  crash(): void {
    this.ticks = [];
    this.store.dispose();
    [this.store, this.log] = this.open();
  }
}

function step(o: Op, model: Model, real: Real, now: number): void {
  const s = 'id' in o ? model.sessions.get(o.id) : undefined;
  switch (o.op) {
    case 'create': {
      if (s) {
        expect(() => real.store.sessions.insert({ id: o.id, agent_id: 'demo', cwd: '/work', state: 'CREATED' }, now), 'a second session with one id').toThrow();
        return;
      }
      real.store.sessions.insert({ id: o.id, agent_id: 'demo', cwd: '/work', state: 'CREATED' }, now);
      model.sessions.set(o.id, { state: 'CREATED', title: null, firstPrompt: null, archivedAt: null, committed: [], pending: [], prompts: new Set() });
      return;
    }
    case 'append': {
      const payload: Record<string, unknown> =
        o.kind === 'turn_ended'
          ? { stopReason: 'end_turn' }
          : o.kind === 'turn_started'
            ? {}
            : o.kind === 'agent_message' && o.messageId !== undefined
              ? { text: o.text, messageId: o.messageId }
              : { text: o.text };
      if (!s) {
        // The host never appends for a session it does not have; if it did, nothing may be written.
        expect(() => real.log.append(o.id, o.kind, payload as never), 'an append for a session that does not exist').toThrow();
        return;
      }
      expect(real.log.append(o.id, o.kind, payload as never)).toBe(model.append(s, o.kind, payload));
      return;
    }
    case 'flush':
      real.tick();
      model.flush();
      return;
    case 'prompt': {
      if (!s) return;
      expect(real.store.sessions.recordPrompt(o.id, o.clientMessageId, now), 'a prompt id is new once').toBe(!s.prompts.has(o.clientMessageId));
      s.prompts.add(o.clientMessageId);
      expect(real.store.sessions.setFirstPrompt(o.id, o.text, now), 'the first prompt is kept').toBe(s.firstPrompt === null);
      s.firstPrompt ??= o.text;
      return;
    }
    case 'state': {
      const changed = real.store.sessions.setState(o.id, o.from, o.to, undefined, now);
      expect(changed, 'a state change applies only from the state it names').toBe(s !== undefined && s.state === o.from);
      if (s && changed) s.state = o.to;
      return;
    }
    case 'title':
      real.store.sessions.setTitle(o.id, o.title, now);
      if (s) s.title = o.title;
      return;
    case 'archive':
      real.store.sessions.setArchived(o.id, o.on ? now : null, now);
      if (s) s.archivedAt = o.on ? now : null;
      return;
    case 'delete': {
      // As SessionService.delete does it: write what is queued, forget the counter, remove.
      real.log.flush();
      model.flush();
      real.log.forget(o.id);
      expect(real.store.sessions.remove(o.id)).toBe(s !== undefined);
      model.sessions.delete(o.id);
      return;
    }
    case 'restart':
      real.restart();
      model.flush();
      return;
    case 'crash':
      real.crash();
      model.crash();
      return;
  }
}

/** SQLite's view equals the model's: which sessions exist, their rows, transcripts and prompts. */
function compare(model: Model, real: Real): void {
  const rows = real.store.sessions.list();
  expect(rows.map((r) => r.id).sort()).toEqual([...model.sessions.keys()].sort());
  for (const [sid, s] of model.sessions) {
    const row = real.store.sessions.get(sid)!;
    expect({ state: row.state, title: row.title, firstPrompt: row.first_prompt, archivedAt: row.archived_at, lastSeq: row.last_seq }).toEqual({
      state: s.state,
      title: s.title,
      firstPrompt: s.firstPrompt,
      archivedAt: s.archivedAt,
      lastSeq: s.committed.at(-1)?.seq ?? 0,
    });
    const stored = real.log.events.pageAfter(sid, 0, 100_000).events.map((e) => ({ seq: e.seq, kind: e.kind, payload: e.payload }));
    expect(stored, `transcript of ${sid}`).toEqual(s.committed);
    const prompts = real.store.db.prepare('SELECT client_message_id AS c FROM prompts WHERE session_id = ? ORDER BY c').all(sid) as { c: string }[];
    expect(prompts.map((p) => p.c)).toEqual([...s.prompts].sort());
  }
  // Nothing is left behind for a session that is gone.
  for (const table of ['events', 'prompts']) {
    const orphans = real.store.db.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE session_id NOT IN (SELECT id FROM sessions)`).get() as { n: number };
    expect(orphans.n, `${table} rows of deleted sessions`).toBe(0);
  }
}

describe('the store against a model', () => {
  // About 30 steps each, every step compared: ~18,000 steps.
  const settings = fuzzSettings(600, true);
  it(
    `agrees with the model after every step of ${settings.numRuns} random command sequences, across restarts and crashes`,
    () => {
      fc.assert(
        fc.property(fc.array(op, { minLength: 1, maxLength: 60 }), (ops) => {
          const dir = tempDir('switchboard-store-fuzz-');
          const real = new Real(join(dir.path, 'switchboard.db'), new FakeClock());
          const model = new Model();
          try {
            ops.forEach((o, i) => {
              step(o, model, real, 1_000 + i);
              compare(model, real);
            });
            expect((real.store.db.pragma('integrity_check') as { integrity_check: string }[])[0]?.integrity_check).toBe('ok');
          } finally {
            real.store.dispose();
            dir.cleanup();
          }
        }),
        settings,
      );
    },
    fuzzTimeout(settings, 40),
  );
});
