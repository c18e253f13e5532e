import { EventEmitter } from 'node:events';
import type { CommandName, CommandRequest, CommandResponse, EventName, EventPayload, SessionEventT } from '../../shared/contract';
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

  /** Resolves with the first event (past or future) that matches. */
  waitFor<E extends EventName>(event: E, match: (payload: EventPayload<E>) => boolean, timeoutMs = 15_000): Promise<EventPayload<E>> {
    const seen = this.events.find((e) => e.event === event && match(e.payload as EventPayload<E>));
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

  /** Waits for an agent text containing `text` in the session's events. */
  waitForText(sessionId: string, text: string, timeoutMs?: number): Promise<unknown> {
    return this.waitFor('session:event', (e) => e.sessionId === sessionId && e.kind === 'agent_message' && String(e.payload.text).includes(text), timeoutMs);
  }

  /** The agent's text of a session as one string. */
  agentText(sessionId: string): string {
    return this.sessionEvents(sessionId)
      .filter((e) => e.kind === 'agent_message')
      .map((e) => String(e.payload.text))
      .join('');
  }

  /** Waits until the session's view says no turn runs and the last turn ended. */
  waitIdle(sessionId: string, timeoutMs?: number): Promise<unknown> {
    return this.waitFor('session:event', (e) => e.sessionId === sessionId && (e.kind === 'turn_ended'), timeoutMs);
  }

  dispose(): void {
    this.handle.dispose();
  }
}

export interface Harness {
  dataDir: string;
  host: SessionHost;
  restart(options?: Partial<HostOptions>): Promise<SessionHost>;
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
    host: await make(),
    async restart(extra) {
      await h.host.shutdown();
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
