import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentLogEntryT, AgentLogT, EventPayload } from '../../shared/contract';
import { readLogTail } from '../brokers/agent-log-feed';
import type { BrokerPool } from '../brokers/broker-pool';
import type { Disposable } from '../util/lifecycle';

/** How much of the log file a window gets when it opens the Agent log. */
export const LOG_BACKLOG_BYTES = 64 * 1024;
/** Most lines in one `agent:log` push; the rest are counted as dropped (the file has them). */
export const MAX_LIVE_ENTRIES = 500;

export interface AgentLogsOptions {
  pool: BrokerPool;
  /** The folder of agent log files (for a session whose agent has not run since the host started). */
  logDir: string;
  /** The session's agent id and display name; throws `not_found` for an unknown session. */
  agentOf(sessionId: string): { id: string; name: string };
  send(clientId: string, payload: EventPayload<'agent:log'>): void;
}

interface Pending {
  entries: AgentLogEntryT[];
  dropped: number;
}

/**
 * The Agent log view's host side: the backlog from the log file on open, then the new lines
 * of the session's agent, batched once per turn of the event loop and bounded, pushed only
 * to the windows that opened it.
 */
export class AgentLogFollowers implements Disposable {
  /** Windows following each session's log. */
  private readonly followers = new Map<string, Set<string>>();
  private readonly pending = new Map<string, Pending>();
  private flushing: NodeJS.Immediate | undefined;
  private readonly subscription: Disposable;

  constructor(private readonly o: AgentLogsOptions) {
    this.subscription = o.pool.onDidLog(({ sessionIds, entries }) => {
      if (this.followers.size === 0) return;
      for (const id of sessionIds) if (this.followers.has(id)) this.queue(id, entries);
    });
  }

  /** The backlog of the session's agent log; `follow` subscribes the window to new lines. */
  async open(clientId: string, sessionId: string, follow: boolean): Promise<AgentLogT> {
    const agent = this.o.agentOf(sessionId);
    let source = this.o.pool.logSource(sessionId);
    // Everything emitted before the snapshot must be in the file, and nothing emitted between
    // reading it and following may be missed: both happen in one synchronous step once flushed.
    while (source.broker && !source.broker.logFeed.flushed) {
      await source.broker.logFeed.whenFlushed();
      source = this.o.pool.logSource(sessionId);
    }
    const file = source.file ?? newestLogFile(this.o.logDir, agent.id);
    const tail = file ? readLogTail(file, LOG_BACKLOG_BYTES) : { entries: [], truncated: false };
    if (follow) this.follow(clientId, sessionId);
    return {
      sessionId,
      agentName: agent.name,
      ...(file ? { logFile: file } : {}),
      live: source.broker !== undefined,
      entries: tail.entries,
      truncated: tail.truncated,
    };
  }

  close(clientId: string, sessionId: string): void {
    const set = this.followers.get(sessionId);
    if (!set?.delete(clientId)) return;
    if (set.size === 0) {
      this.followers.delete(sessionId);
      this.pending.delete(sessionId);
    }
  }

  /** The window went away. */
  dropClient(clientId: string): void {
    for (const sessionId of [...this.followers.keys()]) this.close(clientId, sessionId);
  }

  dispose(): void {
    this.subscription.dispose();
    if (this.flushing) clearImmediate(this.flushing);
    this.followers.clear();
    this.pending.clear();
  }

  private follow(clientId: string, sessionId: string): void {
    const set = this.followers.get(sessionId) ?? new Set<string>();
    set.add(clientId);
    this.followers.set(sessionId, set);
  }

  private queue(sessionId: string, entries: readonly AgentLogEntryT[]): void {
    const p = this.pending.get(sessionId) ?? { entries: [], dropped: 0 };
    const room = MAX_LIVE_ENTRIES - p.entries.length;
    if (room >= entries.length) p.entries.push(...entries);
    else {
      if (room > 0) p.entries.push(...entries.slice(0, room));
      p.dropped += entries.length - Math.max(room, 0);
    }
    this.pending.set(sessionId, p);
    // One push per session per turn of the event loop, however many lines arrived in it.
    this.flushing ??= setImmediate(() => this.flush());
  }

  private flush(): void {
    this.flushing = undefined;
    const batches = [...this.pending];
    this.pending.clear();
    for (const [sessionId, { entries, dropped }] of batches) {
      for (const clientId of this.followers.get(sessionId) ?? []) this.o.send(clientId, { sessionId, entries, dropped });
    }
  }
}

/** The most recently written log file of an agent (`agent-<id>-<broker>.log`), if any. */
function newestLogFile(dir: string, agentId: string): string | undefined {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return undefined;
  }
  // The pool names them after the agent and the first 8 hex digits of the broker id.
  const escaped = agentId.replace(/[.*+?^$()|[\]{}\\]/g, '\\$&');
  const ours = new RegExp(`^agent-${escaped}-[0-9a-f]{8}\\.log$`);
  let best: { file: string; mtime: number } | undefined;
  for (const name of names) {
    if (!ours.test(name)) continue;
    const file = join(dir, name);
    try {
      const mtime = statSync(file).mtimeMs;
      if (!best || mtime > best.mtime) best = { file, mtime };
    } catch {
      // Removed meanwhile.
    }
  }
  return best?.file;
}
