import { useId, useRef } from 'react';
import { useAppStore } from '../../store/context';
import { ModalDialog } from '../overlay/modal-dialog';

/**
 * `Export…` asks which format: Markdown to read, JSON to import again. One dialog, whichever
 * control asked (the header, an entry's menu); Escape or Close leaves without exporting, and the
 * focus goes back to what opened it.
 */
export function ExportDialog() {
  const sessionId = useAppStore((s) => s.exportAskedFor);
  const title = useAppStore((s) => (s.exportAskedFor === undefined ? undefined : s.sessionsById.get(s.exportAskedFor)?.title));
  const cancelExport = useAppStore((s) => s.cancelExport);
  const exportSession = useAppStore((s) => s.exportSession);
  const markdown = useRef<HTMLButtonElement>(null);
  const textId = useId();
  if (sessionId === undefined) return null;
  return (
    <ModalDialog label="Export session" describedBy={textId} className="delete-confirm" onClose={cancelExport} initialFocus={markdown}>
      <p id={textId}>
        Export “{title || 'Untitled session'}”: Markdown to read (secret answers stay masked), or JSON with every event, which Import session… reads back.
      </p>
      <div className="form-actions">
        <button ref={markdown} type="button" className="button-primary" onClick={() => void exportSession(sessionId, 'markdown')}>
          Export as Markdown
        </button>
        <button type="button" className="button-secondary" onClick={() => void exportSession(sessionId, 'json')}>
          Export as JSON
        </button>
        <button type="button" className="button-secondary" onClick={cancelExport}>
          Close
        </button>
      </div>
    </ModalDialog>
  );
}
