import type { EventOf, TurnStopReason } from '../../../shared/contract';
import type { AppState } from './app-store';

/**
 * What a screen reader hears about the session being viewed, between two states of that view.
 * `assertive` interrupts: the agent is waiting for the person (a permission request, "Permission
 * requested: <title>"; a question, "Question from the agent: <message>"). `polite` waits its
 * turn: a turn ended, and how; an error that arrived live.
 */
export interface Announcement {
  polite?: string;
  assertive?: string;
}

/** How a turn ended, in words: the stop reason the agent (or the host) recorded. */
const TURN_ENDED: Readonly<Record<TurnStopReason, string>> = {
  end_turn: 'The agent finished',
  cancelled: 'The turn was stopped',
  error: 'The turn failed',
  max_tokens: 'The turn stopped: the agent reached its token limit',
  max_turn_requests: 'The turn stopped: the agent reached its request limit',
  refusal: 'The agent refused to continue',
};

export function turnEndedWords(payload: EventOf<'turn_ended'>['payload']): string {
  return TURN_ENDED[payload.stopReason];
}

/**
 * The announcements between two states of the same view. Loading a session (another token, a
 * page, a switch answer's pending requests) is not news, so history is never announced: only
 * events past the previous last seq and requests that were not pending before. The page a switch
 * loads is history up to the switch answer's last seq (`newsAfter`); what it holds past that
 * reached the view while it loaded, and is news (a turn that ended in the meantime).
 */
export function announcementFor(prev: AppState, next: AppState): Announcement | undefined {
  const sameView =
    prev.currentSessionId === next.currentSessionId &&
    prev.transcript.token === next.transcript.token &&
    next.transcript.loaded;
  if (!sameView) return undefined;
  // Just loaded: only events past the switch answer's last seq, and no requests (the answer's).
  const pageCameIn = !prev.transcript.loaded;
  const newsAfter = pageCameIn ? next.transcript.newsAfter : prev.transcript.lastSeq;
  if (newsAfter === undefined) return undefined;
  const urgent: string[] = [];
  if (!pageCameIn && next.pendingPermissions !== prev.pendingPermissions) {
    for (const [id, p] of next.pendingPermissions) {
      if (!prev.pendingPermissions.has(id)) urgent.push(`Permission requested: ${p.toolCall.title}`);
    }
  }
  if (!pageCameIn && next.pendingQuestions !== prev.pendingQuestions) {
    for (const [id, q] of next.pendingQuestions) {
      if (!prev.pendingQuestions.has(id)) urgent.push(`Question from the agent: ${q.view.question.message}`);
    }
  }
  const news: string[] = [];
  // New live events are the seqs past the previous lastSeq (an older page or an eviction moves
  // only oldestSeq). Go by seq, not by array: live appends reuse the same array.
  const after = next.transcript;
  if (after.oldestSeq !== undefined && after.lastSeq > newsAfter) {
    for (let seq = Math.max(newsAfter + 1, after.oldestSeq); seq <= after.lastSeq; seq++) {
      const e = after.events[seq - after.oldestSeq];
      if (e?.kind === 'error') news.push(`Error: ${e.payload.message || 'The agent reported an error'}`);
      else if (e?.kind === 'turn_ended') news.push(turnEndedWords(e.payload));
    }
  }
  if (urgent.length === 0 && news.length === 0) return undefined;
  return {
    ...(news.length > 0 ? { polite: news.join('. ') } : {}),
    ...(urgent.length > 0 ? { assertive: urgent.join('. ') } : {}),
  };
}
