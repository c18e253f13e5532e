import type { AvailableCommand, PromptBlock } from '../../../../../shared/contract';
import type { ErrorCode } from '../../../../../shared/errors';

export interface PendingSend {
  clientMessageId: string;
  sessionId: string;
  text: string;
  /** `accepted` waits for its user_message event before its optimistic row goes. */
  status: 'sending' | 'accepted';
  /** Sent by Retry: asks the host to restart an agent stopped after a crash loop. */
  retry: boolean;
  /** Attachments and mentions sent after the text. */
  content?: readonly PromptBlock[];
}

export interface SendError {
  /** The session whose composer shows it; '' for the composer shown with no session. */
  sessionId: string;
  code: ErrorCode;
  message: string;
  /** The prompt that was not sent, so the composer can offer it back. */
  text: string;
  /** Its attachments and mentions, offered back with it. */
  content?: readonly PromptBlock[];
  /** Overrides the composer's wording for `code` (e.g. the session could not be created). */
  summary?: string;
  /**
   * Set when the host may have received it (the answer was lost): Retry sends this again with
   * the same clientMessageId, so it runs at most once.
   */
  unsent?: PendingSend;
}

export interface Notice {
  id: number;
  text: string;
}

export interface ComposerState {
  /** Prompts shown before the host echoes them, by clientMessageId. */
  pendingSends: ReadonlyMap<string, PendingSend>;
  sendError: SendError | undefined;
  notices: readonly Notice[];
  /**
   * The agent's latest commands per session (offered when typing `/`), with the seq they are as
   * of: the switch answer's last seq, or the `available_commands` event's own.
   */
  commandsBySession: ReadonlyMap<string, { seq: number; commands: readonly AvailableCommand[] }>;
}

export const composerInitialState: ComposerState = {
  pendingSends: new Map(),
  sendError: undefined,
  notices: [],
  commandsBySession: new Map(),
};
