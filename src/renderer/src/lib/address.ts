/**
 * The session a window shows lives in its address (`#/session/<id>`, spelled in
 * `src/shared/session-address.ts`, which the desktop shell reads too), so a tab, a bookmark or
 * a restored desktop window opens it directly. The hash keeps the page's `?token=` untouched.
 */
import { hashFor } from '../../../shared/session-address';

export { hashFor, sessionFromHash } from '../../../shared/session-address';

/** The page's address showing `sessionId`: same document and query (the token), new hash. */
export function addressFor(loc: Pick<Location, 'origin' | 'pathname' | 'search'>, sessionId: string): string {
  return `${loc.origin}${loc.pathname}${loc.search}${hashFor(sessionId)}`;
}
