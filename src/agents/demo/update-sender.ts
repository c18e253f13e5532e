/**
 * The demo agent's `session/update` notifications. Through the SDK each one costs a chain of
 * promises and two web-stream writers (its write queue, then `ndJsonStream`), which capped a
 * `/flood` at ~110k updates/s before any client read it (profiled: the SDK's write path,
 * promise bookkeeping and GC made up most of the agent's time). Once a turn is under way the
 * sender serialises an update itself, as the very message the SDK would write
 * (`{"jsonrpc":"2.0","method":"session/update","params":{sessionId, update}}`), and queues the
 * line on the batched stdout directly. The updates are typed `SessionUpdate`s as before; only
 * the SDK's write machinery is skipped (the SDK does not validate what it sends).
 *
 * Order: a direct line never overtakes a message the SDK was given earlier. A turn's first
 * update goes through the SDK, and the turn's next updates wait until it has been written: the
 * SDK's write queue is FIFO, so by then everything it was given before the turn (an earlier
 * turn's answer, another session's answer) is out. After that a line goes direct only while no
 * notification of the same session, and none of no session, sent through the SDK is pending
 * (else it goes through the SDK, behind it), so direct lines follow every earlier SDK
 * notification of their session. Another session's pending notification does not matter:
 * order is per session. (It used to: with 8 sessions flooding one agent process there was
 * always one pending, so every update took the SDK path and the process capped 8 sessions at
 * about a quarter of one session's rate; profiled with `bench/profile.ts ingest 10 --agents`.)
 */
import * as acp from '@agentclientprotocol/sdk';
import type { SessionUpdate } from '@agentclientprotocol/sdk';

const SESSION_UPDATE = acp.methods.client.session.update;
/** What a send queued at once resolves with: one settled promise, not one per update. */
const QUEUED: Promise<void> = Promise.resolve();

/** Sends one update through the SDK; resolves once the message is on the output. */
export type SdkSend = (update: SessionUpdate) => Promise<void>;

export class UpdateSender {
  /** SDK notifications on their way, of no particular session. */
  private sdkPending = 0;
  /** SDK notifications on their way, by session. */
  private readonly sessionPending = new Map<string, number>();

  /** `writeLine` queues a line on the SDK's output, after everything written so far; a promise while the output is full. */
  constructor(private readonly writeLine: (line: string) => Promise<void> | undefined) {}

  /** Sends through the SDK (outside turns: announcements, history replay); of `sessionId` if given. */
  sdk(send: () => Promise<void>, sessionId?: string): Promise<void> {
    if (sessionId === undefined) {
      this.sdkPending++;
      return send().finally(() => this.sdkPending--);
    }
    this.sessionPending.set(sessionId, (this.sessionPending.get(sessionId) ?? 0) + 1);
    return send().finally(() => {
      const left = (this.sessionPending.get(sessionId) ?? 1) - 1;
      if (left === 0) this.sessionPending.delete(sessionId);
      else this.sessionPending.set(sessionId, left);
    });
  }

  /**
   * A sender for one prompt turn of `sessionId`. Its first update goes through the SDK (the
   * fence); updates sent meanwhile wait for it, in order, instead of taking the SDK path too,
   * so a short turn is not all SDK. After it, direct while no SDK notification is pending.
   */
  forTurn(sessionId: string, viaSdk: SdkSend): (update: SessionUpdate) => Promise<void> {
    let fence: Promise<void> | undefined;
    let fenced = false;
    // Updates waiting on the fence: until they are out, later ones queue behind them.
    let waiting = 0;
    // The message's fixed part, serialised once a turn: `JSON.stringify` of the whole message
    // would give the same bytes (same keys, same order).
    const head = `{"jsonrpc":"2.0","method":${JSON.stringify(SESSION_UPDATE)},"params":{"sessionId":${JSON.stringify(sessionId)},"update":`;
    const now = (update: SessionUpdate): Promise<void> => {
      if (this.sdkPending > 0 || this.sessionPending.has(sessionId)) return this.sdk(() => viaSdk(update), sessionId);
      return this.writeLine(`${head}${JSON.stringify(update)}}}\n`) ?? QUEUED;
    };
    return (update) => {
      if (fenced && waiting === 0) return now(update);
      if (!fence) {
        const first = this.sdk(() => viaSdk(update), sessionId);
        fence = first.then(() => {
          fenced = true;
        });
        // A failed fence (connection gone) fails the waiters; it is not unhandled on its own.
        fence.catch(() => {});
        return first;
      }
      waiting++;
      return fence.then(() => {
        const sent = now(update);
        waiting--;
        return sent;
      });
    };
  }
}
