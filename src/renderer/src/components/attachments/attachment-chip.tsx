import { formatBytes, type AttachmentRecord } from '../../../../shared/contract';

const AS_TEXT: Record<Extract<AttachmentRecord, { type: 'file' }>['as'], string> = {
  resource: 'attached',
  resource_link: 'linked',
  mention: 'mentioned',
};

/** How an attachment is named to the person: its name, else its kind. */
function attachmentLabel(a: AttachmentRecord): string {
  if (a.type === 'file') return a.name;
  return a.name ?? (a.type === 'image' ? 'Image' : 'Audio');
}

/**
 * One attachment as a chip: an image shows its thumbnail where the transcript kept one; a file
 * says whether its text was attached, linked or mentioned. `onRemove` adds a remove button
 * (the composer); the transcript's chips are read-only.
 */
export function AttachmentChip({ attachment: a, onRemove }: { attachment: AttachmentRecord; onRemove?: () => void }) {
  const label = attachmentLabel(a);
  const detail =
    a.type === 'file'
      ? [AS_TEXT[a.as], a.bytes !== undefined ? formatBytes(a.bytes) : undefined].filter(Boolean).join(', ')
      : `${a.mimeType}, ${formatBytes(a.bytes)}`;
  return (
    <li className="attachment-chip" title={a.type === 'file' ? a.uri : undefined}>
      {a.type === 'image' && a.thumbnail ? <img className="attachment-thumb" src={a.thumbnail} alt={label} /> : null}
      <span className="attachment-name">{label}</span>
      <span className="muted small">{detail}</span>
      {onRemove ? (
        <button type="button" className="icon-button" aria-label={`Remove ${label}`} onClick={onRemove}>
          ×
        </button>
      ) : null}
    </li>
  );
}

export function AttachmentList({ attachments, label }: { attachments: readonly AttachmentRecord[]; label: string }) {
  return (
    <ul className="attachment-list" aria-label={label}>
      {attachments.map((a, i) => (
        <AttachmentChip key={i} attachment={a} />
      ))}
    </ul>
  );
}
