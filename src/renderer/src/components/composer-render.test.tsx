import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { SID, view } from '../test-support/fake-api';
import { renderWith as render, storeWith } from '../test-support/static-render';
import { AttachmentChip } from './attachments/attachment-chip';
import { CompletionPopup } from './composer/completion-popup';
import { Composer } from './composer/composer';
import { TranscriptRow } from './transcript/transcript-row';

const noThoughts = { isOpen: () => false, setOpen: () => {} };

describe('the completion popup', () => {
  const options = [
    { label: '/slow', hint: 'seconds', description: 'Stream ticks', insert: '/slow' },
    { label: '/plan', description: 'Show a plan', insert: '/plan' },
  ];

  it('is a listbox named after what it offers, whose options carry ids for aria-activedescendant', () => {
    const html = renderToStaticMarkup(<CompletionPopup kind="command" options={options} active={1} onChoose={() => {}} />);
    expect(html).toMatch(/<ul id="composer-completions" role="listbox"[^>]* aria-label="Commands">/);
    expect(html).toContain('<li id="composer-completion-0" role="option" aria-selected="false"');
    expect(html).toContain('<li id="composer-completion-1" role="option" aria-selected="true"');
    // Name, input hint and description are all in the option's text.
    expect(html).toMatch(/\/slow<\/span><span[^>]*> seconds<\/span><span[^>]*> — Stream ticks<\/span>/);
    expect(renderToStaticMarkup(<CompletionPopup kind="mention" options={[]} active={0} onChoose={() => {}} />)).toContain('aria-label="Files"');
  });
});

describe('the composer', () => {
  it('is a collapsed combobox until there is something to suggest, with an Attach button and a file input', () => {
    const html = render(storeWith({ sessionsById: new Map([[SID, view()]]), currentSessionId: SID }), <Composer sessionId={SID} />);
    expect(html).toMatch(/<textarea role="combobox" aria-label="Message" aria-multiline="true" aria-autocomplete="list" aria-expanded="false"/);
    expect(html).not.toContain('aria-activedescendant');
    expect(html).not.toContain('role="listbox"');
    expect(html).toMatch(/<button type="button"[^>]*>Attach<\/button><input type="file" multiple="" hidden="" aria-label="Attach files"/);
  });
});

describe('attachments in the transcript', () => {
  it('shows an image’s thumbnail named by the file, and a file chip saying how it was sent', () => {
    const html = renderToStaticMarkup(
      <TranscriptRow
        row={{
          type: 'user',
          key: 'u1',
          text: '',
          pending: false,
          attachments: [
            { type: 'image', mimeType: 'image/png', bytes: 68, name: 'dot.png', thumbnail: 'data:image/png;base64,AAAA' },
            { type: 'file', name: 'src/a.ts', uri: 'file:///p/src/a.ts', as: 'mention' },
          ],
        }}
        openThoughts={noThoughts}
      />,
    );
    expect(html).not.toContain('bubble-user');
    expect(html).toContain('<ul class="attachment-list" aria-label="Attachments">');
    expect(html).toContain('<img class="attachment-thumb" src="data:image/png;base64,AAAA" alt="dot.png"/>');
    expect(html).toContain('image/png, 68 bytes');
    expect(html).toMatch(/title="file:\/\/\/p\/src\/a.ts"><span class="attachment-name">src\/a.ts<\/span><span[^>]*>mentioned<\/span>/);
  });

  it('gives a chip in the composer a remove button named after it', () => {
    const html = renderToStaticMarkup(
      <AttachmentChip attachment={{ type: 'file', name: 'notes.txt', uri: 'attachment:///notes.txt', as: 'resource', bytes: 11 }} onRemove={() => {}} />,
    );
    expect(html).toContain('aria-label="Remove notes.txt"');
    expect(html).toContain('attached, 11 bytes');
  });
});
