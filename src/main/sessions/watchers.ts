/** Which windows watch which sessions, both ways. A window may watch several sessions. */
export class Watchers {
  private readonly bySession = new Map<string, Set<string>>();
  private readonly byClient = new Map<string, Set<string>>();

  /** Returns true if the window was not watching the session before. */
  add(clientId: string, sessionId: string): boolean {
    const clients = this.bySession.get(sessionId) ?? new Set<string>();
    if (clients.has(clientId)) return false;
    clients.add(clientId);
    this.bySession.set(sessionId, clients);
    const sessions = this.byClient.get(clientId) ?? new Set<string>();
    sessions.add(sessionId);
    this.byClient.set(clientId, sessions);
    return true;
  }

  /** Returns true if the window was watching the session. Removing twice changes nothing. */
  remove(clientId: string, sessionId: string): boolean {
    const clients = this.bySession.get(sessionId);
    if (!clients?.delete(clientId)) return false;
    if (clients.size === 0) this.bySession.delete(sessionId);
    const sessions = this.byClient.get(clientId);
    sessions?.delete(sessionId);
    if (sessions && sessions.size === 0) this.byClient.delete(clientId);
    return true;
  }

  /** Stops a window watching everything; returns the sessions it watched. */
  removeClient(clientId: string): string[] {
    const sessions = [...(this.byClient.get(clientId) ?? [])];
    for (const sessionId of sessions) this.remove(clientId, sessionId);
    return sessions;
  }

  clientsOf(sessionId: string): ReadonlySet<string> {
    return this.bySession.get(sessionId) ?? new Set();
  }

  count(sessionId: string): number {
    return this.bySession.get(sessionId)?.size ?? 0;
  }

  sessionsOf(clientId: string): ReadonlySet<string> {
    return this.byClient.get(clientId) ?? new Set();
  }
}
