import { useSyncExternalStore } from 'react';

/** Below this width the window is laid out for a phone (styles/app.css uses the same width). */
export const NARROW_QUERY = '(max-width: 699.98px)';

const media = (): MediaQueryList | undefined => (typeof window === 'undefined' || !window.matchMedia ? undefined : window.matchMedia(NARROW_QUERY));

function subscribe(onChange: () => void): () => void {
  const list = media();
  list?.addEventListener('change', onChange);
  return () => list?.removeEventListener('change', onChange);
}

/** Whether the window is phone-sized now: the sidebar is a drawer and the header's actions a menu. */
export function useNarrow(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => media()?.matches ?? false,
    () => false,
  );
}
