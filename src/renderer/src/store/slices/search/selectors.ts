import type { AppState } from '../../app-store';

export const searchSelectors = {
  query: (s: AppState) => s.search.query,
  results: (s: AppState) => s.search.results,
  answeredQuery: (s: AppState) => s.search.answeredQuery,
  busy: (s: AppState) => s.search.busy,
  error: (s: AppState) => s.search.error,
  progress: (s: AppState) => s.search.progress,
};
