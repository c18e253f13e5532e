/**
 * A real store filled with sessions and transcripts the way the host writes them (through the
 * `EventLog`, search index included), for tests of what works on whole databases: backups,
 * restores, checks, clean-up, compaction.
 */
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { EventLog } from '../store/event-log';
import { Store } from '../store/store';
import type { OpenOptions } from '../store/db';
import type { SessionStateT } from '../../shared/contract';
import type { Clock } from '../util/clock';

export interface SeedSession {
  id?: string;
  /** Events in its transcript (user and agent messages in turn). */
  events: number;
  state?: SessionStateT;
  /** Archived at this time (the clock's now if `true`). */
  archived?: boolean;
  /** When its events are written (its creation and last activity); default: a second after the last. */
  at?: number;
  /** Characters per agent message (default 200). */
  textSize?: number;
}

/** A word per session and seq, so search and copies can be told apart. */
export const seededWord = (sessionIndex: number, seq: number): string => `w${sessionIndex}x${seq}`;

/** Adds sessions with their transcripts to `store`; returns their ids in order. */
export function seedSessions(store: Store, sessions: readonly SeedSession[], start = 1_700_000_000_000): string[] {
  let time = start;
  const clock: Clock = { now: () => time, setTimeout: () => ({}), clearTimeout: () => {} };
  const log = new EventLog(store.db, clock, () => {}, () => {}, (err) => {
    throw err;
  });
  const ids: string[] = [];
  sessions.forEach((s, i) => {
    time = s.at ?? time + 1_000;
    const id = s.id ?? randomUUID();
    ids.push(id);
    store.sessions.insert({ id, agent_id: 'demo', cwd: '/work', state: s.state ?? 'ENDED' }, clock.now());
    store.sessions.setFirstPrompt(id, `Session ${i}: ${seededWord(i, 1)}`, clock.now());
    const filler = 'lorem ipsum '.repeat(Math.ceil((s.textSize ?? 200) / 12)).slice(0, s.textSize ?? 200);
    for (let seq = 1; seq <= s.events; seq++) {
      if (seq % 2 === 1) log.append(id, 'user_message', { text: `${seededWord(i, seq)} please`, clientMessageId: `c${seq}` });
      // Each its own message: chunks of one message would coalesce into one row.
      else log.append(id, 'agent_message', { text: `${seededWord(i, seq)} ${filler}`, messageId: `m${seq}` });
    }
    log.flush();
    if (s.archived) store.sessions.setArchived(id, clock.now(), clock.now());
  });
  log.dispose();
  return ids;
}

/** A store at `<dir>/switchboard.db` with `sessions` in it, closed again unless `keepOpen`. */
export function seededDatabase(dir: string, sessions: readonly SeedSession[], options: OpenOptions = {}): { file: string; ids: string[] } {
  const file = join(dir, 'switchboard.db');
  const store = Store.open(file, options);
  try {
    return { file, ids: seedSessions(store, sessions) };
  } finally {
    store.dispose();
  }
}
