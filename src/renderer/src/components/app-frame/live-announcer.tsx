import { useEffect, useState } from 'react';
import { announcementFor } from '../../store/announce';
import { useStoreApi } from '../../store/context';

/** The same words twice in a row are still news: a trailing no-break space alternates so the region changes. */
const nudge = (text: string, count: number): string => (count % 2 === 0 ? text : `${text}\u00a0`);

/**
 * The live regions for news in the shown session (store/announce.ts): a polite one (a turn
 * ended, how; a live error) and an assertive one (the agent waits for the person). Both stay in
 * the DOM, empty, so screen readers watch them from the start. Other sessions' requests are
 * counted in the window title and the sidebar instead.
 */
export function LiveAnnouncer() {
  const store = useStoreApi();
  const [said, setSaid] = useState({ polite: '', assertive: '', count: 0 });
  useEffect(
    () =>
      store.subscribe((next, prev) => {
        const a = announcementFor(prev, next);
        if (!a) return;
        setSaid((s) => ({
          polite: a.polite !== undefined ? nudge(a.polite, s.count) : s.polite,
          assertive: a.assertive !== undefined ? nudge(a.assertive, s.count) : s.assertive,
          count: s.count + 1,
        }));
      }),
    [store],
  );
  return (
    <>
      <div className="visually-hidden" aria-live="polite" aria-atomic="true" data-live="polite">
        {said.polite}
      </div>
      <div className="visually-hidden" aria-live="assertive" aria-atomic="true" data-live="assertive">
        {said.assertive}
      </div>
    </>
  );
}
