/**
 * Data dirs with big transcripts, written straight through the store before a host opens
 * them: 100,000 events take seconds this way instead of minutes through an agent.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { dataPaths } from '../../src/main/datadir/paths';
import { EventLog } from '../../src/main/store/event-log';
import { Store } from '../../src/main/store/store';
import { systemClock } from '../../src/main/util/clock';

export interface SeededSession {
  id: string;
  title: string;
  events: number;
  /** The text of its last agent message: what a window must show after switching to it. */
  lastText: string;
}

const FILLER = 'The quick brown fox jumps over the lazy dog while the build runs and the tests pass. '.repeat(2);

/**
 * Sessions of the given sizes (events each), ENDED, as turns of user message, agent message
 * and turn end: kinds alternate, so nothing coalesces. Creation order = list order (newest first).
 */
/** The data dir's store and its real event writer, whose batches run when `runTick` says. */
export function openSeedLog(dataDir: string): { store: Store; log: EventLog; runTick(): void } {
  const paths = dataPaths(dataDir);
  mkdirSync(paths.logs, { recursive: true });
  const store = Store.open(paths.database);
  const flushes: (() => void)[] = [];
  const log = new EventLog(store.db, systemClock, () => {}, (fn) => flushes.push(fn));
  return { store, log, runTick: () => flushes.splice(0).forEach((fn) => fn()) };
}

export function seedSessions(
  dataDir: string,
  sizes: readonly number[],
  /** The answer of a turn instead of the filler (a word to search for), by session and turn. */
  answerOf?: (session: number, turn: number) => string | undefined,
): SeededSession[] {
  const { store, log, runTick } = openSeedLog(dataDir);
  const seeded: SeededSession[] = [];
  try {
    for (const [i, size] of sizes.entries()) {
      const id = randomUUID();
      const title = `Seeded ${size} events ${i + 1}`;
      const lastText = `Last message of ${title} (${id.slice(0, 8)})`;
      store.sessions.insert({ id, agent_id: 'demo', cwd: dataDir, state: 'ENDED' }, Date.now() + i);
      store.sessions.setTitle(id, title, Date.now() + i);
      const turns = Math.max(1, Math.floor(size / 3));
      for (let t = 0; t < turns; t++) {
        const clientMessageId = randomUUID();
        log.append(id, 'user_message', { text: `Question ${t + 1}: what next?`, clientMessageId });
        log.append(id, 'agent_message', { text: t === turns - 1 ? lastText : (answerOf?.(i, t) ?? `Answer ${t + 1}. ${FILLER}`) });
        log.append(id, 'turn_ended', { stopReason: 'end_turn', clientMessageId });
        if (t % 200 === 199) runTick();
      }
      runTick();
      seeded.push({ id, title, events: turns * 3, lastText });
    }
  } finally {
    store.dispose();
  }
  return seeded;
}
