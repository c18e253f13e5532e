/**
 * `node --import tsx bench/message-end.ts [KB…]`: what ending a long answer costs the host's
 * event loop (ADR 0029). The event log and search index on a real database file store an agent
 * message of KB kilobytes in 200-character chunks (written 600 chunks at a time), then the next
 * prompt, which ends the message. Prints the writes' total and longest time while the message
 * streamed, and the time of the write that ended it. Default sizes: 100, 1024 and 4096 KB.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventLog } from '../src/main/store/event-log';
import { Store } from '../src/main/store/store';
import type { Clock } from '../src/main/util/clock';

const WORDS = 'alpha beta gamma delta epsilon zeta theta iota kappa lambda mu nu xi omicron pi rho sigma tau'.split(' ');
const CHUNKS_PER_WRITE = 600;

function measure(kb: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-message-end-'));
  const store = Store.open(join(dir, 'host.db'));
  try {
    store.sessions.insert({ id: 's', agent_id: 'demo', cwd: dir, state: 'ACTIVE' }, Date.now());
    const clock = { now: () => Date.now() } as Clock;
    const log = new EventLog(store.db, clock, () => {}, () => {});
    const timedFlush = (): number => {
      const started = performance.now();
      log.flush();
      return performance.now() - started;
    };
    log.append('s', 'user_message', { text: 'write a long answer' });
    let chars = 0;
    let longest = 0;
    let total = 0;
    for (let i = 0; chars < kb * 1024; i++) {
      const chunk = `${Array.from({ length: 30 }, (_, k) => WORDS[((i * 30 + k) * 7) % WORDS.length]).join(' ').slice(0, 199)}\n`;
      chars += chunk.length;
      log.append('s', 'agent_message', { text: chunk });
      if ((i + 1) % CHUNKS_PER_WRITE === 0) {
        const ms = timedFlush();
        longest = Math.max(longest, ms);
        total += ms;
      }
    }
    total += timedFlush();
    log.append('s', 'user_message', { text: 'next' });
    const end = timedFlush();
    log.dispose();
    return `${kb} KB answer: writes while it streamed ${total.toFixed(0)} ms (longest ${longest.toFixed(1)} ms); the write that ended it ${end.toFixed(1)} ms`;
  } finally {
    store.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
}

const sizes = process.argv.slice(2).map(Number).filter((n) => n > 0);
for (const kb of sizes.length ? sizes : [100, 1024, 4096]) console.log(measure(kb));
