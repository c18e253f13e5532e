import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { AttachmentChip } from './attachment-chip';

describe('an attachment chip in the composer', () => {
  it('has a remove button named after it and says how it is sent', () => {
    const html = renderToStaticMarkup(
      <AttachmentChip attachment={{ type: 'file', name: 'notes.txt', uri: 'attachment:///notes.txt', as: 'resource', bytes: 11 }} onRemove={() => {}} />,
    );
    expect(html).toContain('aria-label="Remove notes.txt"');
    expect(html).toContain('attached, 11 bytes');
  });
});
