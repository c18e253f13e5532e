import { useEffect, useRef, type FormEvent, type KeyboardEvent } from 'react';
import type { ErrorCode } from '../../../../shared/errors';
import { useAppStore } from '../../store/context';
import { composerSelectors } from '../../store/slices/composer/selectors';
import { sessionsSelectors } from '../../store/slices/sessions/selectors';
import { RunStatus } from './run-status';

const SEND_ERROR_TEXT: Partial<Record<ErrorCode, string>> = {
  agent_unavailable: 'The agent could not be started.',
  agent_exited: 'The agent exited before taking the message.',
  agent_error: 'The agent rejected the message.',
  auth_required: 'Sign in first: the agent will not take messages until you do.',
  crash_loop: 'The agent keeps crashing, so it was not restarted.',
  invalid_state: 'The session cannot take a message right now.',
  not_found: 'This session no longer exists.',
  shutting_down: 'The host is shutting down.',
  disconnected: 'The message may not have been sent: the connection to the host was lost.',
  invalid_request: 'The message was rejected.',
};

export function Composer({ sessionId }: { sessionId: string }) {
  // The draft lives in the store (and the host): it survives switching, reloads and restarts.
  const text = useAppStore((s) => s.drafts.get(sessionId) ?? '');
  const editDraft = useAppStore((s) => s.editDraft);
  const clearDraft = useAppStore((s) => s.clearDraft);
  const loadDraft = useAppStore((s) => s.loadDraft);
  const input = useRef<HTMLTextAreaElement>(null);
  const running = useAppStore(sessionsSelectors.isCurrentRunning);
  const sendError = useAppStore(composerSelectors.sendErrorForCurrent);
  const sendPrompt = useAppStore((s) => s.sendPrompt);
  const cancelTurn = useAppStore((s) => s.cancelTurn);
  const dismissSendError = useAppStore((s) => s.dismissSendError);
  const retrySend = useAppStore((s) => s.retrySend);

  // Keyed by session, so this runs after every switch and New session: ready to type.
  useEffect(() => {
    input.current?.focus({ preventScroll: true });
    void loadDraft(sessionId);
  }, [loadDraft, sessionId]);

  const setText = (value: string) => editDraft(sessionId, value);

  const send = () => {
    if (text.trim() === '') return;
    const sending = text;
    clearDraft(sessionId);
    void sendPrompt(sending);
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    send();
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    // Escape stops the running turn (the text stays); with nothing running it does nothing here.
    if (e.key === 'Escape' && running && !e.nativeEvent.isComposing) {
      e.preventDefault();
      void cancelTurn();
      return;
    }
    // isComposing: Enter that confirms an IME candidate must not send.
    if (e.key === 'Enter' && !e.shiftKey && !e.altKey && !e.ctrlKey && !e.metaKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      send();
    }
  };

  return (
    <form className="composer" onSubmit={onSubmit}>
      {sendError ? (
        <div className="composer-error" role="alert">
          <span>
            {sendError.summary ?? SEND_ERROR_TEXT[sendError.code] ?? 'The message was not sent.'}{' '}
            <span className="muted">{sendError.message}</span>
          </span>
          {sendError.unsent ? (
            // Same clientMessageId: if the host did get it, it is not run twice.
            <button type="button" className="link-button" onClick={retrySend}>
              Retry sending
            </button>
          ) : null}
          {text === '' && !sendError.unsent ? (
            <button
              type="button"
              className="link-button"
              onClick={() => {
                setText(sendError.text);
                input.current?.focus();
              }}
            >
              Restore message
            </button>
          ) : null}
          <button type="button" className="link-button" onClick={dismissSendError}>
            Dismiss
          </button>
        </div>
      ) : null}
      <textarea
        ref={input}
        aria-label="Message"
        className="composer-input"
        rows={3}
        value={text}
        placeholder="Message the agent (Enter to send, Shift+Enter for a new line)"
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
      />
      <div className="composer-bar">
        <RunStatus />
        <span className="spacer" />
        {running ? (
          <button type="button" className="button-secondary" onClick={() => void cancelTurn()}>
            Stop
          </button>
        ) : null}
        <button type="submit" className="button-primary">
          Send
        </button>
      </div>
    </form>
  );
}
