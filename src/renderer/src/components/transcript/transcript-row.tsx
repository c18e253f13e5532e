import { memo, useState, type FormEvent } from 'react';
import type { ErrorCode } from '../../../../shared/contract';
import { isBlankRow, type Row } from '../../store/slices/transcript/rows';
import { useAppStore } from '../../store/context';
import { composerSelectors } from '../../store/slices/composer/selectors';
import { describeResolution, toolKindLabel } from './describe';
import { Markdown } from './markdown';
import { DiffView } from './tool-details';
import { ToolCard } from './tool-card';
import { AttachmentList } from '../attachments/attachment-chip';
import { turnUsageText } from '../../lib/usage-format';
import { hashFor } from '../../lib/address';
import { sessionsSelectors } from '../../store/slices/sessions/selectors';
import { QuestionRow } from '../questions/question-row';
import { RestoredRow, SetupRow, TurnEndRow } from '../workspace/workspace-rows';

const ERROR_TITLE: Partial<Record<ErrorCode, string>> = {
  crash_loop: 'The agent keeps crashing',
  agent_exited: 'The agent exited',
  agent_unavailable: 'The agent could not be started',
  agent_error: 'The agent reported an error',
  auth_required: 'The agent asks you to sign in',
  permission_timeout: 'A permission request timed out',
};

function ErrorRow({ row }: { row: Extract<Row, { type: 'error' }> }) {
  const retry = useAppStore((s) => s.retryLastPrompt);
  const retrying = useAppStore(composerSelectors.isRetrying);
  return (
    // Not an alert: most error rows are history (a loaded page). A live one is announced
    // politely by LiveAnnouncer. The note role keeps the row easy to find.
    <div className="row-error" role="note">
      <strong>{ERROR_TITLE[row.code] ?? 'Error'}</strong>
      <p>{row.message}</p>
      {row.stderrTail.length > 0 ? (
        <pre className="stderr" aria-label="Agent output (stderr)">
          {row.stderrTail.join('\n')}
        </pre>
      ) : null}
      {row.code === 'crash_loop' ? (
        <button type="button" disabled={retrying} onClick={() => void retry()}>
          Retry
        </button>
      ) : null}
    </div>
  );
}

function FileRow({ row }: { row: Extract<Row, { type: 'file' }> }) {
  const { path, created, bytes, diff } = row.written;
  return (
    <section className="file-written" aria-label={`File written: ${path}`}>
      <p className="row-note">
        The agent {created ? 'created' : 'wrote'} <code>{path}</code> ({bytes} bytes){diff ? '' : '; too large to show the change'}
      </p>
      {diff ? <DiffView path={diff.path} oldText={diff.oldText ?? undefined} newText={diff.newText} /> : null}
    </section>
  );
}

function PlanRow({ row }: { row: Extract<Row, { type: 'plan' }> }) {
  return (
    <section className="plan" aria-label="Plan">
      <ul>
        {row.entries.map((e, i) => (
          <li key={i} className={`plan-${e.status}`}>
            <span
              role="checkbox"
              aria-checked={e.status === 'completed' ? true : e.status === 'in_progress' ? 'mixed' : false}
              aria-readonly="true"
              aria-label={e.content}
              className="plan-box"
            />
            <span className="plan-text">{e.content}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

function PermissionRow({ row }: { row: Extract<Row, { type: 'permission' }> }) {
  const kind = row.toolKind ? ` (${toolKindLabel(row.toolKind)})` : '';
  return (
    <p className="row-permission">
      <span>
        Permission asked: {row.title}
        {kind}
      </span>
      <span className="permission-outcome">
        {row.resolution ? describeResolution(row.resolution) : 'Waiting for an answer'}
      </span>
    </p>
  );
}

/**
 * One of the person's messages. Where the session's agent can fork, `Edit and resend` opens it
 * for editing; sending forks the session just before it (a new session with the conversation up
 * to there) and sends the edited text there. The original stays as it was.
 */
function UserRow({ row }: { row: Extract<Row, { type: 'user' }> }) {
  const canFork = useAppStore((s) => sessionsSelectors.currentSession(s)?.canFork === true);
  const sessionId = useAppStore((s) => s.currentSessionId);
  const editAndResend = useAppStore((s) => s.editAndResend);
  const [draft, setDraft] = useState<string | undefined>(undefined);
  const [sending, setSending] = useState(false);
  const editable = canFork && row.seq !== undefined && !row.pending && sessionId !== undefined;
  const send = (e?: FormEvent) => {
    e?.preventDefault();
    if (!editable || draft === undefined || draft.trim() === '' || sending) return;
    setSending(true);
    void editAndResend(sessionId, row.seq!, draft).then((sent) => {
      setSending(false);
      if (sent) setDraft(undefined);
    });
  };
  return (
    <div className={`row-user${row.pending ? ' is-pending' : ''}`}>
      {draft !== undefined ? (
        <form className="edit-resend" onSubmit={send}>
          <textarea
            aria-label="Edited message"
            className="composer-input"
            rows={3}
            autoFocus
            value={draft}
            disabled={sending}
            onChange={(e) => setDraft(e.target.value)}
            onKeyDown={(e) => {
              if (e.nativeEvent.isComposing) return;
              if (e.key === 'Enter' && !e.shiftKey) send(e);
              else if (e.key === 'Escape') {
                e.preventDefault();
                // The composer's Escape stops a turn; this one only leaves the edit.
                e.stopPropagation();
                setDraft(undefined);
              }
            }}
          />
          <div className="edit-resend-bar">
            <span className="muted small">Sends it in a fork of this session, before this message.</span>
            <button type="submit" className="button-primary" disabled={sending || draft.trim() === ''}>
              Send edited message
            </button>
            <button type="button" className="button-secondary" disabled={sending} onClick={() => setDraft(undefined)}>
              Discard edit
            </button>
          </div>
        </form>
      ) : row.text !== '' ? (
        <div className="bubble bubble-user">{row.text}</div>
      ) : null}
      {row.attachments ? <AttachmentList attachments={row.attachments} label="Attachments" /> : null}
      {row.pending ? <span className="muted small">Sending…</span> : null}
      {editable && draft === undefined && row.text !== '' ? (
        <button type="button" className="link-button edit-resend-button" onClick={() => setDraft(row.text)}>
          Edit and resend
        </button>
      ) : null}
    </div>
  );
}

function NoticeRow({ row }: { row: Extract<Row, { type: 'notice' }> }) {
  return (
    <p className="row-note">
      {row.text}
      {row.sessionId ? (
        <>
          {' '}
          <a href={hashFor(row.sessionId)}>Open the original session</a>
        </>
      ) : null}
    </p>
  );
}

export interface ThoughtState {
  isOpen(key: string): boolean;
  setOpen(key: string, open: boolean): void;
}

interface RowProps {
  row: Row;
  openThoughts: ThoughtState;
}

/**
 * One transcript row. Row objects keep their identity until their own events change them
 * (see RowGrouper), so memo skips every row but the one that changed.
 */
export const TranscriptRow = memo(function TranscriptRow({ row, openThoughts }: RowProps) {
  // Nothing is drawn for a message that so far says nothing (no empty bubble, no empty thought).
  if (isBlankRow(row)) return null;
  switch (row.type) {
    case 'user':
      return <UserRow row={row} />;
    case 'agent':
      return (
        <div className="row-agent">
          <div className="bubble bubble-agent">
            <Markdown text={row.text} pieces={row.pieces} />
          </div>
        </div>
      );
    case 'thought':
      return (
        <details
          className="thought"
          open={openThoughts.isOpen(row.key)}
          onToggle={(e) => openThoughts.setOpen(row.key, e.currentTarget.open)}
        >
          <summary>Thought</summary>
          <div className="thought-text">
            <Markdown text={row.text} pieces={row.pieces} />
          </div>
        </details>
      );
    case 'tool':
      return <ToolCard call={row.call} />;
    case 'plan':
      return <PlanRow row={row} />;
    case 'stopped':
      return (
        <p className="row-stopped" role="note">
          {row.text}
        </p>
      );
    case 'usage':
      return (
        <p className="row-usage" role="note" aria-label="Turn usage">
          {turnUsageText(row.usage)}
        </p>
      );
    case 'error':
      return <ErrorRow row={row} />;
    case 'permission':
      return <PermissionRow row={row} />;
    case 'notice':
      return <NoticeRow row={row} />;
    case 'question':
      return <QuestionRow row={row} />;
    case 'file':
      return <FileRow row={row} />;
    case 'turn-end':
      return <TurnEndRow row={row} />;
    case 'restored':
      return <RestoredRow row={row} />;
    case 'setup':
      return <SetupRow row={row} />;
    case 'unreadable':
      return (
        <p className="row-note row-unreadable" role="note">
          Unreadable event ({row.storedKind}): this entry was stored in a form this version cannot show.
        </p>
      );
  }
});
