export interface DraftsState {
  /**
   * Unsent composer text by session, as typed in this window (or loaded from the host).
   * A session missing here has not been loaded yet; '' is a known empty draft.
   */
  drafts: ReadonlyMap<string, string>;
}

export const draftsInitialState: DraftsState = {
  drafts: new Map(),
};
