import { afterEach, describe, expect, it, vi } from 'vitest';
import { SID, SID2 } from '../../../test-support/fake-api';
import { boundStore, ok } from '../../../test-support/store-fixtures';
import { DRAFT_SAVE_DELAY_MS } from './actions';

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
