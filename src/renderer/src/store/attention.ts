import type { SessionViewT } from '../../../shared/contract';
import type { AppState, AppStoreApi } from './app-store';
import { isWaitingForPerson } from '../../../shared/waiting';

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

export function documentTitle(count: number): string {
  return count > 0 ? `(${count}) ${APP_TITLE}` : APP_TITLE;
}

export interface NotifyTarget {
  sessionId: string;
  title: string;
}

/**
 * Sessions that deserve a desktop notification between two states: a session not being
 * looked at whose pending count (permissions and questions) grew, or (while the window is hidden) a new request in the
 * current one. A switch replaces the pending map wholesale, which is not a new request.
 */
export function sessionsToNotify(prev: AppState, next: AppState, documentHidden: boolean): NotifyTarget[] {
  const titles: NotifyTarget[] = [];
  // The first list is not news: requests already pending at startup only set the title.
  if (prev.sessionsLoaded && next.sessionsById !== prev.sessionsById) {
    for (const view of next.sessionsById.values()) {
      if (view.id === next.currentSessionId) continue;
      const was = prev.sessionsById.get(view.id);
      const before = (was?.pendingPermissions ?? 0) + (was?.pendingQuestions ?? 0);
      if (view.pendingPermissions + view.pendingQuestions > before) titles.push({ sessionId: view.id, title: view.title });
    }
  }
  const sameView =
    prev.currentSessionId === next.currentSessionId && prev.transcript.token === next.transcript.token;
  if (documentHidden && sameView && (next.pendingPermissions !== prev.pendingPermissions || next.pendingQuestions !== prev.pendingQuestions)) {
    const grew =
      [...next.pendingPermissions.keys()].some((id) => !prev.pendingPermissions.has(id)) ||
      [...next.pendingQuestions.keys()].some((id) => !prev.pendingQuestions.has(id));
    const current = next.currentSessionId ? next.sessionsById.get(next.currentSessionId) : undefined;
    if (grew && current) titles.push({ sessionId: current.id, title: current.title });
  }
  return titles;
}

interface AttentionEnv {
  setTitle(title: string): void;
  /** The user is not looking at the window (hidden, or another window has the focus). */
  isHidden(): boolean;
  /** Undefined outside Electron: a browser tab only updates its title. */
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
  let lastCount = { sessions: undefined as unknown, count: 0 };
  const count = (s: AppState): number => {
    if (lastCount.sessions !== s.sessionsById) lastCount = { sessions: s.sessionsById, count: attentionCount(s.sessionsById) };
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
