import type { AppState } from './app-store';

/**
 * What a screen reader should hear, politely, between two states of the same view: a new
 * permission request ("Permission requested: <title>"), a question from the agent ("Question
 * from the agent: <message>") or an error that arrived live while
 * the session is shown. Loading a session (another token, a page, a switch answer's pending
 * requests) is not news, so historical errors are never announced.
 */
export function announcementFor(prev: AppState, next: AppState): string | undefined {
  const sameView =
    prev.currentSessionId === next.currentSessionId &&
    prev.transcript.token === next.transcript.token &&
    prev.transcript.loaded &&
    next.transcript.loaded;
  if (!sameView) return undefined;
  const parts: string[] = [];
  if (next.pendingPermissions !== prev.pendingPermissions) {
    for (const [id, p] of next.pendingPermissions) {
      if (!prev.pendingPermissions.has(id)) parts.push(`Permission requested: ${p.toolCall.title}`);
    }
  }
  if (next.pendingQuestions !== prev.pendingQuestions) {
    for (const [id, q] of next.pendingQuestions) {
      if (!prev.pendingQuestions.has(id)) parts.push(`Question from the agent: ${q.view.question.message}`);
    }
  }
  // New live events are the seqs past the previous lastSeq (an older page or an eviction moves
  // only oldestSeq). Go by seq, not by array: live appends reuse the same array.
  const before = prev.transcript;
  const after = next.transcript;
  if (after.oldestSeq !== undefined && after.lastSeq > before.lastSeq) {
    for (let seq = Math.max(before.lastSeq + 1, after.oldestSeq); seq <= after.lastSeq; seq++) {
      const e = after.events[seq - after.oldestSeq];
      if (e?.kind === 'error') parts.push(`Error: ${e.payload.message || 'The agent reported an error'}`);
    }
  }
  return parts.length > 0 ? parts.join('. ') : undefined;
}
