import type { SessionViewT } from '../../../shared/contract';
import type { AppState, AppStoreApi } from './app-store';

export const APP_TITLE = 'Switchboard';

/** Pending permission requests in sessions other than the one being looked at. */
export function attentionCount(
  sessions: ReadonlyMap<string, SessionViewT>,
  currentSessionId: string | undefined,
): number {
  let n = 0;
  for (const s of sessions.values()) if (s.id !== currentSessionId) n += s.pendingPermissions;
  return n;
}

export function documentTitle(count: number): string {
  return count > 0 ? `(${count}) ${APP_TITLE}` : APP_TITLE;
}

/**
 * Session titles that deserve a desktop notification between two states: a session not being
 * looked at whose pending count grew, or (while the window is hidden) a new request in the
 * current one. A switch replaces the pending map wholesale, which is not a new request.
 */
export function sessionsToNotify(prev: AppState, next: AppState, documentHidden: boolean): string[] {
  const titles: string[] = [];
  // The first list is not news: requests already pending at startup only set the title.
  if (prev.sessionsLoaded && next.sessionsById !== prev.sessionsById) {
    for (const view of next.sessionsById.values()) {
      if (view.id === next.currentSessionId) continue;
      const before = prev.sessionsById.get(view.id)?.pendingPermissions ?? 0;
      if (view.pendingPermissions > before) titles.push(view.title);
    }
  }
  const sameView =
    prev.currentSessionId === next.currentSessionId && prev.transcript.token === next.transcript.token;
  if (documentHidden && sameView && next.pendingPermissions !== prev.pendingPermissions) {
    const grew = [...next.pendingPermissions.keys()].some((id) => !prev.pendingPermissions.has(id));
    const current = next.currentSessionId ? next.sessionsById.get(next.currentSessionId) : undefined;
    if (grew && current) titles.push(current.title);
  }
  return titles;
}

export interface AttentionEnv {
  setTitle(title: string): void;
  isHidden(): boolean;
  /** Undefined outside Electron: a browser tab only updates its title. */
  notify: ((title: string) => void) | undefined;
}

/** Keeps the window title and desktop notifications in step with the store. */
export function watchAttention(store: AppStoreApi, env: AttentionEnv): () => void {
  let lastTitle = '';
  const apply = (next: AppState, prev: AppState | undefined): void => {
    const title = documentTitle(attentionCount(next.sessionsById, next.currentSessionId));
    if (title !== lastTitle) {
      lastTitle = title;
      env.setTitle(title);
    }
    if (prev && env.notify) for (const t of sessionsToNotify(prev, next, env.isHidden())) env.notify(t);
  };
  apply(store.getState(), undefined);
  return store.subscribe((next, prev) => apply(next, prev));
}
