import type { SessionService } from '../sessions/session-service';
import type { SessionsRepo } from '../store/sessions.repo';
import type { Disposable } from '../util/lifecycle';
import type { Logger } from '../util/log';
import type { Clients } from './clients';

/**
 * Every window learns of every change to a session's view: the service announces each change
 * (the write itself does), and this pushes the session's view (`session:updated`, or
 * `session:deleted` once its row is gone). Changes made in one synchronous step (a state
 * write, then the registry) are pushed once, as they stand at its end: one microtask later,
 * still before the command's answer and before the next stored events go out.
 */
export class SessionViewPush implements Disposable {
  private readonly queued = new Set<string>();
  private scheduled = false;
  private disposed = false;
  private readonly subscription: Disposable;

  constructor(
    private readonly o: { service: SessionService; sessions: SessionsRepo; clients: Clients; log: Logger },
  ) {
    this.subscription = o.service.onDidChangeSession((sessionId) => this.queue(sessionId));
  }

  dispose(): void {
    this.disposed = true;
    this.queued.clear();
    this.subscription.dispose();
  }

  private queue(sessionId: string): void {
    if (this.disposed || this.o.clients.size === 0) return;
    this.queued.add(sessionId);
    if (this.scheduled) return;
    this.scheduled = true;
    queueMicrotask(() => this.flush());
  }

  private flush(): void {
    this.scheduled = false;
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
