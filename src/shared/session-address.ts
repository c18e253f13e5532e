/**
 * How an address names the session it shows: the hash `#/session/<id>`. The renderer keeps its
 * session there (a tab, a bookmark or a restored desktop window opens it directly; the hash
 * keeps the page's `?token=` untouched), and the desktop shell reads it to know which window
 * shows which session. One spelling for both processes.
 */
const PREFIX = '#/session/';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The session a hash (`#/session/<id>`) names; anything else names none. */
export function sessionFromHash(hash: string): string | undefined {
  if (!hash.startsWith(PREFIX)) return undefined;
  let id: string;
  try {
    id = decodeURIComponent(hash.slice(PREFIX.length));
  } catch {
    return undefined; // a malformed escape names no session
  }
  return UUID.test(id) ? id : undefined;
}

export function hashFor(sessionId: string): string {
  return `${PREFIX}${encodeURIComponent(sessionId)}`;
}
