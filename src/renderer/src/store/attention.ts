import type { SessionViewT } from '../../../shared/contract';
import type { AppState, AppStoreApi } from './app-store';
import { isWaitingForPerson } from '../../../shared/waiting';
import { sessionsChangedIds } from './slices/sessions/initial-state';

const APP_TITLE = 'Switchboard';

/**
 * Sessions waiting for the person: the title's count, the same in every window and the same
 * as the desktop app's dock or taskbar badge (`app/waiting-badge.ts`), the one being looked at
 * included.
 */
export function attentionCount(sessions: ReadonlyMap<string, SessionViewT>): number {
  let n = 0;
  for (const s of sessions.values()) if (isWaitingForPerson(s)) n++;
  return n;
}

type Counted = { sessions: ReadonlyMap<string, SessionViewT> | undefined; count: number };

/**
 * The count for `s`, from the count of an earlier `sessionsById`: only the sessions changed
 * since are looked at when the store's change record says which (`sessionsChanged`).
 */
function countFrom(last: Counted, s: Pick<AppState, 'sessionsById' | 'sessionsChanged'>): Counted {
  if (last.sessions === s.sessionsById) return last;
  const ids = sessionsChangedIds(last.sessions, s);
  if (!ids || !last.sessions) return { sessions: s.sessionsById, count: attentionCount(s.sessionsById) };
  let count = last.count;
  for (const id of ids) {
    const was = last.sessions.get(id);
    const now = s.sessionsById.get(id);
    count += (now && isWaitingForPerson(now) ? 1 : 0) - (was && isWaitingForPerson(was) ? 1 : 0);
  }
  return { sessions: s.sessionsById, count };
}

let counted: Counted = { sessions: undefined, count: 0 };

/** `attentionCount` as a selector: counted again only for the sessions that changed, not on every streamed chunk. */
export function waitingCount(s: Pick<AppState, 'sessionsById' | 'sessionsChanged'>): number {
  counted = countFrom(counted, s);
  return counted.count;
}

export function documentTitle(count: number): string {
  return count > 0 ? `(${count}) ${APP_TITLE}` : APP_TITLE;
}

export interface NotifyTarget {
  sessionId: string;
  title: string;
  /** What waits for the person (a permission request, a question), or `finished`: the turn of the session being watched ended. */
  why: 'permission' | 'question' | 'finished';
}

/**
 * Sessions that deserve a notification between two states: a session not being looked at
 * whose pending count (permissions and questions) grew, or (while the window is hidden) a new
 * request in the current one, or the end of the current one's turn. A switch replaces the
 * pending maps wholesale, which is not a new request.
 */
export function sessionsToNotify(prev: AppState, next: AppState, documentHidden: boolean): NotifyTarget[] {
  const titles: NotifyTarget[] = [];
  // The first list is not news: requests already pending at startup only set the title.
  if (prev.sessionsLoaded && next.sessionsById !== prev.sessionsById) {
    const ids = sessionsChangedIds(prev.sessionsById, next);
    const changed = ids ? ids.flatMap((id) => next.sessionsById.get(id) ?? []) : next.sessionsById.values();
    for (const view of changed) {
      if (view.id === next.currentSessionId) continue;
      const was = prev.sessionsById.get(view.id);
      const before = (was?.pendingPermissions ?? 0) + (was?.pendingQuestions ?? 0);
      if (view.pendingPermissions + view.pendingQuestions <= before) continue;
      const asked = view.pendingQuestions > (was?.pendingQuestions ?? 0);
      titles.push({ sessionId: view.id, title: view.title, why: asked ? 'question' : 'permission' });
    }
  }
  const sameView =
    prev.currentSessionId === next.currentSessionId && prev.transcript.token === next.transcript.token;
  const current = next.currentSessionId ? next.sessionsById.get(next.currentSessionId) : undefined;
  if (documentHidden && sameView && current && (next.pendingPermissions !== prev.pendingPermissions || next.pendingQuestions !== prev.pendingQuestions)) {
    const asked = [...next.pendingQuestions.keys()].some((id) => !prev.pendingQuestions.has(id));
    const requested = [...next.pendingPermissions.keys()].some((id) => !prev.pendingPermissions.has(id));
    if (asked || requested) titles.push({ sessionId: current.id, title: current.title, why: asked ? 'question' : 'permission' });
  }
  // The person left the window while the agent worked: say when it is done.
  if (documentHidden && sameView && current && prev.sessionsById.get(current.id)?.running === true && !current.running) {
    titles.push({ sessionId: current.id, title: current.title, why: 'finished' });
  }
  return titles;
}

interface AttentionEnv {
  setTitle(title: string): void;
  /** The user is not looking at the window (hidden, or another window has the focus). */
  isHidden(): boolean;
  /** Undefined: this window only updates its title. */
  notify: ((target: NotifyTarget) => void) | undefined;
}

/** What the title and the notifications depend on; nothing else is looked at. */
function attentionInputsChanged(prev: AppState, next: AppState): boolean {
  return (
    prev.sessionsById !== next.sessionsById ||
    prev.currentSessionId !== next.currentSessionId ||
    prev.pendingPermissions !== next.pendingPermissions ||
    prev.pendingQuestions !== next.pendingQuestions ||
    prev.transcript.token !== next.transcript.token ||
    prev.sessionsLoaded !== next.sessionsLoaded
  );
}

/**
 * Keeps the window title and desktop notifications in step with the store. Store changes that
 * touch none of their inputs (every streamed chunk) cost one comparison, not a walk of every
 * session.
 */
export function watchAttention(store: AppStoreApi, env: AttentionEnv): () => void {
  let lastTitle = '';
  let lastCount: Counted = { sessions: undefined, count: 0 };
  const count = (s: AppState): number => {
    lastCount = countFrom(lastCount, s);
    return lastCount.count;
  };
  const apply = (next: AppState, prev: AppState | undefined): void => {
    const title = documentTitle(count(next));
    if (title !== lastTitle) {
      lastTitle = title;
      env.setTitle(title);
    }
    if (prev && env.notify) for (const t of sessionsToNotify(prev, next, env.isHidden())) env.notify(t);
  };
  apply(store.getState(), undefined);
  return store.subscribe((next, prev) => {
    if (attentionInputsChanged(prev, next)) apply(next, prev);
  });
}
