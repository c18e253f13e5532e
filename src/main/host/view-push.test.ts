import { describe, expect, it } from 'vitest';
import { Emitter } from '../util/event';
import { silentLogger } from '../util/log';
import type { SessionService } from '../sessions/session-service';
import type { SessionsRepo } from '../store/sessions.repo';
import type { Clients } from './clients';
import { SessionViewPush } from './view-push';

/** A push over fakes: the rows a session has, and what a window was sent. */
function setup() {
  const changes = new Emitter<string>();
  const rows = new Map<string, { id: string; state: string }>();
  const sent: { event: string; payload: unknown }[] = [];
  const push = new SessionViewPush({
    service: { onDidChangeSession: changes.event, view: (row: { id: string; state: string }) => ({ ...row }) } as unknown as SessionService,
    sessions: { get: (id: string) => rows.get(id) } as unknown as SessionsRepo,
    clients: { size: 1, broadcast: (event: string, payload: unknown) => sent.push({ event, payload }) } as unknown as Clients,
    log: silentLogger,
  });
  return { changes, rows, sent, push };
}

describe('SessionViewPush', () => {
  it('gathers changes into one view per session, pushed by flush as the row stands then', () => {
    const t = setup();
    t.rows.set('a', { id: 'a', state: 'STARTING' });
    t.changes.fire('a');
    t.rows.set('a', { id: 'a', state: 'ACTIVE' });
    t.changes.fire('a');
    expect(t.sent).toEqual([]);
    t.push.flush();
    expect(t.sent).toEqual([{ event: 'session:updated', payload: { id: 'a', state: 'ACTIVE' } }]);
    t.push.flush();
    expect(t.sent).toHaveLength(1);
  });

  it('pushes on its own once the current work is done (setImmediate), and a deleted row as deleted', async () => {
    const t = setup();
    t.changes.fire('gone');
    await new Promise((resolve) => setImmediate(resolve));
    expect(t.sent).toEqual([{ event: 'session:deleted', payload: { sessionId: 'gone' } }]);
  });

  it("pushes what is still gathered when disposed (a quit's last writes reach the windows), then nothing more", async () => {
    const t = setup();
    t.rows.set('a', { id: 'a', state: 'ENDED' });
    t.changes.fire('a');
    t.push.dispose();
    expect(t.sent).toEqual([{ event: 'session:updated', payload: { id: 'a', state: 'ENDED' } }]);
    t.changes.fire('a');
    await new Promise((resolve) => setImmediate(resolve));
    expect(t.sent).toHaveLength(1);
  });
});
