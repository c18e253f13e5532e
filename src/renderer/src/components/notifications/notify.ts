import type { NotifyTarget } from '../../store/attention';

const HEADLINE: Readonly<Record<NotifyTarget['why'], string>> = {
  permission: 'Permission needed',
  question: 'The agent asks you a question',
  finished: 'The agent finished',
};

/** What a notification click posts from the service worker to the page (`sw.ts`). */
export const OPEN_SESSION_MESSAGE = 'switchboard:open-session';

export interface NotifyEnv {
  /** The desktop app: the shell grants notifications to its own page. */
  desktop: boolean;
  /** Shows the session the notification is about. */
  openSession(sessionId: string): void;
  /** The service worker, which phones need to show a notification at all. */
  worker(): Promise<ServiceWorkerRegistration | undefined>;
}

/** Whether this window may show a notification now: granted in a browser, not refused in the desktop app. */
export function mayNotify(desktop: boolean): boolean {
  if (typeof Notification === 'undefined') return false;
  return desktop ? Notification.permission !== 'denied' : Notification.permission === 'granted';
}

/**
 * One notification per session (a newer one replaces the older: same tag). A click shows the
 * session. Where the page cannot make one itself (Chrome on Android), the service worker shows
 * it and its click comes back as `OPEN_SESSION_MESSAGE`.
 */
export function notify(target: NotifyTarget, env: NotifyEnv): void {
  if (!mayNotify(env.desktop)) return;
  const options = { body: target.title || 'Untitled session', tag: target.sessionId, data: { sessionId: target.sessionId } };
  try {
    const n = new Notification(HEADLINE[target.why], options);
    n.onclick = () => {
      window.focus();
      env.openSession(target.sessionId);
      n.close();
    };
  } catch {
    // "Illegal constructor" where only a service worker may notify.
    void env
      .worker()
      .then((registration) => registration?.showNotification(HEADLINE[target.why], options))
      .catch((err: unknown) => console.warn('[switchboard] the notification could not be shown', err));
  }
}
