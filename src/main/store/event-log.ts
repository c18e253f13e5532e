import type { Db } from './db';
import { EventsRepo } from './events.repo';
import { SearchIndex } from './search-index';
import type { EventKind, PayloadOf, SessionEventT } from '../../shared/contract';
import type { Clock } from '../util/clock';
import type { Disposable } from '../util/lifecycle';

/** A stored event as this version reads it (an unreadable one is never written back). */
export type StoredEvent = Exclude<SessionEventT, { kind: 'unreadable' }>;
/** A coalesced chunk stops growing past this size, so one row never gets huge. */
const MAX_COALESCED_CHARS = 64 * 1024;

export type Schedule = (fn: () => void) => void;

/**
 * How long one scheduled write may run before it commits what it has and leaves the rest for
 * the next turn of the event loop (the host's loop must stay responsive during a flood: issue 21).
 * `now` is a monotonic clock in ms; tests pass one that moves on their command.
 */
export interface WriteSlice {
  ms: number;
  now: () => number;
}
/** Text indexed for search after which a write commits what it has (see `writeBatch`). */
const MAX_INDEXED_CHARS_PER_WRITE = 64 * 1024;
/** The host's slice: a few ms per write, so a burst is written over several turns. */
export const HOST_WRITE_SLICE: WriteSlice = { ms: 3, now: () => performance.now() };
/** Without a slice (tools, tests that step turns by hand) a scheduled write takes everything queued. */
const WHOLE_QUEUE: WriteSlice = { ms: Number.POSITIVE_INFINITY, now: () => 0 };

/**
 * What counts as activity (the sidebar's order, unread marks, the idle reaper): a prompt, the
 * agent's reply, a question for the person. Bookkeeping (titles, command lists, turn ends,
 * notices, the answers recorded at a restart) moves nothing.
 */
const ACTIVITY_KINDS: ReadonlySet<EventKind> = new Set<EventKind>([
  'user_message',
  'agent_message',
  'agent_thought',
  'tool_call',
  'tool_call_update',
  'plan',
  'permission_requested',
  'question_asked',
  'auth_required',
  'error',
]);

/**
 * The only writer of transcript events. Each append gets the session's next gap-free seq at
 * once; appends are batched per event-loop tick into one transaction, and subscribers hear
 * about events only after that transaction committed ("stored before sent"). A transaction
 * takes events, in order, for at most one `WriteSlice` and leaves the rest for the next turn,
 * so a burst never blocks the loop for long (an explicit `flush` writes everything). Consecutive
 * message chunks of one session coalesce into one event while still unflushed: fewer rows,
 * fewer frames, same order.
 */
export class EventLog implements Disposable {
  private readonly repo: EventsRepo;
  readonly search: SearchIndex;
  private readonly nextSeq = new Map<string, number>();
  private pending: StoredEvent[] = [];
  private readonly lastPending = new Map<string, StoredEvent>();
  private scheduled = false;
  /** Writes events from the front of `events` until the deadline passes; returns how many. */
  private readonly writeBatch: (events: StoredEvent[], deadline: number) => number;
  private closed = false;
  /** Sessions to forget once their queued events are written. */
  private readonly forgotten = new Set<string>();
  /** Copies still queued: a live chunk never joins one (the copy stays as it was stored). */
  private readonly copies = new WeakSet<StoredEvent>();
  /** Payloads this log made by joining chunks: the next chunk joins in place (`joinChunk`). */
  private readonly ownPayloads = new WeakSet<object>();
  /** Activity queued but not yet written, by session: a view read meanwhile still sees it. */
  private readonly pendingActivity = new Map<string, number>();
  /** Activity no event stands for (`touch`), by session: written with the next write. */
  private touches = new Map<string, number>();

  constructor(
    db: Db,
    private readonly clock: Clock,
    private readonly onDidCommit: (events: readonly SessionEventT[]) => void,
    private readonly schedule: Schedule = (fn) => setImmediate(fn),
    private readonly onWriteError: (err: unknown, lost: number) => void = (err, lost) =>
      console.error(`[event-log] writing ${lost} event(s) failed`, err),
    private readonly slice: WriteSlice = WHOLE_QUEUE,
  ) {
    this.repo = new EventsRepo(db);
    this.search = new SearchIndex(db);
    // A message a previous run was still writing when it stopped has ended: index it whole.
    db.transaction(() => this.search.recover())();
    this.writeBatch = db.transaction((events: StoredEvent[], deadline: number) => {
      const last = new Map<string, { seq: number; at: number }>();
      let written = 0;
      const indexedBefore = this.search.charsWritten;
      for (const e of events) {
        // At least one event per write, so a backlog always moves. A sliced write that indexed
        // a few parts of long messages commits them: FTS5 builds their segment at the commit, and
        // ten parts of 32 KB took 4–5 ms there where two took 0.5 ms.
        if (written > 0 && deadline < Infinity && (this.slice.now() >= deadline || this.search.charsWritten - indexedBefore >= MAX_INDEXED_CHARS_PER_WRITE)) break;
        written++;
        this.repo.insert(e);
        // In the same transaction: search never finds an event that was not stored, nor misses one that was.
        this.search.add(e);
        const at = ACTIVITY_KINDS.has(e.kind) ? e.at : (last.get(e.sessionId)?.at ?? 0);
        last.set(e.sessionId, { seq: e.seq, at });
      }
      for (const [sessionId, { seq, at }] of last) this.repo.setLastSeq(sessionId, seq, at);
      for (const [sessionId, at] of this.touches) this.repo.touch(sessionId, at);
      return written;
    });
  }

  /**
   * Queues an event for `sessionId`; returns its seq (shared with the chunk it joined). `at`:
   * when it came, for a caller that has read the clock for it already (an agent's update: one
   * read an event, where a flood is hundreds of thousands of events).
   */
  append<K extends EventKind>(sessionId: string, kind: K, payload: PayloadOf<K>, at = this.clock.now()): number {
    // `payload` is PayloadOf<K> for this very `kind`: the signature is what keeps them paired.
    return this.queue({ sessionId, seq: 0, kind, payload, at } as StoredEvent, true);
  }

  /**
   * Queues a copy of a stored event (a fork, an import) for `sessionId`: it keeps its kind,
   * payload and time, gets the session's next seq, and is never joined with another.
   */
  copy(sessionId: string, event: StoredEvent): number {
    return this.queue({ ...event, sessionId, seq: 0 }, false);
  }

  private queue(event: StoredEvent, join: boolean): number {
    if (this.closed) throw new Error('event log is closed');
    const { sessionId, kind } = event;
    const last = this.lastPending.get(sessionId);
    if (join && last && !this.copies.has(last) && joinChunk(last, event, this.ownPayloads)) return last.seq;
    if (!join) this.copies.add(event);
    event.seq = this.allocate(sessionId);
    if (ACTIVITY_KINDS.has(kind)) this.pendingActivity.set(sessionId, Math.max(event.at, this.pendingActivity.get(sessionId) ?? 0));
    this.pending.push(event);
    this.lastPending.set(sessionId, event);
    this.scheduleWrite();
    return event.seq;
  }

  private scheduleWrite(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    this.schedule(() => {
      this.scheduled = false;
      // One time slice per turn; what is left waits for the next turn, behind whatever else
      // (a read, a timer, a command) is waiting for the loop.
      try {
        this.write(this.slice.now() + this.slice.ms);
      } finally {
        // Also when what follows a commit threw: the rest of the queue still gets its turn (a
        // failed write empties the queue).
        if (this.pending.length > 0) this.scheduleWrite();
      }
    });
  }

  /**
   * The session was active at `at` though no event says so (its turn ended): written with the
   * next write (one commit with the turn's events, not one of its own), seen meanwhile by views
   * through `pendingActivityAt`. Once closed, written at once.
   */
  touch(sessionId: string, at: number): void {
    if (this.closed) return this.repo.touch(sessionId, at);
    this.touches.set(sessionId, Math.max(at, this.touches.get(sessionId) ?? 0));
    this.pendingActivity.set(sessionId, Math.max(at, this.pendingActivity.get(sessionId) ?? 0));
    this.scheduleWrite();
  }

  /** When the session's newest activity still waiting to be written happened, if any. */
  pendingActivityAt(sessionId: string): number | undefined {
    return this.pendingActivity.get(sessionId);
  }

  /** Writes everything queued in one transaction, then tells subscribers. */
  flush(): void {
    this.write(Number.POSITIVE_INFINITY);
  }

  /**
   * Writes queued events, oldest first, in one transaction that stops taking more once
   * `deadline` passes, then tells subscribers about those. Events still queued keep their seqs
   * and can still be joined. Returns false if the write failed.
   */
  private write(deadline: number): boolean {
    if (this.pending.length === 0 && this.touches.size === 0) return true;
    let written: number;
    const searchBefore = this.search.snapshot();
    try {
      written = this.writeBatch(this.pending, deadline);
    } catch (err) {
      // The index's memory goes back with the transaction (`SearchIndex.snapshot`).
      this.search.restore(searchBefore);
      // Nothing of the transaction was stored. What is queued behind it is dropped with it (its
      // seqs follow the lost ones). Counters restart from the store, so no window ever sees a
      // gap; the failure is reported, not thrown out of setImmediate.
      const lost = this.pending;
      this.pending = [];
      this.lastPending.clear();
      this.pendingActivity.clear();
      this.touches.clear();
      for (const e of lost) this.nextSeq.delete(e.sessionId);
      this.onWriteError(err, lost.length);
      return false;
    }
    let batch: StoredEvent[];
    if (written === this.pending.length) {
      batch = this.pending;
      this.pending = [];
      this.lastPending.clear();
      this.pendingActivity.clear();
    } else {
      batch = this.pending.slice(0, written);
      this.pending = this.pending.slice(written);
      for (const e of batch) {
        // A stored event is never joined again; a session with nothing left queued has no pending activity.
        if (this.lastPending.get(e.sessionId) !== e) continue;
        this.lastPending.delete(e.sessionId);
        this.pendingActivity.delete(e.sessionId);
      }
      for (const sessionId of this.touches.keys()) if (!this.lastPending.has(sessionId)) this.pendingActivity.delete(sessionId);
    }
    this.touches = new Map();
    for (const id of this.forgotten) {
      if (this.lastPending.has(id)) continue;
      this.nextSeq.delete(id);
      this.forgotten.delete(id);
    }
    if (batch.length > 0) this.onDidCommit(batch);
    return true;
  }

  /** Last seq allocated for a session (committed or queued). */
  lastSeq(sessionId: string): number {
    return (this.nextSeq.get(sessionId) ?? (this.repo.lastSeq(sessionId) ?? 0) + 1) - 1;
  }

  /** Last seq that is committed and readable from the store. */
  committedSeq(sessionId: string): number {
    return this.repo.lastSeq(sessionId) ?? 0;
  }

  /** Drops the in-memory counter of a session that is no longer live (the row keeps it). */
  forget(sessionId: string): void {
    this.search.forget(sessionId);
    this.repo.forgetNewest(sessionId);
    if (this.lastPending.has(sessionId)) this.forgotten.add(sessionId);
    else this.nextSeq.delete(sessionId);
  }

  /** Writes what is queued and indexes what waits for search; appends are refused after. Idempotent. */
  dispose(): void {
    this.flush();
    try {
      // What waits for the index is indexed now, so the next start has little to do.
      this.search.indexWaiting();
    } catch {
      // The next start indexes it (`SearchIndex.recover`).
    }
    this.closed = true;
  }

  get events(): EventsRepo {
    return this.repo;
  }

  private allocate(sessionId: string): number {
    let next = this.nextSeq.get(sessionId);
    if (next === undefined) {
      const stored = this.repo.lastSeq(sessionId);
      if (stored === undefined) throw new Error(`unknown session ${sessionId}`);
      next = stored + 1;
    }
    this.nextSeq.set(sessionId, next + 1);
    return next;
  }
}

/**
 * Appends `next`'s text to `last` when both are plain chunks of the same kind and message
 * (nothing unmodelled riding on either, so nothing is merged away) and `last` is still small.
 * The first join copies `last`'s payload (the caller's object is never changed) into `own`;
 * later joins add to that copy in place (a copy per chunk was 7% of the host's time in a flood).
 */
function joinChunk(last: StoredEvent, next: StoredEvent, own: WeakSet<object>): boolean {
  if (
    (last.kind === 'agent_message' && next.kind === 'agent_message') ||
    (last.kind === 'agent_thought' && next.kind === 'agent_thought')
  ) {
    const { text, messageId, extra } = last.payload;
    if (extra || next.payload.extra || messageId !== next.payload.messageId || text.length >= MAX_COALESCED_CHARS) return false;
    if (own.has(last.payload)) {
      (last.payload as { text: string }).text = text + next.payload.text;
    } else {
      last.payload = { ...last.payload, text: text + next.payload.text };
      own.add(last.payload);
    }
    return true;
  }
  return false;
}
