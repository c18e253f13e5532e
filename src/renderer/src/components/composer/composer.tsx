import { useCallback, useEffect, useLayoutEffect, useRef, useState, type ClipboardEvent, type DragEvent, type FormEvent, type KeyboardEvent } from 'react';
import type { PromptBlock } from '../../../../shared/contract';
import type { ErrorCode } from '../../../../shared/errors';
import { mentionedPaths } from '../../lib/completion';
import { useAppStore } from '../../store/context';
import { composerSelectors } from '../../store/slices/composer/selectors';
import { sessionsSelectors } from '../../store/slices/sessions/selectors';
import { AttachmentChip } from '../attachments/attachment-chip';
import { CompletionPopup } from './completion-popup';
import { RunStatus } from './run-status';
import { useAttachments } from './use-attachments';
import { useCompletion } from './use-completion';

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

const hasFiles = (types: readonly string[]): boolean => types.includes('Files');

export function Composer({ sessionId }: { sessionId: string }) {
  // The draft's text lives in the store (and the host): it survives switching, reloads and
  // restarts. Attachments stay with this composer (drafts keep text).
  const text = useAppStore((s) => s.drafts.get(sessionId) ?? '');
  const editDraft = useAppStore((s) => s.editDraft);
  const clearDraft = useAppStore((s) => s.clearDraft);
  const loadDraft = useAppStore((s) => s.loadDraft);
  const [caret, setCaret] = useState(0);
  const [dragging, setDragging] = useState(false);
  const input = useRef<HTMLTextAreaElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  /** Where the caret goes once React has put a completed text in the box. */
  const caretAfterRender = useRef<number | undefined>(undefined);
  const running = useAppStore(sessionsSelectors.isCurrentRunning);
  const session = useAppStore(sessionsSelectors.currentSession);
  const agentName = useAppStore((s) => (session ? sessionsSelectors.agentName(s, session.agentId) : 'The agent'));
  const commands = useAppStore(composerSelectors.commandsForCurrent);
  const sendError = useAppStore(composerSelectors.sendErrorForCurrent);
  const sendPrompt = useAppStore((s) => s.sendPrompt);
  const cancelTurn = useAppStore((s) => s.cancelTurn);
  const dismissSendError = useAppStore((s) => s.dismissSendError);
  const retrySend = useAppStore((s) => s.retrySend);
  const searchFilesOf = useAppStore((s) => s.searchFiles);
  const searchFiles = useCallback((query: string) => searchFilesOf(sessionId, query), [searchFilesOf, sessionId]);
  const attachments = useAttachments(sessionId, session?.promptCapabilities, agentName);

  // Keyed by session, so this runs after every switch and New session: ready to type.
  useEffect(() => {
    input.current?.focus({ preventScroll: true });
    void loadDraft(sessionId);
  }, [loadDraft, sessionId]);

  useLayoutEffect(() => {
    const at = caretAfterRender.current;
    if (at === undefined || !input.current) return;
    caretAfterRender.current = undefined;
    input.current.setSelectionRange(at, at);
  });

  const setText = (value: string) => editDraft(sessionId, value);

  const completion = useCompletion({
    sessionId,
    text,
    caret,
    commands,
    searchFiles,
    replace: (next, at) => {
      setText(next);
      setCaret(at);
      caretAfterRender.current = at;
    },
  });

  const send = () => {
    const mentions: PromptBlock[] = mentionedPaths(text, completion.chosen).map((path) => ({ type: 'mention', path }));
    const content = [...attachments.items.map((a) => a.block), ...mentions];
    if (text.trim() === '' && content.length === 0) return;
    // The prompt leaves first: the host answers requests in order, and the draft's clearing is
    // a write it need not make before it starts the turn.
    void sendPrompt(text, content.length > 0 ? { content } : {});
    clearDraft(sessionId);
    setCaret(0);
    attachments.clear();
    completion.forgetChosen();
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    send();
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    // The completion popup takes its keys first (its Escape closes it).
    if (completion.onKeyDown(e)) return;
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

  const attach = (files: readonly File[]) => {
    if (files.length > 0) void attachments.add(files);
  };

  // Only a paste that carries files is taken over; pasted text goes in the box as usual.
  const onPaste = (e: ClipboardEvent<HTMLTextAreaElement>) => {
    const files = [...e.clipboardData.files];
    if (files.length === 0) return;
    e.preventDefault();
    attach(files);
  };

  const onDragOver = (e: DragEvent) => {
    if (!hasFiles([...e.dataTransfer.types])) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = 'copy';
    setDragging(true);
  };

  const onDrop = (e: DragEvent) => {
    if (!hasFiles([...e.dataTransfer.types])) return;
    e.preventDefault();
    setDragging(false);
    attach([...e.dataTransfer.files]);
  };

  const restoreMessage = (restore: { text: string; content?: readonly PromptBlock[] }) => {
    setText(restore.text);
    if (restore.content) {
      attachments.restore(restore.content);
      completion.restoreChosen(restore.content.flatMap((b) => (b.type === 'mention' ? [b.path] : [])));
    }
    input.current?.focus();
  };

  return (
    <form
      className={`composer${dragging ? ' is-dropping' : ''}`}
      onSubmit={onSubmit}
      onDragOver={onDragOver}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
    >
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
          {text === '' && attachments.items.length === 0 && !sendError.unsent ? (
            <button type="button" className="link-button" onClick={() => restoreMessage(sendError)}>
              Restore message
            </button>
          ) : null}
          <button type="button" className="link-button" onClick={dismissSendError}>
            Dismiss
          </button>
        </div>
      ) : null}
      {attachments.error ? (
        <div className="composer-error" role="alert">
          <span>{attachments.error}</span>
          <button type="button" className="link-button" onClick={attachments.dismissError}>
            Dismiss
          </button>
        </div>
      ) : null}
      {attachments.items.length > 0 ? (
        <ul className="attachment-list" aria-label="Attachments to send">
          {attachments.items.map((a) => (
            <AttachmentChip key={a.id} attachment={a.record} onRemove={() => attachments.remove(a.id)} />
          ))}
        </ul>
      ) : null}
      <div className="composer-field">
        {completion.open && completion.trigger ? (
          <CompletionPopup kind={completion.trigger.kind} options={completion.options} active={completion.active} onChoose={completion.choose} />
        ) : null}
        <textarea
          ref={input}
          role="combobox"
          aria-label="Message"
          aria-autocomplete="list"
          {...completion.aria}
          className="composer-input"
          rows={3}
          value={text}
          placeholder="Message the agent (Enter to send, Shift+Enter for a new line, / for commands, @ for files)"
          onChange={(e) => {
            setText(e.target.value);
            setCaret(e.target.selectionStart);
          }}
          onSelect={(e) => setCaret(e.currentTarget.selectionStart)}
          onKeyDown={onKeyDown}
          onPaste={onPaste}
        />
      </div>
      <div className="composer-bar">
        <button type="button" className="button-secondary" onClick={() => fileInput.current?.click()}>
          Attach
        </button>
        <input
          ref={fileInput}
          type="file"
          multiple
          hidden
          aria-label="Attach files"
          onChange={(e) => {
            attach([...(e.target.files ?? [])]);
            // The same file can be picked again after removing it.
            e.target.value = '';
          }}
        />
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
