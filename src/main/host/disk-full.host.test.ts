import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionEventT, StorageStatusT } from '../../shared/contract';
import { liveSession, startHarness, type Harness, type TestWindow } from '../test-support/host-harness';
import { demoAgents, isLive, waitUntil } from '../test-support/processes';

/**
 * Issue 13: the disk fills up, or the data folder stops being writable, while sessions run.
 * Disk full is SQLite's own SQLITE_FULL (the file may not grow: `max_page_count`), an
 * unwritable folder its SQLITE_READONLY (`query_only`): the host's real write paths fail the
 * way they do on a full or read-only disk, without root or a special file system.
 */

let h: Harness | undefined;
afterEach(async () => {
  if (h) freeDisk(h);
  await h?.cleanup();
  h = undefined;
});

function fillDisk(h: Harness): void {
  const pages = h.host.store.db.pragma('page_count', { simple: true }) as number;
  h.host.store.db.pragma(`max_page_count = ${pages}`);
}

function freeDisk(h: Harness): void {
  h.host.store.db.pragma('max_page_count = 1073741823');
  h.host.store.db.pragma('query_only = OFF');
}

function storageEvents(w: TestWindow): StorageStatusT[] {
  return w.events.filter((e) => e.event === 'host:storage').map((e) => e.payload as StorageStatusT);
}

/** Seqs stored for a session, read through a second connection, and the integrity check. */
function stored(h: Harness, sessionId: string): { seqs: number[]; lastSeq: number; integrity: unknown } {
  const db = new Database(h.database, { readonly: true });
  try {
    return {
      seqs: db.prepare<[string], { seq: number }>(`SELECT seq FROM events WHERE session_id = ? ORDER BY seq`).all(sessionId).map((r) => r.seq),
      lastSeq: (db.prepare(`SELECT last_seq FROM sessions WHERE id = ?`).pluck().get(sessionId) as number) ?? -1,
      integrity: db.pragma('integrity_check', { simple: true }),
    };
  } finally {
    db.close();
  }
}

const gapFree = (seqs: number[]): boolean => seqs.every((s, i) => s === i + 1);

describe('disk full while sessions stream', () => {
  it('tells every window clearly, keeps serving reads and the other session, damages nothing, and goes on once space returns', async () => {
    h = await startHarness();
    // The start-up check and the daily backups (tested in datadir/) start in a worker 15 s in,
    // holding the host's checkpoints while they copy: on a loaded machine that lands in the
    // middle of this test's flood. What is tested here is the host's own writes meeting a full
    // disk, so they are stopped.
    h.host.storageCare.dispose();
    const w = h.window();
    const streaming = await liveSession(h, w);
    const other = await liveSession(h, w);
    await w.prompt(other, 'written before the disk filled');
    const before = stored(h, other);

    fillDisk(h);
    const mark = w.mark();
    // The flood's events cannot be stored: the batch fails as a whole and every window hears why.
    await h.host.dispatch(w.id, 'prompt:send', { sessionId: streaming, clientMessageId: randomUUID(), text: '/flood 5000' });
    const notice = await w.waitFor('host:storage', (s) => !s.ok, 25_000, mark);
    expect(notice).toEqual({ ok: false, problem: 'disk_full', message: expect.stringMatching(/^The disk holding .*switchboard\.db is full.*Free some space; saving resumes by itself\.$/) });
    // A window that connects now learns it at once.
    const late = h.window('late');
    expect(storageEvents(late)).toEqual([notice]);

    // Reads go on: the other session's transcript and the session list.
    const page = await w.call('transcript:page', { sessionId: other });
    expect(page.events.map((e) => e.seq)).toEqual(before.seqs);
    expect((await w.call('sessions:list', {})).map((s) => s.id).sort()).toEqual([streaming, other].sort());

    // Nothing stored was damaged, and no window was sent an event that is not stored.
    const during = stored(h, streaming);
    expect(during.integrity).toBe('ok');
    expect(gapFree(during.seqs)).toBe(true);
    const sent = w.sessionEvents(streaming).map((e) => e.seq);
    expect(sent.every((seq) => during.seqs.includes(seq))).toBe(true);
    // Its end could not be stored either; the window hears it from the session's view.
    await waitUntil(() => !h!.host.service.isBusy(streaming), 'the flood turn to end');
    // Pushed before the host's next frame, or once its current work is done (view-push.ts).
    const lastView = () => w.events.findLast((e) => e.event === 'session:updated' && (e.payload as { id: string }).id === streaming)?.payload as { running: boolean } | undefined;
    await waitUntil(() => lastView()?.running === false, 'the view of the ended turn');

    // Space returns: the next writes succeed, windows hear it, seqs go on without a gap.
    freeDisk(h);
    const answered = await w.prompt(streaming, 'are you there?');
    expect((answered.payload as { stopReason: string }).stopReason).toBe('end_turn');
    // Every window's last word on saving is that it works. Not necessarily said after `after`:
    // the disk is "full" by page count, and a small event (the flood turn's end) can still fit in
    // a page's free room, commit, and say so before the space returns (seen under load in CI).
    await w.until(() => storageEvents(w).at(-1)?.ok === true, 'saving works again', 15_000);
    expect(storageEvents(w).slice(storageEvents(w).indexOf(notice))).toContainEqual({ ok: true });
    expect(storageEvents(late).at(-1)).toEqual({ ok: true });
    await w.prompt(other, 'and you?');
    for (const id of [streaming, other]) {
      const now = stored(h, id);
      expect(now.integrity).toBe('ok');
      expect(gapFree(now.seqs)).toBe(true);
      expect(now.lastSeq).toBe(now.seqs.length);
      // What each window holds is exactly what is stored, in order.
      const seen = w.sessionEvents(id).map((e: SessionEventT) => e.seq);
      expect([...new Set(seen)].sort((a, b) => a - b).every((seq) => now.seqs.includes(seq))).toBe(true);
    }
    expect(stored(h, other).seqs.slice(0, before.seqs.length)).toEqual(before.seqs);
  }, 60_000);

  it('an unwritable data folder mid-run is reported as such, and writing resumes when it is writable again', async () => {
    h = await startHarness();
    const w = h.window();
    const id = await liveSession(h, w);
    await w.prompt(id, 'written while writable');
    const before = stored(h, id).seqs;
    h.host.store.db.pragma('query_only = ON');
    const mark = w.mark();
    const send = await h.host.dispatch(w.id, 'prompt:send', { sessionId: id, clientMessageId: randomUUID(), text: 'lost?' });
    if (send.ok) throw new Error('prompt:send succeeded on a read-only database');
    expect(send.error.code).toBe('storage_failed');
    expect(send.error.message).toMatch(/^Switchboard cannot write to .*switchboard\.db \(SQLITE_READONLY\)\. Check that its folder is writable/);
    expect(await w.waitFor('host:storage', (s) => !s.ok, 5_000, mark)).toMatchObject({ ok: false, problem: 'unwritable' });
    expect((await w.call('transcript:page', { sessionId: id })).events.map((e) => e.seq)).toEqual(before);

    freeDisk(h);
    const answered = await w.prompt(id, 'writable again');
    expect((answered.payload as { stopReason: string }).stopReason).toBe('end_turn');
    expect(storageEvents(w).at(-1)).toEqual({ ok: true });
    expect(gapFree(stored(h, id).seqs)).toBe(true);
  });

  it('commands that must write say why; an agent that dies meanwhile does not take the host down; all answer once writable', async () => {
    h = await startHarness();
    const w = h.window();
    const a = await liveSession(h, w);
    const b = await liveSession(h, w);
    h.host.store.db.pragma('query_only = ON');
    for (const [command, payload] of [
      ['sessions:create', { cwd: h.dataDir }],
      ['sessions:close', { sessionId: b }],
      ['sessions:detach', { sessionId: a }],
    ] as const) {
      const result = await h.host.dispatch(w.id, command, payload);
      expect(result.ok ? 'ok' : result.error.code, command).toBe('storage_failed');
    }
    // The agent dies while its exit cannot be recorded: handled, not an unhandled rejection.
    const agents = demoAgents(h.dataDir);
    expect(agents.length).toBeGreaterThan(0);
    for (const p of agents) process.kill(p.pid, 'SIGKILL');
    await waitUntil(() => agents.every((p) => !isLive(p.pid)) && h!.host.pool.brokerOf(a) === undefined, 'the agent’s exit to be handled');

    freeDisk(h);
    for (const id of [a, b]) {
      // The window may have stopped watching (the refused detach took it off in memory): it switches back.
      await w.call('sessions:switch', { sessionId: id });
      const answered = await w.prompt(id, 'after the crash');
      expect((answered.payload as { stopReason: string }).stopReason).toBe('end_turn');
      const now = stored(h, id);
      expect(now.integrity).toBe('ok');
      expect(gapFree(now.seqs)).toBe(true);
    }
  });
});
