/**
 * The dock/taskbar badge: how many sessions wait for the person (a permission request, or a
 * sign-in), across every window. It watches the host through the same port a window uses —
 * `session:updated` reaches every connected client — so it needs nothing of the host's insides.
 */
import type { SessionViewT } from '../../shared/contract';
import { isWaitingForPerson } from '../../shared/waiting';
import type { ClientHandle, HostPort } from '../host/host-port';
import type { Disposable } from '../util/lifecycle';
import type { Logger } from '../util/log';

// The window title counts the same sessions (src/renderer/src/store/attention.ts).
export { isWaitingForPerson };

export class WaitingBadge implements Disposable {
  private readonly waiting = new Set<string>();
  /** Sessions an event told us about: newer than the first list, which may answer after it. */
  private readonly seen = new Set<string>();
  private client: ClientHandle | undefined;
  private shown = -1;

  constructor(
    private readonly host: HostPort,
    private readonly show: (count: number) => void,
    private readonly log: Logger,
  ) {}

  async start(): Promise<void> {
    this.client = this.host.connect({
      label: 'dock badge',
      send: (event, payload) => {
        if (event === 'session:updated') this.apply(payload as SessionViewT);
        else if (event === 'session:deleted') this.forget((payload as { sessionId: string }).sessionId);
      },
    });
    const listed = await this.host.dispatch(this.client.id, 'sessions:list', {});
    if (!listed.ok) {
      this.log.warn('could not list sessions for the badge', { error: listed.error.message });
      return;
    }
    for (const view of listed.value as SessionViewT[]) if (!this.seen.has(view.id)) this.set(view.id, isWaitingForPerson(view));
    this.publish();
  }

  get count(): number {
    return this.waiting.size;
  }

  dispose(): void {
    this.client?.dispose();
    this.client = undefined;
  }

  private apply(view: SessionViewT): void {
    this.seen.add(view.id);
    this.set(view.id, isWaitingForPerson(view));
    this.publish();
  }

  private forget(sessionId: string): void {
    this.seen.add(sessionId);
    this.waiting.delete(sessionId);
    this.publish();
  }

  private set(sessionId: string, waiting: boolean): void {
    if (waiting) this.waiting.add(sessionId);
    else this.waiting.delete(sessionId);
  }

  private publish(): void {
    if (this.waiting.size === this.shown) return;
    this.shown = this.waiting.size;
    this.show(this.shown);
  }
}
