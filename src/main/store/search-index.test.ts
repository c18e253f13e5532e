import { afterEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { EventLog } from './event-log';
import { ftsQuery } from './search-query';
import { PART_CHARS, PART_CHUNKS, WAITING_CHARS, WAITING_ROWS, snippetParts } from './search-index';
import { FakeClock } from '../test-support/fake-clock';
import { tempStore } from '../test-support/temp-store';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

function setup(sessions = ['a', 'b', 'c']) {
  const store = tempStore(cleanups);
  const clock = new FakeClock();
  const ticks: (() => void)[] = [];
  const errors: unknown[] = [];
  const log = new EventLog(store.db, clock, () => {}, (fn) => ticks.push(fn), (err) => errors.push(err));
  const runTick = () => ticks.splice(0).forEach((fn) => fn());
  for (const id of sessions) store.sessions.insert({ id, agent_id: 'demo', cwd: '/', state: 'CREATED' }, clock.now());
  const count = (table: string) => (store.db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
  const search = (q: string, limit = 20) => log.search.search(q, limit);
  return { store, log, clock, runTick, errors, count, search };
}

const hitTexts = (parts: { text: string; hit?: boolean }[]) => parts.filter((p) => p.hit).map((p) => p.text.toLowerCase());

describe('transcript search index', () => {
  it('indexes prompts, answers, thoughts and tool titles, not tool output or turn ends', () => {
    const { log, runTick, search } = setup();
    log.append('a', 'user_message', { text: 'please fix the flaky walrus test' });
    log.append('a', 'agent_thought', { text: 'the walrus fixture leaks' });
    log.append('a', 'tool_call', {
      toolCallId: 't1',
      title: 'Run walrus suite',
      status: 'pending',
      content: [{ type: 'content', content: { type: 'text', text: 'walrus output line' } }],
    });
    log.append('a', 'agent_message', { text: 'Fixed the walrus test.' });
    log.append('a', 'turn_ended', { stopReason: 'end_turn' });
    runTick();
    const [group] = search('walrus').matches;
    expect(group?.sessionId).toBe('a');
    // Newest first: the answer (seq 4), the tool title (3), the thought (2); the prompt is beyond the 3 shown.
    expect(group?.hits.map((h) => [h.seq, h.kind])).toEqual([
      [4, 'agent'],
      [3, 'tool'],
      [2, 'thought'],
    ]);
    expect(group?.more).toBe(true);
    expect(search('output').matches).toEqual([]);
  });

  it('indexes a streamed message once, with the text its coalesced chunks made', () => {
    const { log, runTick, search, count } = setup();
    log.append('a', 'agent_message', { text: 'a long answer about hippo' });
    log.append('a', 'agent_message', { text: 'potamus habitats' });
    runTick();
    // Stored; its text waits for the index until a search, its end or `SearchTails`.
    expect(count('search_index')).toBe(0);
    expect(search('hippopotamus').matches[0]?.hits[0]?.seq).toBe(1);
    expect(count('search_index')).toBe(1);
  });

  it('indexes a message streamed over many stored chunks whole once it ends: the snippet is the message, a phrase across chunks is found', () => {
    const { log, runTick, search, count } = setup();
    // One event-loop turn per chunk: three stored rows, as a real agent's stream makes them.
    for (const chunk of ['Echo:', ' hello', ' there']) {
      log.append('a', 'agent_message', { text: chunk });
      runTick();
    }
    // While it is being written its stored chunks are found, as one row from its first.
    expect(search('there').matches[0]?.hits.map((h) => h.seq)).toEqual([1]);
    log.append('a', 'turn_ended', { stopReason: 'end_turn' });
    runTick();
    expect(count('search_index')).toBe(1);
    expect(count('search_open')).toBe(0);
    const hit = search('echo').matches[0]?.hits[0];
    expect(hit?.seq).toBe(1);
    expect(hit?.snippet.map((p) => p.text).join('')).toBe('Echo: hello there');
    expect(search('"Echo: hello there"').matches[0]?.hits.map((h) => h.seq)).toEqual([1]);
    expect(search('"hello there"').matches).toHaveLength(1);
  });

  it('keeps one message across bookkeeping events between its chunks, and ends it at the next thing shown', () => {
    const { log, runTick, search, count } = setup();
    log.append('a', 'agent_thought', { text: 'thinking about ' });
    runTick();
    log.append('a', 'agent_thought', { text: 'zebras' });
    runTick();
    log.append('a', 'agent_message', { text: 'Striped ' });
    runTick();
    log.append('a', 'available_commands', { commands: [] });
    runTick();
    log.append('a', 'agent_message', { text: 'horses are zebras.' });
    runTick();
    log.append('a', 'tool_call', { toolCallId: 't1', title: 'Look up zebras', status: 'pending' });
    runTick();
    log.append('a', 'agent_message', { text: 'Done with zebras' });
    runTick();
    // The thought (1-2) whole, the message (3-5) whole and the tool title wait for a batch; the
    // newest message, still open, waits for a search.
    expect(count('search_waiting')).toBe(3);
    expect(count('search_index')).toBe(0);
    expect(search('"thinking about zebras"').matches[0]?.hits.map((h) => [h.seq, h.kind])).toEqual([[1, 'thought']]);
    expect(search('"striped horses"').matches[0]?.hits.map((h) => [h.seq, h.kind])).toEqual([[3, 'agent']]);
    // Newest first: the open message, the tool call, the message it ended (the thought is the 4th hit).
    expect(search('zebras').matches[0]?.hits.map((h) => h.seq)).toEqual([7, 6, 3]);
  });

  it('indexes a long message in whole parts of about PART_CHARS as it streams, so no end re-indexes more than one part', () => {
    const { store, log, runTick, search } = setup();
    const chunk = (i: number) => `word${i} `.padEnd(1_000, '.') + '\n';
    // 200 stored chunks of 1,000 characters: about 200 KB, six whole parts and an open one.
    for (let i = 0; i < 200; i++) {
      log.append('a', 'agent_message', { text: chunk(i) });
      runTick();
    }
    const docs = () => store.db.prepare(`SELECT seq FROM search_docs WHERE session_id = 'a' ORDER BY seq`).pluck().all();
    const waiting = () => store.db.prepare(`SELECT seq, last_seq FROM search_waiting WHERE session_id = 'a' ORDER BY seq`).raw().all();
    const open = () => store.db.prepare(`SELECT first_seq, last_seq FROM search_open`).get() as { first_seq: number; last_seq: number } | undefined;
    const per = Math.ceil(PART_CHARS / 1_000);
    const wholeParts = Math.floor(200 / per);
    const firstOpen = wholeParts * per + 1;
    // A part ends with the chunk that brings it to PART_CHARS, and waits to be indexed whole
    // (these parts, 192 KB, were indexed in the writes that brought what waited to
    // WAITING_CHARS, the last one still waits); the chunks after it wait in the open message.
    const parts = Array.from({ length: wholeParts }, (_, k) => k * per + 1);
    const batched = Math.floor((wholeParts * PART_CHARS) / WAITING_CHARS) * (WAITING_CHARS / PART_CHARS);
    expect(docs()).toEqual(parts.slice(0, batched));
    expect(waiting()).toEqual(parts.slice(batched).map((seq) => [seq, seq + per - 1]));
    expect(open()).toEqual({ first_seq: firstOpen, last_seq: 200 });
    // A search indexes what waits first, the open message's chunks as one row, and finds them.
    expect(search('word199').matches[0]?.hits.map((h) => h.seq)).toEqual([firstOpen]);
    expect(docs()).toEqual([...parts, firstOpen]);
    expect(waiting()).toEqual([]);
    // Ending the message indexes only the open part whole (with the next batch).
    log.append('a', 'turn_ended', { stopReason: 'end_turn' });
    log.append('a', 'user_message', { text: 'next' });
    runTick();
    expect(waiting()).toEqual([
      [firstOpen, 200],
      [202, 202],
    ]);
    log.search.indexWaiting();
    expect(docs()).toEqual([...parts, firstOpen, 202]);
    // Every word is found, in the part that holds it; a phrase within a part is found.
    for (const i of [0, per - 1, per, 199]) expect(search(`word${i}`).matches[0]?.hits.map((h) => h.seq), `word${i}`).toEqual([Math.floor(i / per) * per + 1]);
    expect(search(`"word${per + 1}"`).matches).toHaveLength(1);
  });

  it('ends a part at PART_CHUNKS stored chunks too, however short they are', () => {
    const { store, log, runTick, search } = setup();
    // Distinct message ids keep every chunk a row of its own (nothing joins them).
    for (let i = 0; i < 2 * PART_CHUNKS + 10; i++) {
      log.append('a', 'agent_message', { text: `w${i} `, messageId: `m${i}` });
      runTick();
    }
    const rows = store.db.prepare(`SELECT COUNT(*) AS n FROM search_waiting WHERE session_id = 'a'`).get() as { n: number };
    // Two whole parts wait for a batch; the ten chunks of the open one wait in it.
    expect(rows.n).toBe(2);
    expect(search(`w${PART_CHUNKS + 5}`).matches[0]?.hits.map((h) => h.seq)).toEqual([PART_CHUNKS + 1]);
    expect(search(`w${2 * PART_CHUNKS + 5}`).matches[0]?.hits.map((h) => h.seq)).toEqual([2 * PART_CHUNKS + 1]);
  });

  it('tokenizes a streamed text once: chunks nobody searched for are indexed only as the message', () => {
    const { store, log, runTick, search } = setup();
    store.db.exec(`CREATE TEMP TABLE index_writes (op TEXT)`);
    store.db.exec(`CREATE TEMP TRIGGER docs_in AFTER INSERT ON main.search_docs BEGIN INSERT INTO index_writes VALUES ('insert'); END`);
    store.db.exec(`CREATE TEMP TRIGGER docs_out AFTER DELETE ON main.search_docs BEGIN INSERT INTO index_writes VALUES ('delete'); END`);
    const writes = () => store.db.prepare(`SELECT op FROM index_writes`).pluck().all();
    for (const word of ['many', 'small', 'chunks', 'of', 'one', 'gnu']) {
      log.append('a', 'agent_message', { text: `${word} ` });
      runTick();
    }
    log.append('a', 'turn_ended', { stopReason: 'end_turn' });
    log.append('a', 'user_message', { text: 'thanks' });
    runTick();
    expect(writes()).toEqual([]);
    expect(search('"chunks of one gnu"').matches[0]?.hits.map((h) => h.seq)).toEqual([1]);
    // One row for the message, one for the prompt, both once the search asked; nothing indexed and deleted again.
    expect(writes()).toEqual(['insert', 'insert']);
    // Searched for while it streams, it is indexed then, and replaced once it ends.
    store.db.exec(`DELETE FROM index_writes`);
    log.append('b', 'agent_message', { text: 'half ' });
    runTick();
    expect(search('half').matches[0]?.sessionId).toBe('b');
    log.append('b', 'agent_message', { text: 'done' });
    log.append('b', 'turn_ended', { stopReason: 'end_turn' });
    log.append('b', 'user_message', { text: 'next' });
    runTick();
    expect(search('"half done"').matches[0]?.hits.map((h) => h.seq)).toEqual([1]);
    expect(writes()).toEqual(['insert', 'delete', 'insert', 'insert']);
  });

  it('indexes the chunks that wait when the log is disposed, so a clean stop leaves the index whole', () => {
    const { store, log, runTick, count } = setup();
    log.append('a', 'agent_message', { text: 'left ' });
    runTick();
    log.append('a', 'agent_message', { text: 'open' });
    log.dispose();
    expect(count('search_index')).toBe(1);
    // The next start has the one row for the open message already and keeps it.
    const next = new EventLog(store.db, new FakeClock(), () => {}, () => {});
    expect(count('search_open')).toBe(0);
    expect(next.search.search('"left open"', 5).matches[0]?.hits.map((h) => h.seq)).toEqual([1]);
    expect(count('search_index')).toBe(1);
  });

  it('indexes whole, at the next start, a message a stopped host left being written', () => {
    const { store, log, runTick, count } = setup();
    log.append('a', 'agent_message', { text: 'half of a ' });
    runTick();
    log.append('a', 'agent_message', { text: 'sentence' });
    runTick();
    expect(count('search_open')).toBe(1);
    // No turn end was stored (the host was killed): the next host's event log ends the message.
    const next = new EventLog(store.db, new FakeClock(), () => {}, () => {});
    expect(count('search_open')).toBe(0);
    expect(next.search.search('"a sentence"', 5).matches[0]?.hits.map((h) => h.seq)).toEqual([1]);
  });

  it('forgets the message a deleted session was writing', () => {
    const { store, log, runTick, count } = setup();
    log.append('b', 'agent_message', { text: 'never finished' });
    runTick();
    store.db.prepare(`DELETE FROM sessions WHERE id = 'b'`).run();
    expect(count('search_open')).toBe(0);
    expect(count('search_index')).toBe(0);
  });

  it('stores an event and its index row together: a failed batch leaves neither', () => {
    const { store, log, runTick, errors, count, search } = setup();
    store.db.exec(`CREATE TRIGGER fail_third BEFORE INSERT ON events WHEN NEW.seq = 3 BEGIN SELECT RAISE(ABORT, 'disk full'); END`);
    log.append('a', 'user_message', { text: 'zebra one' });
    log.append('a', 'turn_started', {});
    log.append('a', 'agent_message', { text: 'zebra two' });
    runTick();
    expect(errors).toHaveLength(1);
    expect(count('events')).toBe(0);
    expect(count('search_index')).toBe(0);
    expect(count('search_docs')).toBe(0);
    expect(search('zebra').matches).toEqual([]);
  });

  it('keeps what waits for the index as it was when a write fails, so no chunk is missed and no row is misplaced', () => {
    const { store, log, runTick, errors, search } = setup();
    log.append('a', 'agent_message', { text: 'waiting walrus ' });
    runTick();
    log.append('a', 'agent_message', { text: 'chunks' });
    runTick();
    // The next write ends the message (a tool call, indexed) and then fails on the event after
    // it: nothing of it is stored.
    store.db.exec(`CREATE TRIGGER fail_notice BEFORE INSERT ON events WHEN NEW.kind = 'notice' BEGIN SELECT RAISE(ABORT, 'disk full'); END`);
    log.append('a', 'tool_call', { toolCallId: 't1', title: 'Look', status: 'pending' });
    log.append('a', 'notice', { text: 'fails' });
    runTick();
    expect(errors).toHaveLength(1);
    // The two stored chunks still wait, and a search finds them.
    expect(search('walrus').matches[0]?.hits.map((h) => h.seq)).toEqual([1]);

    // A message's first chunk in a failed write: its seq is taken again by what follows.
    log.append('b', 'agent_message', { text: 'lost okapi' });
    log.append('b', 'notice', { text: 'fails' });
    runTick();
    expect(errors).toHaveLength(2);
    store.db.exec(`DROP TRIGGER fail_notice`);
    log.append('b', 'tool_call', { toolCallId: 't2', title: 'Run tests', status: 'pending' });
    log.append('b', 'agent_message', { text: 'zebra answer' });
    runTick();
    // The message's row is under its own seq (2), not under the tool call's (1).
    expect(search('zebra').matches[0]?.hits.map((h) => [h.seq, h.kind])).toEqual([[2, 'agent']]);
    expect(search('okapi').matches).toEqual([]);
    expect(search('"run tests"').matches[0]?.hits.map((h) => [h.seq, h.kind])).toEqual([[1, 'tool']]);
  });

  it('loses no event when the index refuses its rows: they wait, and are indexed once it takes them', () => {
    const { store, log, runTick, errors, count, search } = setup();
    store.db.exec(`CREATE TRIGGER fail_index BEFORE INSERT ON search_docs BEGIN SELECT RAISE(ABORT, 'index broken'); END`);
    log.append('a', 'user_message', { text: 'okapi' });
    runTick();
    // Enough rows at once to index a batch inside the write: it fails, the write does not.
    for (let i = 0; i < WAITING_ROWS; i++) log.append('b', 'user_message', { text: `zebra ${i}` });
    runTick();
    expect(errors).toEqual([]);
    expect(count('events')).toBe(1 + WAITING_ROWS);
    expect(count('search_waiting')).toBe(1 + WAITING_ROWS);
    expect(search('okapi').matches).toEqual([]);
    expect(() => log.search.indexWaiting()).toThrow(/index broken/);
    expect(count('search_waiting')).toBe(1 + WAITING_ROWS);
    store.db.exec(`DROP TRIGGER fail_index`);
    expect(search('okapi').matches[0]?.hits.map((h) => h.seq)).toEqual([1]);
    expect(search('zebra').matches[0]?.hits.map((h) => h.seq)).toEqual([WAITING_ROWS, WAITING_ROWS - 1, WAITING_ROWS - 2]);
    expect(count('search_waiting')).toBe(0);
    expect(count('search_docs')).toBe(1 + WAITING_ROWS);
  });

  it('indexes, at the next start, what a stopped host left waiting, in the order it was stored', async () => {
    const { store, log, runTick, count, clock } = setup();
    // Session c's prompt first: its row must rank below a's newer ones, whatever the ids' order.
    log.append('c', 'user_message', { text: 'an older quokka' });
    runTick();
    await clock.advance(1_000);
    log.append('a', 'user_message', { text: 'the quokka question' });
    log.append('a', 'agent_message', { text: 'a quokka ' });
    runTick();
    log.append('a', 'agent_message', { text: 'answer' });
    log.append('a', 'tool_call', { toolCallId: 't1', title: 'Weigh the quokka', status: 'pending' });
    log.append('a', 'agent_message', { text: 'still open' });
    runTick();
    // c's prompt; a's prompt, the message (2–3) the tool call ended, the tool call; the open message (5).
    expect(count('search_waiting')).toBe(4);
    expect(count('search_open')).toBe(1);
    expect(count('search_index')).toBe(0);
    // Killed before the batch was indexed: the next host's event log indexes it, once.
    const next = new EventLog(store.db, new FakeClock(), () => {}, () => {});
    expect(count('search_waiting')).toBe(0);
    expect(count('search_open')).toBe(0);
    expect(count('search_index')).toBe(5);
    expect(next.search.search('quokka', 5).matches.map((m) => m.sessionId)).toEqual(['a', 'c']);
    expect(next.search.search('quokka', 5).matches[0]?.hits.map((h) => [h.seq, h.kind])).toEqual([
      [4, 'tool'],
      [2, 'agent'],
      [1, 'user'],
    ]);
    expect(next.search.search('"quokka answer"', 5).matches[0]?.hits.map((h) => h.seq)).toEqual([2]);
    expect(next.search.search('"still open"', 5).matches[0]?.hits.map((h) => h.seq)).toEqual([5]);
    expect(count('search_index')).toBe(5);
  });

  it('keeps all that waits when a batch on its own turn fails, and indexes it with the next', () => {
    const { store, log, runTick, count, search } = setup();
    log.append('a', 'user_message', { text: 'the ibis prompt' });
    log.append('b', 'agent_message', { text: 'an ibis answer still open' });
    runTick();
    // The open message's row fails after the prompt's row was written: the batch rolls back whole.
    store.db.exec(`CREATE TRIGGER fail_tail BEFORE INSERT ON search_docs WHEN NEW.session_id = 'b' BEGIN SELECT RAISE(ABORT, 'index broken'); END`);
    expect(() => log.search.indexWaiting()).toThrow(/index broken/);
    expect(log.search.hasWaiting).toBe(true);
    expect(count('search_waiting')).toBe(1);
    expect(count('search_docs')).toBe(0);
    store.db.exec(`DROP TRIGGER fail_tail`);
    expect(search('ibis').matches.map((m) => m.sessionId)).toEqual(['b', 'a']);
    expect(log.search.hasWaiting).toBe(false);
  });

  it('fails the whole write when SQLite rolled it back inside a batch, so no event is stored outside its transaction', () => {
    const { store, log, runTick, errors, count } = setup();
    store.db.exec(`CREATE TRIGGER fail_all BEFORE INSERT ON search_docs BEGIN SELECT RAISE(ROLLBACK, 'disk full'); END`);
    for (let i = 0; i < WAITING_ROWS + 10; i++) log.append('a', 'user_message', { text: `prompt ${i}` });
    runTick();
    expect(errors).toHaveLength(1);
    expect(count('events')).toBe(0);
    expect(count('search_waiting')).toBe(0);
    expect(store.db.inTransaction).toBe(false);
    store.db.exec(`DROP TRIGGER fail_all`);
    log.append('a', 'user_message', { text: 'after it' });
    runTick();
    expect(count('events')).toBe(1);
  });

  it('indexes nothing for a session deleted while its rows waited', () => {
    const { store, log, runTick, count, search } = setup();
    log.append('b', 'user_message', { text: 'gone gnu' });
    log.append('b', 'agent_message', { text: 'gone answer' });
    log.append('b', 'tool_call', { toolCallId: 't1', title: 'gone tool', status: 'pending' });
    runTick();
    store.db.prepare(`DELETE FROM sessions WHERE id = 'b'`).run();
    expect(count('search_waiting')).toBe(0);
    expect(search('gone').matches).toEqual([]);
    expect(count('search_docs')).toBe(0);
    expect(count('search_index')).toBe(0);
  });

  it('groups hits by session, sessions ordered by their newest hit', () => {
    const { log, runTick, search } = setup();
    log.append('a', 'user_message', { text: 'lemur in a' });
    runTick();
    log.append('b', 'user_message', { text: 'lemur in b' });
    runTick();
    log.append('a', 'agent_message', { text: 'lemur again in a' });
    runTick();
    log.append('c', 'user_message', { text: 'no match here' });
    runTick();
    const { matches, truncated } = search('lemur');
    expect(matches.map((m) => [m.sessionId, m.hits.map((h) => h.seq)])).toEqual([
      ['a', [2, 1]],
      ['b', [1]],
    ]);
    expect(truncated).toBe(false);
    const limited = search('lemur', 1);
    expect(limited.matches.map((m) => m.sessionId)).toEqual(['a']);
    expect(limited.truncated).toBe(true);
  });

  it('marks the matched words in a snippet of the text around them', () => {
    const { log, runTick, search } = setup();
    const filler = Array.from({ length: 60 }, (_, i) => `word${i}`).join(' ');
    log.append('a', 'agent_message', { text: `${filler} the Capybara appears ${filler}` });
    runTick();
    const parts = search('capybara').matches[0]?.hits[0]?.snippet ?? [];
    expect(hitTexts(parts)).toEqual(['capybara']);
    const text = parts.map((p) => p.text).join('');
    expect(text).toContain('the Capybara appears');
    expect(text.length).toBeLessThan(200);
    expect(text).toMatch(/^…|…$/);
  });

  it('finds words by prefix while typing, and accents either way', () => {
    const { log, runTick, search } = setup();
    log.append('a', 'user_message', { text: 'Migrations and café' });
    runTick();
    expect(search('migra').matches).toHaveLength(1);
    expect(search('migra ').matches).toHaveLength(0);
    expect(search('cafe').matches).toHaveLength(1);
  });

  it('searches FTS5 operators and punctuation as text, never as syntax', () => {
    const { log, runTick, search } = setup();
    log.append('a', 'user_message', { text: 'use NEAR(x) and "quotes" in event_log.ts' });
    runTick();
    for (const q of ['NEAR(', 'AND', '"quotes', 'text:event', 'event_log.ts', '*', '^x', '-', '(', 'OR NOT', '"', "''", 'a"b']) {
      expect(() => search(q)).not.toThrow();
    }
    expect(search('event_log.ts').matches).toHaveLength(1);
    expect(search('NEAR(x)').matches).toHaveLength(1);
    expect(search('"quotes"').matches).toHaveLength(1);
    expect(search('***').matches).toEqual([]);
  });

  it('never turns any text into a failing query', () => {
    const { log, runTick, search } = setup();
    log.append('a', 'user_message', { text: 'something to match against' });
    runTick();
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', 'B', ' ', '"', '*', '(', ')', ':', '^', '-', '+', 'N', 'E', 'A', 'R', 'O', '\u00e9', '\u{1F600}', '\u0000') }), (q) => {
        expect(() => search(q)).not.toThrow();
      }),
      { numRuns: 500 },
    );
    fc.assert(fc.property(fc.string(), (q) => void search(q)), { numRuns: 500 });
  });

  it('forgets a deleted session in the same transaction', () => {
    const { store, log, runTick, search, count } = setup();
    log.append('a', 'user_message', { text: 'narwhal' });
    log.append('b', 'user_message', { text: 'narwhal' });
    runTick();
    expect(store.sessions.remove('a')).toBe(true);
    expect(search('narwhal').matches.map((m) => m.sessionId)).toEqual(['b']);
    expect(count('search_docs')).toBe(1);
  });
});

describe('ftsQuery', () => {
  it('quotes every term and makes only a long enough last word a prefix', () => {
    expect(ftsQuery('fix the bug')).toBe('"fix" "the" "bug"*');
    expect(ftsQuery('fix th')).toBe('"fix" "th"');
    expect(ftsQuery('fix bug ')).toBe('"fix" "bug"');
    expect(ftsQuery('"exact phrase" here')).toBe('"exact phrase" "here"*');
    expect(ftsQuery('say "hi')).toBe('"say" "hi"');
    expect(ftsQuery('a"b')).toBe('"a""b"');
    expect(ftsQuery('  ')).toBeUndefined();
    expect(ftsQuery('*** ---')).toBeUndefined();
  });
});

describe('snippetParts', () => {
  it('splits the markers into plain parts and joins adjacent hits', () => {
    expect(snippetParts('…a \u0002event\u0003 \u0002log\u0003 b')).toEqual([
      { text: '…a ' },
      { text: 'event log', hit: true },
      { text: ' b' },
    ]);
    expect(snippetParts('no hit')).toEqual([{ text: 'no hit' }]);
  });
});
