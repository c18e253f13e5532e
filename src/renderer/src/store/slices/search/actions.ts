import type { SearchProgressT } from '../../../../../shared/contract';
import type { GetState, SetState } from '../../app-store';
import type { StoreDeps } from '../../deps';
import type { SearchState } from './initial-state';

export interface SearchActions {
  /** The searchbox changed: asks the host, one request at a time, always ending on the latest text. */
  setSearchQuery(query: string): void;
  /** Indexing of older transcripts moved on (pushed, or from host:info). */
  searchProgress(progress: SearchProgressT | undefined): void;
}

export function createSearchActions(set: SetState, get: GetState, deps: StoreDeps): SearchActions {
  const { api } = deps;
  const patch = (change: Partial<SearchState['search']>): void => set({ search: { ...get().search, ...change } });

  /**
   * One request in flight; typing meanwhile only updates `query`, and the answer's arrival
   * sends the newest text. So a fast typist costs one query per answer, never a queue of
   * stale ones, and the last thing shown is always for the last thing typed.
   */
  const run = async (): Promise<void> => {
    const query = get().search.query;
    if (query.trim() === '') {
      patch({ results: undefined, answeredQuery: '', busy: false, error: undefined });
      return;
    }
    patch({ busy: true });
    const res = await api['search:query']({ query, limit: 20 });
    if (res.ok) {
      patch({ results: res.value, answeredQuery: query, error: undefined, ...(res.value.indexing ? { progress: res.value.indexing } : {}) });
    } else {
      patch({ error: res.error.message, answeredQuery: query });
    }
    if (get().search.query !== query) await run();
    else patch({ busy: false });
  };

  return {
    setSearchQuery(query) {
      const busy = get().search.busy;
      patch({ query });
      if (!busy) void run();
    },

    searchProgress(progress) {
      patch({ progress: progress && !progress.done ? progress : undefined });
    },
  };
}
