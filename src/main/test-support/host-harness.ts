import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type {
  CommandName,
  CommandRequest,
  CommandResponse,
  EventName,
  EventPayload,
  SessionEventT,
  SessionStateT,
  SessionViewT,
} from '../../shared/contract';
import { dataPaths, type DataPaths } from '../datadir/paths';
import { SessionHost, type HostOptions } from '../host/session-host';
import { silentLogger } from '../util/log';
import { tempDir } from './temp-dir';

/** A window as the host sees it: records every event it is sent. */
export class TestWindow {
  readonly events: { event: EventName; payload: unknown }[] = [];
  readonly emitter = new EventEmitter();
  readonly id: string;
  private readonly handle;

  constructor(
    private readonly host: SessionHost,
    readonly label = 'window',
  ) {
    this.handle = host.connect({
      label,
      send: (event, payload) => {
        this.events.push({ event, payload });
        this.emitter.emit('event', event, payload);
      },
    });
    this.id = this.handle.id;
  }

  async call<C extends CommandName>(command: C, payload: CommandRequest<C>): Promise<CommandResponse<C>> {
    const result = await this.host.dispatch(this.id, command, payload);
    if (!result.ok) throw Object.assign(new Error(`${command}: ${result.error.message}`), { code: result.error.code });
    return result.value as CommandResponse<C>;
  }

  /** Session events this window received for a session, in arrival order. */
  sessionEvents(sessionId: string): SessionEventT[] {
    return this.events
      .filter((e) => e.event === 'session:event' && (e.payload as SessionEventT).sessionId === sessionId)
      .map((e) => e.payload as SessionEventT);
  }

  /** A position in this window's event list, for the `after` argument of the waits below. */
  mark(): number {
    return this.events.length;
  }

  /** Resolves with the first matching event: past or future, or only those after `after` (a `mark()`). */
  waitFor<E extends EventName>(
    event: E,
    match: (payload: EventPayload<E>) => boolean,
    timeoutMs = 15_000,
    after = 0,
  ): Promise<EventPayload<E>> {
    const seen = this.events.slice(after).find((e) => e.event === event && match(e.payload as EventPayload<E>));
    if (seen) return Promise.resolve(seen.payload as EventPayload<E>);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.emitter.off('event', listener);
        reject(new Error(`timed out waiting for ${event}`));
      }, timeoutMs);
      const listener = (name: EventName, payload: unknown): void => {
        if (name === event && match(payload as EventPayload<E>)) {
          clearTimeout(timer);
          this.emitter.off('event', listener);
          resolve(payload as EventPayload<E>);
        }
      };
      this.emitter.on('event', listener);
    });
  }

  /** Waits for a pushed view of the session in `state` (and `reason`, if given), after `after`. */
  waitForState(sessionId: string, state: SessionStateT, reason?: string, after = 0): Promise<SessionViewT> {
    return this.waitFor(
      'session:updated',
      (v) => v.id === sessionId && v.state === state && (reason === undefined || v.stateReason === reason),
      15_000,
      after,
    );
  }

  /** Waits for a pushed view whose running flag is `running`, after `after`. */
  waitForRunning(sessionId: string, running: boolean, after = 0): Promise<SessionViewT> {
    return this.waitFor('session:updated', (v) => v.id === sessionId && v.running === running, 15_000, after);
  }

  /** Seqs of the session events this window received, in arrival order. */
  seqs(sessionId: string): number[] {
    return this.sessionEvents(sessionId).map((e) => e.seq);
  }

  /** Waits until the agent's text of the session received so far contains `text`. */
  waitForText(sessionId: string, text: string, timeoutMs?: number): Promise<unknown> {
    // Chunks are stored as they stream: look at the text so far, not at one chunk.
    return this.waitFor('session:event', (e) => e.sessionId === sessionId && e.kind === 'agent_message' && this.agentText(sessionId).includes(text), timeoutMs);
  }

  /** The agent's text of a session as one string. */
  agentText(sessionId: string): string {
    return this.sessionEvents(sessionId)
      .filter((e) => e.kind === 'agent_message')
      .map((e) => String(e.payload.text))
      .join('');
  }

  /** Sends a prompt; resolves with its turn_ended event (every accepted prompt gets exactly one). */
  async prompt(sessionId: string, text: string, clientMessageId: string = randomUUID()): Promise<SessionEventT> {
    await this.call('prompt:send', { sessionId, clientMessageId, text });
    return this.waitAnswered(sessionId, clientMessageId);
  }

  /** Waits for the end of the prompt with this client message id (the window must watch the session). */
  waitAnswered(sessionId: string, clientMessageId: string, timeoutMs?: number): Promise<SessionEventT> {
    return this.waitFor(
      'session:event',
      (e) => e.sessionId === sessionId && e.kind === 'turn_ended' && e.payload.clientMessageId === clientMessageId,
      timeoutMs,
    );
  }

  /** Waits for any turn_ended of the session (past or future): prefer `waitAnswered`. */
  waitIdle(sessionId: string, timeoutMs?: number): Promise<unknown> {
    return this.waitFor('session:event', (e) => e.sessionId === sessionId && (e.kind === 'turn_ended'), timeoutMs);
  }

  /** Resolves once `check` holds, re-checked after every event this window receives. */
  until(check: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
    if (check()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.emitter.off('event', listener);
        reject(new Error(`timed out waiting for ${what}`));
      }, timeoutMs);
      const listener = (): void => {
        if (!check()) return;
        clearTimeout(timer);
        this.emitter.off('event', listener);
        resolve();
      };
      this.emitter.on('event', listener);
    });
  }

  dispose(): void {
    this.handle.dispose();
  }
}

export interface Harness {
  dataDir: string;
  /** The host's SQLite file, for a test that writes rows while the host is down. */
  database: string;
  /** Every file of the data dir (database, secrets, agents.json, logs). */
  paths: DataPaths;
  host: SessionHost;
  /** Every stored event of a session, after writing out what is queued. */
  stored(sessionId: string): SessionEventT[];
  /** Resolves once the work queued for the session so far (start, prompts) is done. */
  settled(sessionId: string): Promise<void>;
  /** Shuts the host down and starts a new one on the same data dir; `whileDown` runs in between. */
  restart(options?: Partial<HostOptions>, whileDown?: () => void): Promise<SessionHost>;
  window(label?: string): TestWindow;
  cleanup(): Promise<void>;
}

/** A real host on a temp data dir with the real demo agent. */
export async function startHarness(options: Partial<HostOptions> = {}): Promise<Harness> {
  const dir = tempDir();
  const make = (extra: Partial<HostOptions> = {}) =>
    SessionHost.start({ dataDir: dir.path, headless: true, log: silentLogger, graceMs: 500, ...options, ...extra });
  const h: Harness = {
    dataDir: dir.path,
    database: dataPaths(dir.path).database,
    paths: dataPaths(dir.path),
    host: await make(),
    stored(sessionId) {
      h.host.eventLog.flush();
      return h.host.eventLog.events.pageAfter(sessionId, 0, 100_000).events;
    },
    settled(sessionId) {
      return h.host.service.registry.enqueue(sessionId, () => Promise.resolve());
    },
    async restart(extra, whileDown) {
      await h.host.shutdown();
      whileDown?.();
      h.host = await make(extra);
      return h.host;
    },
    window: (label) => new TestWindow(h.host, label),
    async cleanup() {
      await h.host.shutdown();
      dir.cleanup();
    },
  };
  return h;
}

/** Creates a session in the data folder that `w` watches and waits until its agent session is live. */
export async function liveSession(h: Harness, w: TestWindow): Promise<string> {
  const view = await w.call('sessions:create', { cwd: h.dataDir });
  await w.call('sessions:switch', { sessionId: view.id });
  await w.waitFor('session:updated', (v) => v.id === view.id && v.state === 'ACTIVE');
  return view.id;
}
