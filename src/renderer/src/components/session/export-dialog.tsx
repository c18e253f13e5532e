import { useAppStore } from '../../store/context';

/**
 * `Export…` asks which format: Markdown to read, JSON to import again. One dialog, whichever
 * control asked (the header, an entry's menu); Escape or Close leaves without exporting.
 */
export function ExportDialog() {
  const sessionId = useAppStore((s) => s.exportAskedFor);
  const title = useAppStore((s) => (s.exportAskedFor === undefined ? undefined : s.sessionsById.get(s.exportAskedFor)?.title));
  const cancelExport = useAppStore((s) => s.cancelExport);
  const exportSession = useAppStore((s) => s.exportSession);
  if (sessionId === undefined) return null;
  return (
    <div
      role="dialog"
      aria-modal="false"
      aria-label="Export session"
      aria-describedby="export-dialog-text"
      className="delete-confirm"
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.preventDefault();
          cancelExport();
        }
      }}
    >
      <p id="export-dialog-text">
        Export “{title || 'Untitled session'}”: Markdown to read (secret answers stay masked), or JSON with every event, which Import session… reads back.
      </p>
      <button type="button" className="button-primary" autoFocus onClick={() => void exportSession(sessionId, 'markdown')}>
        Export as Markdown
      </button>
      <button type="button" className="button-secondary" onClick={() => void exportSession(sessionId, 'json')}>
        Export as JSON
      </button>
      <button type="button" className="button-secondary" onClick={cancelExport}>
        Close
      </button>
    </div>
  );
}
