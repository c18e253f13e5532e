import type { Api } from '../../../shared/contract';

/** What the store needs from the outside world; tests pass fakes. */
export interface StoreDeps {
  api: Api;
  newId: () => string;
  /** Remembers the current session across reloads (localStorage in the app). */
  lastSession: { get(): string | undefined; set(id: string): void };
  /** Events per transcript page. */
  pageSize?: number;
}

export const DEFAULT_PAGE_SIZE = 200;
