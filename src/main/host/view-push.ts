import type { SessionService } from '../sessions/session-service';
import type { SessionsRepo } from '../store/sessions.repo';
import type { Disposable } from '../util/lifecycle';
import type { Logger } from '../util/log';
import type { Clients } from './clients';

/**
 * Every window learns of every change to a session's view: the service announces each change
 * (the write itself does), and this pushes the session's view (`session:updated`, or
 * `session:deleted` once its row is gone). Changes are gathered until a frame is about to
 * leave for a window (a command's answer, stored events, any other push: `flush`, called
 * through `Clients`' hook) or the host's current turn of work ends (`setImmediate`), whichever
 * is first. So each view goes out as it stands at that moment, once, and always before the
 * frames that follow the changes: a prompt's acceptance and its turn's start, made a few
 * microtasks apart, are one view instead of two.
 */
export class SessionViewPush implements Disposable {
  private readonly queued = new Set<string>();
  private scheduled: NodeJS.Immediate | undefined;
  private disposed = false;
  private readonly subscription: Disposable;

  constructor(
    private readonly o: { service: SessionService; sessions: SessionsRepo; clients: Clients; log: Logger },
  ) {
    this.subscription = o.service.onDidChangeSession((sessionId) => this.queue(sessionId));
  }

  /** Pushes what is still gathered (a quit's last writes: the sessions ended), then stops. */
  dispose(): void {
    this.flush();
    this.disposed = true;
    this.queued.clear();
    if (this.scheduled) clearImmediate(this.scheduled);
    this.scheduled = undefined;
    this.subscription.dispose();
  }

  private queue(sessionId: string): void {
    if (this.disposed || this.o.clients.size === 0) return;
    this.queued.add(sessionId);
    this.scheduled ??= setImmediate(() => this.flush());
  }

  /** Pushes the views of the sessions changed since the last push (nothing when none changed). */
  flush(): void {
    if (this.queued.size === 0) return;
    if (this.scheduled) clearImmediate(this.scheduled);
    this.scheduled = undefined;
    // Cleared before pushing: each push runs `Clients`' hook, which calls this again.
    const ids = [...this.queued];
    this.queued.clear();
    if (this.disposed) return;
    for (const sessionId of ids) {
      try {
        const row = this.o.sessions.get(sessionId);
        if (row) this.o.clients.broadcast('session:updated', this.o.service.view(row));
        else this.o.clients.broadcast('session:deleted', { sessionId });
      } catch (err) {
        // A read refused (the database failing) must not stop the other sessions' pushes.
        this.o.log.error('pushing a session view failed', { session: sessionId, error: String(err) });
      }
    }
  }
}
