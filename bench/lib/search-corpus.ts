/**
 * A data dir holding about `bytes` of transcripts (the JSON payloads of stored events), for
 * the search benchmark. Written once through the real event writer (`EventLog`, which indexes
 * as it stores) into a cache dir outside the repository, and reused by later runs: 1 GB takes
 * minutes to write.
 *
 * The text is made of a seeded vocabulary of 40,000 made-up words drawn with a Zipf-like skew
 * (a few words are everywhere, most are rare, as in prose and code), plus words planted at
 * known rates so the queries below have known answers.
 */
import { randomUUID } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cachedDone, schemaFingerprint } from './cache-schema';
import { openSeedLog } from './seed';
import { seededRandom } from '../../src/agents/demo/markdown-doc';

const VOCABULARY = 40_000;
const EVENTS_PER_SESSION = 400;
/** Planted words: in one answer in the whole corpus; in about 1 answer in 1,000; in every answer. */
export const RARE = 'zanzibarquill';
export const SOMETIMES = 'ostrichfern';
export const EVERYWHERE = 'switchboard';

const SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'ru', 'ta', 'vo', 'shi', 'pra', 'gle', 'dor', 'fen', 'qua', 'zu', 'bex', 'tri', 'ol', 'an', 'em', 'is'];

/** The `n` most frequent words of the corpus. */
export const commonWords = (n: number): string[] => vocabulary().slice(0, n);

function vocabulary(): string[] {
  const rand = seededRandom(4242);
  const words = new Set<string>();
  while (words.size < VOCABULARY) {
    const n = 2 + Math.floor(rand() * 3);
    let w = '';
    for (let i = 0; i < n; i++) w += SYLLABLES[Math.floor(rand() * SYLLABLES.length)];
    words.add(w);
  }
  return [...words];
}

export interface SearchCorpus {
  dataDir: string;
  bytes: number;
  events: number;
  sessions: number;
}

/** The cached corpus of about `bytes`, written first if it is not there (or was left half written). */
export function searchCorpus(bytes: number, progress: (message: string) => void): SearchCorpus {
  const dataDir = join(tmpdir(), `switchboard-bench-search-${Math.round(bytes / 1e6)}mb-v2`);
  const done = join(dataDir, 'corpus-done.json');
  const cached = cachedDone<Omit<SearchCorpus, 'dataDir'>>(done);
  if (cached) return { dataDir, bytes: cached.bytes, events: cached.events, sessions: cached.sessions };
  rmSync(dataDir, { recursive: true, force: true });
  const corpus = writeCorpus(dataDir, bytes, progress);
  writeFileSync(done, JSON.stringify({ bytes: corpus.bytes, events: corpus.events, sessions: corpus.sessions, schema: schemaFingerprint() }));
  return corpus;
}

function writeCorpus(dataDir: string, target: number, progress: (message: string) => void): SearchCorpus {
  const { store, log, runTick: flush } = openSeedLog(dataDir);
  const words = vocabulary();
  const rand = seededRandom(99);
  // Zipf-like: the cube pushes most draws to the first words of the list.
  const word = (): string => words[Math.floor(rand() ** 3 * VOCABULARY)]!;
  const sentence = (n: number): string => {
    let s = '';
    for (let i = 0; i < n; i++) s += (i ? ' ' : '') + word();
    return `${s}.`;
  };
  let bytes = 0;
  let events = 0;
  let sessions = 0;
  let answers = 0;
  let nextReport = target / 10;
  const started = Date.now();
  try {
    while (bytes < target) {
      const id = randomUUID();
      store.sessions.insert({ id, agent_id: 'demo', cwd: dataDir, state: 'ENDED' }, Date.now());
      store.sessions.setTitle(id, `Corpus session ${sessions + 1}`, Date.now());
      sessions++;
      for (let e = 0; e < EVENTS_PER_SESSION; e += 4) {
        const user = `${sentence(8 + Math.floor(rand() * 20))} ${EVERYWHERE}?`;
        answers++;
        const planted = answers === 1_000 ? ` ${RARE}` : answers % 1_000 === 7 ? ` ${SOMETIMES}` : '';
        let answer = `${EVERYWHERE}:`;
        const paragraphs = 2 + Math.floor(rand() * 5);
        for (let p = 0; p < paragraphs; p++) answer += `\n\n${sentence(40 + Math.floor(rand() * 80))}`;
        answer += planted;
        const title = `Run ${word()} ${word()}`;
        log.append(id, 'user_message', { text: user });
        log.append(id, 'tool_call', { toolCallId: `t${e}`, title, status: 'completed' });
        log.append(id, 'agent_message', { text: answer });
        log.append(id, 'turn_ended', { stopReason: 'end_turn' });
        bytes += user.length + answer.length + title.length + 200;
        events += 4;
      }
      flush();
      if (bytes >= nextReport) {
        progress(`search corpus: ${Math.round(bytes / 1e6)} of ${Math.round(target / 1e6)} MB written (${Math.round((Date.now() - started) / 1000)} s)`);
        nextReport += target / 10;
      }
    }
    flush();
    const stored = store.db.prepare(`SELECT SUM(LENGTH(payload)) AS n FROM events`).get() as { n: number };
    return { dataDir, bytes: stored.n, events, sessions };
  } finally {
    log.dispose();
    store.dispose();
  }
}
