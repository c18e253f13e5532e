import { describe, expect, it } from 'vitest';
import { StateReason, type HostInfoT, type SessionStateT } from '../../../../shared/contract';
import { SID, SID2, view } from '../../test-support/fake-api';
import { renderWith as render, storeWith } from '../../test-support/static-render';
import { SessionEntry } from './session-entry';
import { SessionSidebar } from './session-sidebar';

describe('sidebar entry', () => {
  const sessions = new Map([
    [SID, view({ title: 'Fix the build', state: 'ENDED', stateReason: 'idle_timeout', pendingPermissions: 1 })],
    [SID2, view({ id: SID2, title: 'Other' })],
  ]);

  it('starts with the title, then the agent, the state in words with the reason as its tooltip, and the time', () => {
    const store = storeWith({ sessionsById: sessions, currentSessionId: SID2 });
    const html = render(store, <SessionEntry sessionId={SID} />);
    expect(html).toMatch(/^<a [^>]*><span class="session-title">Fix the build<\/span> /);
    // The folder in short form, the whole path in its tooltip.
    expect(html).toContain('<span class="session-folder" title="/tmp/work">/tmp/work</span>');
    expect(html).toContain('<span class="entry-agent">demo</span>');
    // A request waiting for the person outranks the stored state.
    expect(html).toContain('tone-attention" title="Put to sleep after being idle. Sending a message resumes it.">Waiting for permission</span>');
    expect(html).toMatch(/<time class="entry-time" dateTime="1970-01-01T00:00:00.001Z"[^>]*>[^<]+<\/time>/);
    expect(html).not.toContain('aria-current');
    store.setState({ sessionsById: new Map([[SID, view({ title: 'Fix the build', state: 'ENDED', stateReason: 'idle_timeout' })]]) });
    expect(render(store, <SessionEntry sessionId={SID} />)).toContain('tone-asleep" title="Put to sleep after being idle. Sending a message resumes it.">Asleep</span>');
  });

  it('says the state in words and colour: running, waiting for permission, asleep, error, ended, idle', () => {
    const state = (over: Parameters<typeof view>[0]) => {
      const html = render(storeWith({ sessionsById: new Map([[SID, view(over)]]) }), <SessionEntry sessionId={SID} />);
      return /class="badge [^"]*tone-(\w+)"[^>]*>(?:<span class="running-dot" aria-hidden="true"><\/span>)?([^<]+)</.exec(html)?.slice(1).join(':');
    };
    expect(state({ running: true })).toBe('running:Running');
    expect(state({ running: true, pendingPermissions: 1 })).toBe('attention:Waiting for permission');
    expect(state({ state: 'ENDED', stateReason: 'idle_timeout' })).toBe('asleep:Asleep');
    expect(state({ state: 'ENDED', stateReason: 'crash_loop' })).toBe('error:Error');
    expect(state({ state: 'ENDED', stateReason: 'agent_exited' })).toBe('error:Error');
    expect(state({ state: 'ENDED', stateReason: 'closed_by_user' })).toBe('ended:Ended');
    expect(state({ state: 'DETACHED' })).toBe('idle:Idle');
  });

  it('marks unread activity, except on the session being looked at', () => {
    const unread = new Map([[SID, view({ unread: true })], [SID2, view({ id: SID2 })]]);
    expect(render(storeWith({ sessionsById: unread, currentSessionId: SID2 }), <SessionEntry sessionId={SID} />)).toContain('unread activity');
    expect(render(storeWith({ sessionsById: unread, currentSessionId: SID }), <SessionEntry sessionId={SID} />)).not.toContain('unread activity');
  });

  /** The badge tooltip as the person sees it, for a session in `state` for `reason`. */
  const tooltip = (state: SessionStateT, reason: StateReason): string => {
    const html = render(storeWith({ sessionsById: new Map([[SID, view({ state, stateReason: reason })]]) }), <SessionEntry sessionId={SID} />);
    const title = /<span class="badge [^"]*" title="([^"]*)"/.exec(html)?.[1];
    if (title === undefined) throw new Error(`no tooltip for ${state}/${reason}: ${html}`);
    return title;
  };

  it.each(StateReason.options)('says in a sentence why a session is in its state, never the code (%s)', (reason) => {
    for (const state of ['ACTIVE', 'ENDED'] as const) {
      const text = tooltip(state, reason);
      expect(text).toMatch(/^[A-Z][a-z]/);
      expect(text).not.toContain('_');
      // A code that is also a word ("resume") may appear in prose; never as the code itself.
      expect(text).not.toContain(`(${reason})`);
      expect(text.toLowerCase()).not.toBe(reason);
      expect(text.split(' ').length).toBeGreaterThanOrEqual(3);
    }
    // A session whose agent never started is not asleep: a message would not wake it.
    if (['auth_required', 'start_failed', 'agent_unavailable'].includes(reason)) expect(tooltip('ENDED', reason)).not.toMatch(/Sending a message resumes it/);
    else expect(tooltip('ENDED', reason)).toMatch(/\. Sending a message resumes it\.$/);
  });

  it('badges a session whose agent never started by what it needs, not Asleep', () => {
    const badge = (reason: StateReason) =>
      render(storeWith({ sessionsById: new Map([[SID, view({ state: 'ENDED', stateReason: reason })]]) }), <SessionEntry sessionId={SID} />);
    expect(badge('auth_required')).toContain('>Needs sign-in</span>');
    expect(badge('start_failed')).toContain('>Could not start</span>');
    expect(badge('agent_unavailable')).toContain('>Could not start</span>');
    expect(badge('idle_timeout')).toContain('>Asleep</span>');
  });

  it('tells a session the person closed apart from one the host put to sleep', () => {
    expect(tooltip('ENDED', 'closed_by_user')).toBe('Closed by you. Sending a message resumes it.');
    const texts = new Set(StateReason.options.map((r) => tooltip('ENDED', r)));
    expect(texts.size).toBe(StateReason.options.length);
  });

  it('marks the current session and hides its permission flag', () => {
    const html = render(storeWith({ sessionsById: sessions, currentSessionId: SID }), <SessionEntry sessionId={SID} />);
    expect(html).toContain('aria-current="page"');
    expect(html).not.toContain('Waiting for permission');
  });
});

describe('sidebar head', () => {
  const info = (ids: string[]): HostInfoT => ({
    version: '0',
    headless: true,
    clientId: 'c',
    agents: ids.map((id) => ({ id, name: `Agent ${id}`, command: id, args: [] })),
    settings: {
      idleTimeoutMs: 0,
      reapIntervalMs: 0,
      permissionTimeoutMs: 0,
      defaultCwd: '/',
      defaultAgentId: 'b',
      maxSessionsPerBroker: 1,
    },
  });

  it('offers New session and leaves the choice of agent to its dialog', () => {
    const html = render(storeWith({ hostInfo: info(['a', 'b']) }), <SessionSidebar onOpenSettings={() => {}} />);
    expect(html).toContain('>New session</button>');
    expect(html).not.toContain('<select');
  });

  it('is busy until the whole session list is in (the newest are shown first)', () => {
    const sessions = new Map([[SID, view()]]);
    const loading = render(storeWith({ sessionsById: sessions, sessionOrder: [SID], sessionsLoaded: false }), <SessionSidebar onOpenSettings={() => {}} />);
    expect(loading).toMatch(/<nav [^>]*aria-label="Sessions" aria-busy="true"/);
    const loaded = render(storeWith({ sessionsById: sessions, sessionOrder: [SID], sessionsLoaded: true }), <SessionSidebar onOpenSettings={() => {}} />);
    expect(loaded).toMatch(/<nav [^>]*aria-label="Sessions"/);
    expect(loaded).not.toContain('aria-busy');
  });

  it('disables New session while a create is in flight', () => {
    const html = render(storeWith({ creatingSessionId: SID }), <SessionSidebar onOpenSettings={() => {}} />);
    expect(html).toMatch(/<button type="button" class="button-primary" disabled="">New session<\/button>/);
  });

  it('makes only the current entry a Tab stop', () => {
    const sessions = new Map([
      [SID, view()],
      [SID2, view({ id: SID2, title: 'Other' })],
    ]);
    const store = storeWith({ sessionsById: sessions, currentSessionId: SID2 });
    expect(render(store, <SessionEntry sessionId={SID} tabbable={false} />)).toContain('tabindex="-1"');
    expect(render(store, <SessionEntry sessionId={SID2} />)).not.toContain('tabindex');
  });
});
