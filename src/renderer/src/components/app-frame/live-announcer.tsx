import { useEffect, useState } from 'react';
import { announcementFor } from '../../store/announce';
import { useStoreApi } from '../../store/context';

/** The one polite live region for news in the shown session (permission requests, live errors). */
export function LiveAnnouncer() {
  const store = useStoreApi();
  const [text, setText] = useState('');
  useEffect(
    () =>
      store.subscribe((next, prev) => {
        const said = announcementFor(prev, next);
        if (said !== undefined) setText(said);
      }),
    [store],
  );
  return (
    <div className="visually-hidden" aria-live="polite" aria-atomic="true">
      {text}
    </div>
  );
}
