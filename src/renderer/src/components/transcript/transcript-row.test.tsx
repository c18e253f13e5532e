import { describe, expect, it } from 'vitest';
import { SID, view } from '../../test-support/fake-api';
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
    expect(html).toContain('<pre><code class="language-ts">');
    expect(html).not.toContain('<img');
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
    const html = render(
      storeWith({}),
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

  it("offers Edit and resend on a stored message only where the session's agent can fork", () => {
    const row = { type: 'user' as const, key: 'u', text: 'hello', pending: false, seq: 4 };
    const forkable = storeWith({ currentSessionId: SID, sessionsById: new Map([[SID, view({ canFork: true })]]) });
    expect(render(forkable, <TranscriptRow row={row} openThoughts={thoughts} />)).toContain('>Edit and resend</button>');
    const plain = storeWith({ currentSessionId: SID, sessionsById: new Map([[SID, view()]]) });
    expect(render(plain, <TranscriptRow row={row} openThoughts={thoughts} />)).not.toContain('Edit and resend');
    // Not on a message still being sent: it is no fork point yet.
    expect(render(forkable, <TranscriptRow row={{ ...row, pending: true, seq: undefined }} openThoughts={thoughts} />)).not.toContain('Edit and resend');
  });

  it("links a fork's notice to the session it was forked from", () => {
    const html = render(storeWith({}), <TranscriptRow row={{ type: 'notice', key: 'n', text: 'Forked from “A”', sessionId: SID }} openThoughts={thoughts} />);
    expect(html).toContain(`<a href="#/session/${SID}">Open the original session</a>`);
  });

  it('shows a question with its form fields, then what was answered (secrets as the host masked them) and by whom', () => {
    const question = {
      mode: 'form' as const,
      message: 'Deploy?',
      form: {
        title: 'Deploy',
        fields: [
          { kind: 'text' as const, name: 'name', label: 'Project name', required: true, patternEnforced: false, secret: false, description: '2 to 20 characters' },
          { kind: 'text' as const, name: 'token', label: 'Token', required: false, patternEnforced: false, secret: true },
          { kind: 'boolean' as const, name: 'ok', label: 'Sure', required: false },
        ],
      },
    };
    const asked = { type: 'question' as const, key: 'q', requestId: 'r', question, answer: undefined, completed: false };
    const waiting = render(storeWith({}), <TranscriptRow row={asked} openThoughts={thoughts} />);
    expect(waiting).toContain('aria-label="Question from the agent: Deploy"');
    expect(waiting).toContain('Waiting for an answer');
    expect(waiting).toMatch(/<dt>Project name<span class="muted small"> \(required\)<\/span><\/dt><dd><span class="muted">2 to 20 characters<\/span><\/dd>/);
    const answered = render(
      storeWith({}),
      <TranscriptRow
        row={{ ...asked, answer: { action: 'accept', content: { name: 'web', token: '••••••', ok: true }, decider: { kind: 'window', clientId: 'c', label: 'window 2' } } }}
        openThoughts={thoughts}
      />,
    );
    expect(answered).toContain('Submitted — answered in window 2');
    expect(answered).toContain('<dt>Token</dt><dd>••••••</dd>');
    expect(answered).toContain('<dt>Sure</dt><dd>Yes</dd>');
  });

  it('says where a URL question leads, and whether the agent finished with the page', () => {
    const target = { href: 'https://login.example.com/', scheme: 'https' as const, host: 'login.example.com', displayHost: 'login.example.com', warnings: [], deceptive: false };
    const row = {
      type: 'question' as const,
      key: 'q',
      requestId: 'r',
      question: { mode: 'url' as const, message: 'Sign in', elicitationId: 'e', target },
      answer: { action: 'accept' as const, decider: { kind: 'window' as const, clientId: 'c', label: 'window 1' } },
      completed: false,
    };
    expect(render(storeWith({}), <TranscriptRow row={row} openThoughts={thoughts} />)).toContain('Opened — answered in window 1; waiting for the agent to finish');
    expect(render(storeWith({}), <TranscriptRow row={{ ...row, completed: true }} openThoughts={thoughts} />)).toContain('the agent says it is done');
  });
});
