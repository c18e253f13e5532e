import { afterEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../test-support/fake-clock';
import { startHarness, type Harness } from '../test-support/host-harness';

let h: Harness;
afterEach(async () => {
  await h?.cleanup();
});

/** A host on a fake clock, so "later" is a number the test chose. */
async function start(extra: Parameters<typeof startHarness>[0] = {}) {
  const clock = new FakeClock();
  h = await startHarness({ clock, ...extra });
  return { clock, w: h.window() };
}

describe('activity: what moves a session up the sidebar', () => {
  it('a prompt moves last activity at once; the warm-up title and command list do not', async () => {
    const { clock, w } = await start();
    const a = await w.call('sessions:create', {});
    await w.call('sessions:switch', { sessionId: a.id });
    await h.settled(a.id);
    // The demo agent sent its command list and session info while starting: bookkeeping.
    expect(h.stored(a.id).map((e) => e.kind)).toEqual(expect.arrayContaining(['available_commands', 'session_info']));
    const [afterStart] = await w.call('sessions:list', {});
    expect(afterStart?.lastActivityAt).toBe(a.createdAt);

    await clock.advance(60_000);
    const mark = w.mark();
    await w.prompt(a.id, 'hello');
    // The view pushed as the turn starts already carries the prompt, before it is written out.
    const pushed = await w.waitForRunning(a.id, true, mark);
    expect(pushed.lastActivityAt).toBe(a.createdAt + 60_000);
    const [listed] = await w.call('sessions:list', {});
    expect(listed?.lastActivityAt).toBe(a.createdAt + 60_000);
  });

  it('a permission request moves the session and marks it unread for a window that is elsewhere', async () => {
    const { clock, w } = await start();
    const a = await w.call('sessions:create', {});
    const b = await w.call('sessions:create', {});
    await w.call('sessions:switch', { sessionId: b.id });
    await w.call('sessions:switch', { sessionId: a.id, fromSessionId: b.id });
    await h.settled(b.id);
    await clock.advance(5_000);
    const other = h.window('other');
    const mark = w.mark();
    await other.call('prompt:send', { sessionId: b.id, clientMessageId: crypto.randomUUID(), text: '/permission Edit greeting' });
    const asked = await w.waitFor('session:updated', (v) => v.id === b.id && v.pendingPermissions === 1, 15_000, mark);
    expect(asked.lastActivityAt).toBe(b.createdAt + 5_000);
    expect(asked.unread).toBe(true);
    // The session being looked at is never unread, whatever happens in it.
    const [viewA] = (await w.call('sessions:list', {})).filter((v) => v.id === a.id);
    expect(viewA?.unread).toBeUndefined();
    // Looking at it clears the mark.
    const switched = await w.call('sessions:switch', { sessionId: b.id, fromSessionId: a.id });
    expect(switched.session.unread).toBeUndefined();
  });
});

describe('rename', () => {
  it("keeps the person's name over the agent's later titles; an empty name gives the title back", async () => {
    const { w } = await start();
    const s = await w.call('sessions:create', {});
    await w.call('sessions:switch', { sessionId: s.id });
    const renamed = await w.call('sessions:rename', { sessionId: s.id, title: '  Release   notes ' });
    expect(renamed).toMatchObject({ title: 'Release notes', renamed: true });
    await w.prompt(s.id, '/title Agent naming');
    await w.until(() => h.stored(s.id).some((e) => e.kind === 'session_info' && e.payload.title === 'Agent naming'), 'the agent title');
    const [kept] = await w.call('sessions:list', {});
    expect(kept?.title).toBe('Release notes');
    const back = await w.call('sessions:rename', { sessionId: s.id, title: '' });
    expect(back.title).toBe('Agent naming');
    expect(back.renamed).toBeUndefined();
  });

  it('survives a restart and tells every window', async () => {
    const { w } = await start();
    const s = await w.call('sessions:create', {});
    const other = h.window('other');
    await w.call('sessions:rename', { sessionId: s.id, title: 'Mine' });
    await other.waitFor('session:updated', (v) => v.id === s.id && v.title === 'Mine');
    await h.restart();
    const [after] = await h.window().call('sessions:list', {});
    expect(after?.title).toBe('Mine');
  });
});

describe('drafts', () => {
  it('are kept per session across a host restart, emptied by saving nothing, and go with their session', async () => {
    const { w } = await start();
    const a = await w.call('sessions:create', {});
    const b = await w.call('sessions:create', {});
    await w.call('drafts:save', { sessionId: a.id, text: 'half a thought' });
    await w.call('drafts:save', { sessionId: b.id, text: 'another' });
    await h.restart();
    const w2 = h.window();
    expect(await w2.call('drafts:get', { sessionId: a.id })).toEqual({ text: 'half a thought' });
    await w2.call('drafts:save', { sessionId: a.id, text: '' });
    expect(await w2.call('drafts:get', { sessionId: a.id })).toEqual({ text: '' });
    await w2.call('sessions:delete', { sessionId: b.id });
    const left = h.host.store.db.prepare(`SELECT COUNT(*) AS n FROM drafts`).get();
    expect(left).toEqual({ n: 0 });
  });

  it('refuses a draft for a session that does not exist', async () => {
    const { w } = await start();
    await expect(w.call('drafts:save', { sessionId: crypto.randomUUID(), text: 'x' })).rejects.toMatchObject({ code: 'not_found' });
  });
});

describe('windows:open', () => {
  it('answers unsupported in a headless host', async () => {
    const { w } = await start();
    const s = await w.call('sessions:create', {});
    await expect(w.call('windows:open', { sessionId: s.id })).rejects.toMatchObject({ code: 'unsupported' });
  });

  it("asks the shell's port to open the session where it has one", async () => {
    const opened: string[] = [];
    const { w } = await start({ openWindow: (id) => opened.push(id) });
    const s = await w.call('sessions:create', {});
    await w.call('windows:open', { sessionId: s.id });
    expect(opened).toEqual([s.id]);
    await expect(w.call('windows:open', { sessionId: crypto.randomUUID() })).rejects.toMatchObject({ code: 'not_found' });
  });
});
