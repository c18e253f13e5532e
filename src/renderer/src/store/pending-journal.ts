/** How many pushed changes are remembered for `merge`. */
const JOURNAL_LIMIT = 500;

/**
 * What was pushed about requests that wait for the person (permissions, questions) since a
 * snapshot was asked for: a switch answer is applied as of when it was asked (`mark`), so a
 * request resolved since stays gone and one pushed since stays, and an older answer never
 * undoes newer pushed state.
 */
export class PendingJournal<V extends { requestId: string; sessionId: string }> {
  private counter = 0;
  private readonly requested = new Map<string, { at: number; request: V }>();
  private readonly resolved = new Map<string, number>();

  noteRequested(request: V): void {
    remember(this.requested, request.requestId, { at: ++this.counter, request });
  }

  noteResolved(requestId: string): void {
    remember(this.resolved, requestId, ++this.counter);
  }

  /** A marker of the pushes applied so far (take it when a snapshot is asked for). */
  mark(): number {
    return this.counter;
  }

  /** `list` (of `sessionId`, asked for at `mark`) with what was pushed for that session since. */
  merge(list: readonly V[], mark: number, sessionId: string | undefined): V[] {
    const gone = (id: string) => (this.resolved.get(id) ?? 0) > mark;
    const next = list.filter((p) => !gone(p.requestId));
    const have = new Set(next.map((p) => p.requestId));
    for (const [id, { at, request }] of this.requested) {
      if (at > mark && request.sessionId === sessionId && !have.has(id) && !gone(id)) next.push(request);
    }
    return next;
  }
}

function remember<V>(m: Map<string, V>, k: string, v: V): void {
  m.delete(k);
  m.set(k, v);
  if (m.size > JOURNAL_LIMIT) m.delete(m.keys().next().value as string);
}

/** `m` without `k` (the same map when it has no `k`): state maps are replaced, never mutated. */
export function withoutKey<K, V>(m: ReadonlyMap<K, V>, k: K): ReadonlyMap<K, V> {
  if (!m.has(k)) return m;
  const next = new Map(m);
  next.delete(k);
  return next;
}

/** A selector of a map's values as an array that stays the same object until the map changes. */
export function stableValues<V>(): (m: ReadonlyMap<string, V>) => readonly V[] {
  const empty: readonly V[] = [];
  let lastMap: ReadonlyMap<string, V> | undefined;
  let lastList = empty;
  return (m) => {
    if (m !== lastMap) {
      lastMap = m;
      lastList = m.size === 0 ? empty : [...m.values()];
    }
    return lastList;
  };
}
