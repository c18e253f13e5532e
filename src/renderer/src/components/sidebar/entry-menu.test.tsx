import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { createAppStore } from '../../store/app-store';
import { StoreProvider } from '../../store/context';
import { FakeApi, SID, testDeps, view } from '../../test-support/fake-api';
import { EntryMenu, entryMenuItems } from './entry-menu';

describe('the context menu of a sidebar entry', () => {
  it('offers Open in new window, Rename, Export…, Archive and Delete; Restore instead of Archive for an archived one; Fork where the agent can fork', () => {
    expect(entryMenuItems(view()).map((i) => i.label)).toEqual(['Open in new window', 'Rename', 'Export…', 'Archive', 'Delete…']);
    expect(entryMenuItems(view({ archivedAt: 3 })).map((i) => i.label)).toEqual(['Open in new window', 'Rename', 'Export…', 'Restore', 'Delete…']);
    expect(entryMenuItems(view({ canFork: true })).map((i) => i.label)).toEqual(['Open in new window', 'Rename', 'Fork', 'Export…', 'Archive', 'Delete…']);
  });

  it('is a menu named after its session, with one menu item per action', () => {
    const store = createAppStore(testDeps(new FakeApi()));
    store.setState({ sessionsById: new Map([[SID, view({ title: 'Fix the build' })]]) });
    store.getInitialState = store.getState;
    const html = renderToStaticMarkup(
      <StoreProvider store={store}>
        <EntryMenu request={{ sessionId: SID, x: 10, y: 20, keyboard: true }} onClose={() => {}} />
      </StoreProvider>,
    );
    expect(html).toMatch(/^<div role="menu" aria-label="Session Fix the build"/);
    expect(html.match(/role="menuitem"/g)).toHaveLength(5);
  });
});
