import { useState } from 'react';
import { useAppStore } from '../../store/context';

type Permission = NotificationPermission | 'unsupported';

const current = (): Permission => (typeof Notification === 'undefined' ? 'unsupported' : Notification.permission);

/**
 * In a browser (`switchboard serve`): ask to show notifications when a watched session's turn
 * ends or a session needs the person, as the desktop app does. Asked only when the person
 * presses the button, never at load. The desktop app needs no such step.
 */
export function NotificationsSetting() {
  const headless = useAppStore((s) => s.hostInfo?.headless === true);
  const [permission, setPermission] = useState<Permission>(current);
  if (!headless) return null;
  return (
    <div className="field notifications-setting">
      <span className="field-label">Notifications</span>
      {permission === 'default' ? (
        <div className="row">
          <button
            type="button"
            className="button-secondary"
            onClick={() => {
              void Notification.requestPermission().then(setPermission, () => setPermission(current()));
            }}
          >
            Turn on notifications
          </button>
        </div>
      ) : null}
      <span className="field-hint" aria-live="polite">
        {permission === 'granted'
          ? 'On: this browser tells you when a session needs you or its turn ends while you look elsewhere.'
          : permission === 'denied'
            ? "Blocked in this browser's settings for this site."
            : permission === 'unsupported'
              ? 'This browser cannot show notifications.'
              : 'Off: only the tab title counts the sessions that need you.'}
      </span>
    </div>
  );
}
