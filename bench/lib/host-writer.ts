/**
 * The host's transcript writer as `SessionHost` sets it up, for benchmarks that store a stream
 * in-process: the event log's write slice, WAL checkpoints in a worker thread (the host's own
 * connection checkpoints nothing itself) and the write gate they hold while one catches up
 * (ADR 0031). Plus a steady stream into it.
 */
import type { SessionEventT } from '../../src/shared/contract';
import { WalCheckpoints } from '../../src/main/datadir/wal-checkpoints';
import { EventLog, HOST_WRITE_SLICE } from '../../src/main/store/event-log';
import type { Store } from '../../src/main/store/store';
import { WriteGate } from '../../src/main/store/write-gate';
import { systemClock } from '../../src/main/util/clock';
import { silentLogger } from '../../src/main/util/log';

export interface HostWriter {
  log: EventLog;
  checkpoints: WalCheckpoints;
  /** Writes what is queued and stops the checkpoints (the store stays open). */
  dispose(): Promise<void>;
}

export function hostWriter(store: Store, file: string, onCommit: (events: readonly SessionEventT[]) => void = () => {}): HostWriter {
  const gate = new WriteGate();
  const checkpoints = new WalCheckpoints({ db: store.db, file, log: silentLogger, writes: gate });
  const log = new EventLog(
    store.db,
    systemClock,
    (events) => {
      checkpoints.noteWrite();
      onCommit(events);
    },
    gate.schedule(),
    undefined,
    HOST_WRITE_SLICE,
  );
  return {
    log,
    checkpoints,
    async dispose() {
      log.dispose();
      await checkpoints.dispose();
    },
  };
}

/**
 * Every millisecond, as many events as are due by now: a steady `rate` per second into
 * `session`. Distinct message ids keep each event a row of its own, as a stream of tool calls
 * would be. `onSent` hears each event's seq and the moment it was due.
 */
export function steadyStream(log: EventLog, session: string, rate: number, onSent: (seq: number, dueAt: number) => void = () => {}): { stop(): void; sent(): number } {
  const start = performance.now();
  let sent = 0;
  const timer = setInterval(() => {
    const shouldHave = Math.floor(((performance.now() - start) / 1000) * rate);
    while (sent < shouldHave) {
      const dueAt = start + (sent * 1000) / rate;
      sent++;
      onSent(log.append(session, 'agent_message', { text: `event ${sent}`, messageId: `m${sent}` }), dueAt);
    }
  }, 1);
  return { stop: () => clearInterval(timer), sent: () => sent };
}
