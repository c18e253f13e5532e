import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAppStore } from './app-store';
import { FakeApi, SID, SID2, testDeps, view } from '../test-support/fake-api';
import { boundStore, ok, showSession } from '../test-support/store-fixtures';
import { DRAFT_SAVE_DELAY_MS } from './slices/drafts/actions';

afterEach(() => {
  vi.useRealTimers();
});

describe('drafts', () => {
  it('are saved to the host once typing pauses, only the last text', async () => {
    vi.useFakeTimers();
    const ctx = boundStore();
    ctx.fake.handle('drafts:save', () => ok({ ok: true as const }));
    const s = ctx.store.getState();
    s.editDraft(SID, 'h');
    s.editDraft(SID, 'he');
    s.editDraft(SID, 'hello');
    expect(ctx.store.getState().drafts.get(SID)).toBe('hello');
    await vi.advanceTimersByTimeAsync(DRAFT_SAVE_DELAY_MS - 1);
    expect(ctx.fake.callsOf('drafts:save')).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(ctx.fake.callsOf('drafts:save')).toEqual([{ sessionId: SID, text: 'hello' }]);
  });

  it('are saved at once when the page goes away, and cleared on the host at once when sent', () => {
    vi.useFakeTimers();
    const ctx = boundStore();
    ctx.fake.handle('drafts:save', () => ok({ ok: true as const }));
    ctx.store.getState().editDraft(SID, 'unsent');
    ctx.store.getState().editDraft(SID2, 'other');
    ctx.store.getState().flushDrafts();
    expect(ctx.fake.callsOf('drafts:save')).toEqual([
      { sessionId: SID, text: 'unsent' },
      { sessionId: SID2, text: 'other' },
    ]);
    ctx.store.getState().clearDraft(SID);
    expect(ctx.fake.callsOf('drafts:save').at(-1)).toEqual({ sessionId: SID, text: '' });
    // Nothing left waiting: the pause that follows sends nothing more.
    vi.advanceTimersByTime(DRAFT_SAVE_DELAY_MS * 2);
    expect(ctx.fake.callsOf('drafts:save')).toHaveLength(3);
  });

  it('load from the host, unless the person typed while the answer was on its way', async () => {
    const ctx = boundStore();
    let answer!: (text: string) => void;
    ctx.fake.handle('drafts:get', () => new Promise((r) => (answer = (text) => r(ok({ text })))));
    const loading = ctx.store.getState().loadDraft(SID);
    ctx.store.getState().editDraft(SID, 'typed meanwhile');
    answer('stored');
    await loading;
    expect(ctx.store.getState().drafts.get(SID)).toBe('typed meanwhile');
    ctx.fake.handle('drafts:get', () => ok({ text: 'stored two' }));
    await ctx.store.getState().loadDraft(SID2);
    expect(ctx.store.getState().drafts.get(SID2)).toBe('stored two');
    // Loaded once: switching back does not ask again (this window's text is the newest).
    await ctx.store.getState().loadDraft(SID2);
    expect(ctx.fake.callsOf('drafts:get')).toHaveLength(2);
  });
});

describe('rename, open in a new window, delete confirmation', () => {
  it("applies the host's renamed view, and says why when it is refused", async () => {
    const ctx = boundStore();
    await showSession(ctx);
    ctx.fake.handle('sessions:rename', (req) => ok(view({ title: req.title, renamed: true, updatedAt: 5 })));
    expect(await ctx.store.getState().renameSession(SID, 'Mine')).toBe(true);
    expect(ctx.store.getState().sessionsById.get(SID)).toMatchObject({ title: 'Mine', renamed: true });
    ctx.fake.handle('sessions:rename', () => ({ ok: false, error: { code: 'not_found', message: 'gone' } }));
    expect(await ctx.store.getState().renameSession(SID, 'x')).toBe(false);
    expect(ctx.store.getState().notices.at(-1)?.text).toBe('Could not rename the session: gone');
  });

  it('Rename from the sidebar shows the session and opens its name for editing', async () => {
    const ctx = boundStore();
    await showSession(ctx);
    ctx.store.getState().beginRename(SID2);
    expect(ctx.store.getState()).toMatchObject({ currentSessionId: SID2, renamingSessionId: SID2 });
  });

  it('opens a browser tab itself, and asks the host for a desktop window', async () => {
    const opened: string[] = [];
    const browser = createAppStore(testDeps(new FakeApi(), { openTab: (id) => (opened.push(id), true) }));
    await browser.getState().openInNewWindow(SID);
    expect(opened).toEqual([SID]);

    const ctx = boundStore();
    ctx.fake.handle('windows:open', () => ok({ ok: true as const }));
    await ctx.store.getState().openInNewWindow(SID);
    expect(ctx.fake.callsOf('windows:open')).toEqual([{ sessionId: SID }]);
  });

  it('a deleted session takes its pending confirmation and rename with it', () => {
    const ctx = boundStore();
    ctx.store.getState().upsertSession(view());
    ctx.store.getState().askDelete(SID);
    ctx.store.setState({ renamingSessionId: SID });
    ctx.store.getState().removeSession(SID);
    expect(ctx.store.getState()).toMatchObject({ deleteAskedFor: undefined, renamingSessionId: undefined });
  });
});

describe('next and previous session', () => {
  it('go by the sidebar as shown, wrapping around', async () => {
    const ctx = boundStore();
    await showSession(ctx, SID);
    const third = '33333333-3333-4333-8333-333333333333';
    ctx.store.getState().setSidebarVisible([SID2, SID, third]);
    ctx.store.getState().switchBy(1);
    expect(ctx.store.getState().currentSessionId).toBe(third);
    ctx.store.getState().switchBy(1);
    expect(ctx.store.getState().currentSessionId).toBe(SID2);
    ctx.store.getState().switchBy(-1);
    expect(ctx.store.getState().currentSessionId).toBe(third);
  });
});
