import type { SessionEventT, WireError } from '../../../../../shared/contract';
import { emptyTranscriptData, type TranscriptData } from './merge';

export interface TranscriptView extends TranscriptData {
  sessionId: string | undefined;
  /** Changes on every switch; an answer that comes back under an old token is dropped. */
  token: number;
  /** The newest page has been applied; until then pushed events wait in `buffer`. */
  loaded: boolean;
  loadingOlder: boolean;
  buffer: readonly SessionEventT[];
  error: WireError | undefined;
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
  },
};
