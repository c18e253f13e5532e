import { describe, expect, it } from 'vitest';
import { SID, view } from '../../test-support/fake-api';
import { renderWith as render, storeWith } from '../../test-support/static-render';
import { SessionHeader } from './session-header';

describe('session header', () => {
  it('offers Close, Archive and Delete on a failed session, and Restore on an archived one', () => {
    const failed = render(storeWith({ sessionsById: new Map([[SID, view({ state: 'ENDED', stateReason: 'start_failed' })]]), currentSessionId: SID }), <SessionHeader />);
    expect(failed).toContain('>Close session</button>');
    expect(failed).toContain('>Archive</button>');
    expect(failed).toContain('>Delete</button>');
    const archived = render(storeWith({ sessionsById: new Map([[SID, view({ state: 'ENDED', archivedAt: 5 })]]), currentSessionId: SID }), <SessionHeader />);
    expect(archived).toContain('>Restore</button>');
    expect(archived).not.toContain('>Archive</button>');
  });

  it('offers Rename, and shows the name in a textbox in place while renaming', () => {
    const sessions = new Map([[SID, view({ title: 'Fix the build' })]]);
    const idle = render(storeWith({ sessionsById: sessions, currentSessionId: SID }), <SessionHeader />);
    expect(idle).toContain('>Rename</button>');
    expect(idle).toContain('<h1 class="session-heading">Fix the build</h1>');
    const renaming = render(storeWith({ sessionsById: sessions, currentSessionId: SID, renamingSessionId: SID }), <SessionHeader />);
    expect(renaming).toMatch(/<input class="session-heading-input" aria-label="Session name" maxLength="200" autofocus="" value="Fix the build"/);
    expect(renaming).not.toContain('<h1');
  });

  it("offers Export… always and Fork only where the session's agent can fork", () => {
    const plain = render(storeWith({ sessionsById: new Map([[SID, view()]]), currentSessionId: SID }), <SessionHeader />);
    expect(plain).toContain('>Export…</button>');
    expect(plain).not.toContain('>Fork</button>');
    const forkable = render(storeWith({ sessionsById: new Map([[SID, view({ canFork: true })]]), currentSessionId: SID }), <SessionHeader />);
    expect(forkable).toMatch(/<button type="button" class="button-secondary" title="[^"]+">Fork<\/button>/);
  });

  it('stands in for a session whose create has not answered yet', () => {
    const html = render(storeWith({ currentSessionId: SID, creatingSessionId: SID }), <SessionHeader />);
    expect(html).toContain('Starting…');
    expect(html).not.toContain('Close session');
  });

  it('has an Agent log button', () => {
    const header = render(storeWith({ sessionsById: new Map([[SID, view()]]), currentSessionId: SID }), <SessionHeader />);
    expect(header).toContain('>Agent log</button>');
  });
});
