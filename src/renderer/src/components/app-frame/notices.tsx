import { useEffect } from 'react';
import { useAppStore } from '../../store/context';
import { composerSelectors } from '../../store/slices/composer/selectors';
import type { Notice } from '../../store/slices/composer/initial-state';

const NOTICE_MS = 6000;

function NoticeItem({ notice }: { notice: Notice }) {
  const dismiss = useAppStore((s) => s.dismissNotice);
  useEffect(() => {
    const t = setTimeout(() => dismiss(notice.id), NOTICE_MS);
    return () => clearTimeout(t);
  }, [notice.id, dismiss]);
  return (
    <div className="notice">
      <span>{notice.text}</span>
      <button type="button" className="link-button" aria-label="Dismiss notice" onClick={() => dismiss(notice.id)}>
        ×
      </button>
    </div>
  );
}

/** Short, non-blocking messages (a polite live region, not an alert: nothing is wrong). */
export function Notices() {
  const notices = useAppStore(composerSelectors.notices);
  return (
    <div className="notices" aria-live="polite">
      {notices.map((n) => (
        <NoticeItem key={n.id} notice={n} />
      ))}
    </div>
  );
}
