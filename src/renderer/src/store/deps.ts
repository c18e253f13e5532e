import type { Api } from '../../../shared/contract';
import type { FrameScheduler, Pace } from './frame';

/** What the store needs from the outside world; tests pass fakes. */
export interface StoreDeps {
  api: Api;
  newId: () => string;
  /** Remembers the current session across reloads (localStorage in the app). */
  lastSession: { get(): string | undefined; set(id: string): void };
  /**
   * Opens the session's address in a new browser tab (false if the browser refused). Absent in
   * the desktop app, where `windows:open` asks the host for a window.
   */
  openTab?: (sessionId: string) => boolean;
  /** Hands an exported file to the browser as a download (`Export…` from a headless host). */
  download?: (fileName: string, mimeType: string, text: string) => void;
  /** Events per transcript page. */
  pageSize?: number;
  /** Most events the window keeps loaded while it follows the stream (tests lower it). */
  transcriptCap?: number;
  /**
   * When the rows of live events are regrouped for the view: the next animation frame in the
   * app. Without it they are regrouped on every event (tests).
   */
  scheduleFrame?: FrameScheduler;
  /**
   * With `scheduleFrame`: the rows of a streaming transcript are regrouped (and the view
   * re-rendered) at most this often; the first event after a quiet spell still shows at the
   * next frame. Unset: every frame.
   */
  rowsPace?: Pace;
  /** How long typing pauses before a draft is saved to the host (default 400 ms). */
  draftSaveDelayMs?: number;
  /** After this long without a word from the agent a running turn says so (default 10 s). */
  silenceAfterMs?: number;
}

export const DEFAULT_PAGE_SIZE = 200;
/** See StoreDeps.transcriptCap. */
export const DEFAULT_TRANSCRIPT_CAP = 5_000;
