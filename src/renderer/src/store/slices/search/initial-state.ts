import type { SearchProgressT, SearchResultsT } from '../../../../../shared/contract';

export interface SearchState {
  search: {
    /** What the person typed in the searchbox. */
    query: string;
    /** The answer for `answeredQuery` (it may lag `query` by one request). */
    results: SearchResultsT | undefined;
    answeredQuery: string;
    /** A request is in flight. */
    busy: boolean;
    error: string | undefined;
    /** Indexing older transcripts: results may be incomplete until `done`. */
    progress: SearchProgressT | undefined;
  };
}

export const searchInitialState: SearchState = {
  search: { query: '', results: undefined, answeredQuery: '', busy: false, error: undefined, progress: undefined },
};
