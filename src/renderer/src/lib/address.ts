/**
 * The session a window shows lives in its address (`#/session/<id>`), so a tab, a bookmark or a
 * restored desktop window opens it directly. The hash keeps the page's `?token=` untouched.
 */
const PREFIX = '#/session/';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function sessionFromHash(hash: string): string | undefined {
  if (!hash.startsWith(PREFIX)) return undefined;
  const id = decodeURIComponent(hash.slice(PREFIX.length));
  return UUID.test(id) ? id : undefined;
}

export function hashFor(sessionId: string): string {
  return `${PREFIX}${encodeURIComponent(sessionId)}`;
}

/** The page's address showing `sessionId`: same document and query (the token), new hash. */
export function addressFor(loc: Pick<Location, 'origin' | 'pathname' | 'search'>, sessionId: string): string {
  return `${loc.origin}${loc.pathname}${loc.search}${hashFor(sessionId)}`;
}
