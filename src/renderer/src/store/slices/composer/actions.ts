import type { AvailableCommand, PayloadOf, PromptBlock } from '../../../../../shared/contract';
import type { GetState, SetState } from '../../app-store';
import type { StoreDeps } from '../../deps';
import { lastUserPrompt } from '../transcript/rows';
import type { PendingSend } from './initial-state';

interface SendOptions {
  /** Restart an agent that was stopped after crashing repeatedly (the Retry button). */
  retry?: boolean;
  /** Attachments and `@` mentions, sent after the text. */
  content?: readonly PromptBlock[];
}

export interface ComposerActions {
  /**
   * Sends to the current session, starting one if there is none. A session still being
   * created gets the prompt once it exists. False if nothing was sent.
   */
  sendPrompt(text: string, options?: SendOptions): Promise<boolean>;
  /** Re-sends the newest user prompt as a new message with `retry` (after a crash loop). */
  retryLastPrompt(): Promise<void>;
  cancelTurn(): Promise<void>;
  /** A user_message event arrived: its optimistic row is no longer needed. */
  promptSeen(payload: PayloadOf<'user_message'>): void;
  /**
   * Accepted prompts of `sessionId` (the host has stored them) whose row is no longer needed:
   * a page of it loaded, or the window left it. `ids` limits it to those accepted by then.
   */
  acceptedPromptIds(sessionId: string): string[];
  dropPrompts(ids: readonly string[]): void;
  dismissSendError(): void;
  /** Sends the prompt of a send error that may not have arrived again, with its same id. */
  retrySend(): void;
  pushNotice(text: string): void;
  dismissNotice(id: number): void;
  /** The agent's commands for a session as of `seq`; older news than what is known is ignored. */
  commandsSeen(sessionId: string, seq: number, commands: readonly AvailableCommand[]): void;
  /** Files of the session's folder matching `query` (for `@`); none when the host cannot say. */
  searchFiles(sessionId: string, query: string): Promise<readonly string[]>;
}

/** Each attempt waits (bounded) for the link to come back, so this bounds the total wait. */
const MAX_SEND_ATTEMPTS = 10;

export function createComposerActions(set: SetState, get: GetState, deps: StoreDeps): ComposerActions {
  const { api } = deps;
  let nextNoticeId = 1;

  const updatePending = (id: string, change: ((p: PendingSend) => PendingSend) | undefined): void => {
    const current = get().pendingSends;
    const p = current.get(id);
    if (!p) return;
    const next = new Map(current);
    if (change) next.set(id, change(p));
    else next.delete(id);
    set({ pendingSends: next });
  };

  /**
   * Sends until the host answers. `disconnected` is retried with the SAME clientMessageId (the
   * host runs a prompt once however often it arrives) for as long as the link is down: each
   * attempt waits, bounded, for it to come back. Only a link that is up yet keeps answering
   * `disconnected` ends in a failure, which says the message may not have been sent and keeps
   * the id for `retrySend`.
   */
  const deliver = async (p: PendingSend): Promise<void> => {
    const req = {
      sessionId: p.sessionId,
      clientMessageId: p.clientMessageId,
      text: p.text,
      ...(p.retry ? { retry: true } : {}),
      ...(p.content?.length ? { content: [...p.content] } : {}),
    };
    for (let attemptsWhileUp = 0; ; ) {
      const res = await api['prompt:send'](req);
      if (res.ok) {
        updatePending(p.clientMessageId, (x) => ({ ...x, status: 'accepted' }));
        return;
      }
      if (res.error.code === 'disconnected') {
        if (get().connection !== 'open') continue;
        if (++attemptsWhileUp < MAX_SEND_ATTEMPTS) continue;
      }
      updatePending(p.clientMessageId, undefined);
      set({
        sendError: {
          sessionId: p.sessionId,
          code: res.error.code,
          message: res.error.message,
          text: p.text,
          ...(p.content?.length ? { content: p.content } : {}),
          ...(res.error.code === 'disconnected' ? { unsent: { ...p, status: 'sending' as const } } : {}),
        },
      });
      return;
    }
  };

  return {
    async sendPrompt(text, options = {}) {
      if (text.trim() === '' && !options.content?.length) return false;
      // No session: start one. Its id is current at once, so a second Enter goes there too.
      const sessionId = get().currentSessionId ?? get().startSession();
      const pending: PendingSend = {
        clientMessageId: deps.newId(),
        sessionId,
        text,
        status: 'sending',
        retry: options.retry === true,
        ...(options.content?.length ? { content: options.content } : {}),
      };
      set({
        pendingSends: new Map(get().pendingSends).set(pending.clientMessageId, pending),
        sendError: undefined,
      });
      // A session that exists (the usual case) gets the prompt in this very task: awaiting first
      // would let the view render the pending row before the frame leaves (a few ms of every turn).
      if (!get().isCreating(sessionId)) {
        void deliver(pending);
        return true;
      }
      const createError = await get().whenCreated(sessionId);
      if (createError) {
        updatePending(pending.clientMessageId, undefined);
        set({
          sendError: {
            // The window went back to where it was; that composer offers the text back.
            sessionId: get().currentSessionId ?? '',
            code: createError.code,
            message: createError.message,
            text,
            ...(options.content?.length ? { content: options.content } : {}),
            summary: 'The session could not be started, so the message was not sent.',
          },
        });
        return false;
      }
      void deliver(pending);
      return true;
    },

    async retryLastPrompt() {
      const sessionId = get().currentSessionId;
      // One retry at a time: a double click must not restart the agent twice.
      for (const p of get().pendingSends.values()) if (p.sessionId === sessionId && p.retry && p.status === 'sending') return;
      const text = lastUserPrompt(get().transcript.events);
      if (text === undefined) {
        get().pushNotice('There is no earlier prompt to retry.');
        return;
      }
      await get().sendPrompt(text, { retry: true });
    },

    async cancelTurn() {
      const sessionId = get().currentSessionId;
      if (!sessionId) return;
      const res = await api['prompt:cancel']({ sessionId });
      // invalid_state: the turn ended on its own meanwhile, which is what the user wanted.
      if (!res.ok && res.error.code !== 'invalid_state') get().pushNotice(`Could not stop: ${res.error.message}`);
    },

    promptSeen(payload) {
      if (payload.clientMessageId !== undefined) updatePending(payload.clientMessageId, undefined);
    },

    acceptedPromptIds(sessionId) {
      const ids: string[] = [];
      for (const p of get().pendingSends.values()) {
        if (p.sessionId === sessionId && p.status === 'accepted') ids.push(p.clientMessageId);
      }
      return ids;
    },

    dropPrompts(ids) {
      if (!ids.some((id) => get().pendingSends.has(id))) return;
      const next = new Map(get().pendingSends);
      for (const id of ids) next.delete(id);
      set({ pendingSends: next });
    },

    dismissSendError() {
      set({ sendError: undefined });
    },

    retrySend() {
      const unsent = get().sendError?.unsent;
      if (!unsent) return;
      set({ pendingSends: new Map(get().pendingSends).set(unsent.clientMessageId, unsent), sendError: undefined });
      void deliver(unsent);
    },

    pushNotice(text) {
      const notice = { id: nextNoticeId++, text };
      set({ notices: [...get().notices.slice(-3), notice] });
    },

    dismissNotice(id) {
      set({ notices: get().notices.filter((n) => n.id !== id) });
    },

    async searchFiles(sessionId, query) {
      const res = await api['files:search']({ sessionId, query, limit: 20 });
      return res.ok ? res.value.paths : [];
    },

    commandsSeen(sessionId, seq, commands) {
      const known = get().commandsBySession.get(sessionId);
      if (known && known.seq >= seq) return;
      set({ commandsBySession: new Map(get().commandsBySession).set(sessionId, { seq, commands }) });
    },
  };
}
