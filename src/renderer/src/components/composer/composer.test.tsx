import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { SessionEventT } from '../../../../shared/contract';
import type { AppStoreApi } from '../../store/app-store';
import { SID, view } from '../../test-support/fake-api';
import { renderWith as render, storeWith } from '../../test-support/static-render';
import { CompletionPopup } from './completion-popup';
import { Composer } from './composer';

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
    expect(html).toMatch(/<textarea role="combobox" aria-label="Message" aria-autocomplete="list" aria-expanded="false"/);
    expect(html).not.toContain('aria-activedescendant');
    expect(html).not.toContain('role="listbox"');
    expect(html).toMatch(/<button type="button"[^>]*>Attach<\/button><input type="file" multiple="" hidden="" aria-label="Attach files"/);
  });
});

describe('the composer while a turn runs', () => {
  it('reads Running and offers Stop only while a turn runs', () => {
    const running = storeWith({ sessionsById: new Map([[SID, view({ running: true })]]), currentSessionId: SID });
    const html = render(running, <Composer sessionId={SID} />);
    expect(html).toContain('<span role="status" class="run-status">Running</span>');
    expect(html).toContain('>Stop</button>');
    expect(html).toContain('aria-label="Message"');

    const idle = storeWith({ sessionsById: new Map([[SID, view()]]), currentSessionId: SID });
    const idleHtml = render(idle, <Composer sessionId={SID} />);
    expect(idleHtml).toContain('<span role="status" class="run-status"></span>');
    expect(idleHtml).not.toContain('>Stop</button>');
  });

  it('shows a running turn with its elapsed time and, after the silence threshold, that the agent said nothing', () => {
    const sessions = new Map([[SID, view({ running: true, turnStartedAt: 1, lastAgentActivityAt: 1 })]]);
    const html = render(storeWith({ sessionsById: sessions, currentSessionId: SID }), <Composer sessionId={SID} />);
    expect(html).toContain('>Running</span>');
    expect(html).toMatch(/role="timer"[^>]*> · \d+ h \d+ min<\/span>/);
    expect(html).toContain('The agent has said nothing for');
  });

  it('shows no clock while nothing runs', () => {
    const sessions = new Map([[SID, view({ running: false })]]);
    const html = render(storeWith({ sessionsById: sessions, currentSessionId: SID }), <Composer sessionId={SID} />);
    expect(html).not.toContain('role="timer"');
    expect(html).not.toContain('said nothing');
  });
});

describe('the composer after a failed send', () => {
  it('explains a message that could not go out because its session did not start', () => {
    const store = storeWith({
      currentSessionId: undefined,
      sendError: { sessionId: '', code: 'invalid_request', message: 'bad folder', text: 'hi', summary: 'The session could not be started, so the message was not sent.' },
    });
    const html = render(store, <Composer sessionId="" />);
    expect(html).toContain('The session could not be started');
    expect(html).toContain('>Restore message</button>');
  });
});

describe('running turn status', () => {
  const toolCall = (seq: number, title: string, status: 'pending' | 'in_progress' | 'completed') =>
    ({ sessionId: SID, seq, at: seq, kind: 'tool_call', payload: { toolCallId: `t${seq}`, title, status } }) as const;

  function runningWith(state: 'ACTIVE' | 'STARTING', events: SessionEventT[]): AppStoreApi {
    const store = storeWith({ sessionsById: new Map([[SID, view({ running: true, state, turnStartedAt: 1 })]]), currentSessionId: SID });
    store.getState().beginTranscript(SID);
    store.setState({ transcript: { ...store.getState().transcript, loaded: true } });
    for (const e of events) store.getState().receiveEvent(e);
    store.getInitialState = store.getState;
    return store;
  }

  it('names the latest tool call still under way, not one that finished or one from an earlier turn', () => {
    const user = (seq: number) => ({ sessionId: SID, seq, at: seq, kind: 'user_message', payload: { text: 'go' } }) as const;
    const html = render(runningWith('ACTIVE', [user(1), toolCall(2, 'Read src/app.ts', 'completed'), toolCall(3, 'Run npm test', 'in_progress')]), <Composer sessionId={SID} />);
    expect(html).toContain('<span class="run-tool" title="Run npm test"> · Run npm test</span>');
    const done = render(runningWith('ACTIVE', [toolCall(1, 'Run npm test', 'in_progress'), user(2), toolCall(3, 'Read a', 'completed')]), <Composer sessionId={SID} />);
    expect(done).not.toContain('run-tool');
  });

  it('says the agent is starting while the session starts for the turn', () => {
    const html = render(runningWith('STARTING', [toolCall(1, 'x', 'completed')]), <Composer sessionId={SID} />);
    expect(html).toContain('<span role="status" class="run-status">Starting the agent</span>');
  });
});
