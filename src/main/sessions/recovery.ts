import type { EventLog } from '../store/event-log';
import type { Store } from '../store/store';
import { LIVE_STATES, transition } from './state-machine';

/**
 * At start-up: every session stored in a live state lost its agent session with the previous
 * host, so it becomes ENDED `recovered`; prompts that never got an end get one (nothing stays
 * "running"), and pending permission requests and questions are closed. Nothing is sent to any agent: the
 * next prompt resumes the session. Returns how many sessions were recovered.
 */
export function recoverSessions(store: Store, log: EventLog, now: number): number {
  let n = 0;
  for (const row of store.sessions.inStates(LIVE_STATES)) {
    if (row.state !== 'CLOSING' && row.state !== 'CREATED') transition(store.sessions, row.id, 'CLOSING', 'recovered', now);
    transition(store.sessions, row.id, 'ENDED', 'recovered', now);
    endUnansweredPrompts(log, row.id);
    n++;
  }
  for (const p of store.permissions.allPending()) {
    if (!store.permissions.decide(p.requestId, { outcome: 'cancelled', decidedBy: 'cancel', reason: 'host_restart' }, now)) continue;
    // Every decision is in the transcript, also the one a crash made.
    log.append(p.sessionId, 'permission_resolved', {
      requestId: p.requestId,
      title: p.toolCall.title,
      outcome: 'cancelled',
      decider: { kind: 'cancel', reason: 'host_restart' },
      reason: 'host_restart',
    });
  }
  for (const q of store.questions.allPending()) {
    if (!store.questions.decide(q.requestId, { action: 'cancel', decidedBy: 'cancel', reason: 'host_restart' }, now)) continue;
    log.append(q.sessionId, 'question_answered', {
      requestId: q.requestId,
      action: 'cancel',
      decider: { kind: 'cancel', reason: 'host_restart' },
      reason: 'host_restart',
    });
  }
  return n;
}

/** Prompts whose turn the dead host never ended (running, or still queued) are ended `cancelled`. */
function endUnansweredPrompts(log: EventLog, sessionId: string): void {
  const open = new Set<string>();
  for (const e of log.events.recentOfKinds(sessionId, ['user_message', 'turn_ended'], 50)) {
    if (e.kind === 'unreadable') continue; // says nothing we could go by
    const id = e.payload.clientMessageId;
    if (e.kind === 'user_message' && id !== undefined) open.add(id);
    else if (e.kind === 'turn_ended' && id !== undefined) open.delete(id);
    else if (e.kind === 'turn_ended') open.clear(); // an end that names no prompt (older rows) ends all before it
  }
  for (const id of open) log.append(sessionId, 'turn_ended', { stopReason: 'cancelled', clientMessageId: id, reason: 'recovered' });
}
