import type { SessionEventT, WireError } from '../../../../../shared/contract';
import { emptyTranscriptData, type TranscriptData } from './merge';
import { emptyRowList, type RowList } from './rows';

export interface TranscriptView extends TranscriptData {
  sessionId: string | undefined;
  /** Changes on every switch; an answer that comes back under an old token is dropped. */
  token: number;
  /** The newest page has been applied; until then pushed events wait in `buffer`. */
  loaded: boolean;
  loadingOlder: boolean;
  buffer: readonly SessionEventT[];
  error: WireError | undefined;
  /**
   * The view is at the bottom, following new output (reported by the view). Only then are
   * the oldest events evicted past the cap; a user reading older output keeps it.
   */
  following: boolean;
  /** `events` grouped into rows, kept in step incrementally by the transcript actions. */
  rows: RowList;
  /**
   * The loaded events stop before the host's newest (a search hit deep in the transcript was
   * opened): live events are not applied until the view reaches the end again.
   */
  hasNewer: boolean;
  loadingNewer: boolean;
  /**
   * The event the view scrolls to once and marks (a search hit); `nonce` tells two opens apart,
   * `applied` says the view has scrolled to it.
   */
  focus: { seq: number; nonce: number; applied: boolean } | undefined;
  /**
   * Set by a switch's newest page: events past this seq (the switch answer's last seq) reached
   * the view while its page loaded, so they are news, announced as live ones once the page is
   * in (a turn that ended meanwhile). Undefined: the page holds nothing new to the person (Jump
   * to latest, a search hit's page).
   */
  newsAfter: number | undefined;
}

export interface TranscriptState {
  transcript: TranscriptView;
}

export const transcriptInitialState: TranscriptState = {
  transcript: {
    ...emptyTranscriptData,
    sessionId: undefined,
    token: 0,
    loaded: false,
    loadingOlder: false,
    buffer: [],
    error: undefined,
    following: true,
    rows: emptyRowList,
    hasNewer: false,
    loadingNewer: false,
    focus: undefined,
    newsAfter: undefined,
  },
};
