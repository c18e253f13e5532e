import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { renderWith as render, storeWith } from '../../test-support/static-render';
import { TranscriptRow } from './transcript-row';

describe('transcript rows', () => {
  const thoughts = { isOpen: () => false, setOpen: () => {} };

  it('offers Retry on a crash loop error, with the stderr tail', () => {
    const html = render(
      storeWith({}),
      <TranscriptRow
        row={{ type: 'error', key: 'e', code: 'crash_loop', message: 'Agent crashed 3 times', stderrTail: ['panic: boom'] }}
        openThoughts={thoughts}
      />,
    );
    expect(html).toContain('role="note"');
    expect(html).not.toContain('role="alert"');
    expect(html).toContain('panic: boom');
    expect(html).toContain('>Retry</button>');
  });

  it('renders agent Markdown without raw HTML', () => {
    const html = render(
      storeWith({}),
      <TranscriptRow row={{ type: 'agent', key: 'a', text: '**bold** <img src=x onerror=alert(1)>\n\n```ts\nconst a = 1;\n```' }} openThoughts={thoughts} />,
    );
    expect(html).toContain('<strong>bold</strong>');
    expect(html).toContain('<pre tabindex="0"><code class="language-ts">');
    expect(html).not.toContain('<img');
  });

  it('draws nothing for a message or thought that is only white space (Qwen Code sends one before a tool call)', () => {
    for (const type of ['agent', 'thought'] as const) {
      expect(render(storeWith({}), <TranscriptRow row={{ type, key: 'w', text: '\n\n  ' }} openThoughts={thoughts} />)).toBe('');
    }
    expect(render(storeWith({}), <TranscriptRow row={{ type: 'agent', key: 'a', text: '\n\nNow' }} openThoughts={thoughts} />)).toContain('Now');
  });

  it('collapses a thought under "Thought"', () => {
    const html = render(storeWith({}), <TranscriptRow row={{ type: 'thought', key: 't', text: 'hmm' }} openThoughts={thoughts} />);
    expect(html).toMatch(/<details class="thought"><summary>Thought<\/summary>/);
  });

  it('shows a stored event this version cannot read as a visible row naming its kind', () => {
    const html = render(storeWith({}), <TranscriptRow row={{ type: 'unreadable', key: 'u', storedKind: 'mode_changed' }} openThoughts={thoughts} />);
    expect(html).toContain('Unreadable event (mode_changed)');
  });

  it('leaves a visible Stopped mark in the transcript', () => {
    const html = render(storeWith({}), <TranscriptRow row={{ type: 'stopped', key: 's', text: 'Stopped' }} openThoughts={thoughts} />);
    expect(html).toBe('<p class="row-stopped" role="note">Stopped</p>');
  });

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
        openThoughts={thoughts}
      />,
    );
    expect(html).not.toContain('bubble-user');
    expect(html).toContain('<ul class="attachment-list" aria-label="Attachments">');
    expect(html).toContain('<img class="attachment-thumb" src="data:image/png;base64,AAAA" alt="dot.png"/>');
    expect(html).toContain('image/png, 68 bytes');
    expect(html).toMatch(/title="file:\/\/\/p\/src\/a.ts"><span class="attachment-name">src\/a.ts<\/span><span[^>]*>mentioned<\/span>/);
  });
});
