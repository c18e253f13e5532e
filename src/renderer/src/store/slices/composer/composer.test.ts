import { describe, expect, it } from 'vitest';
import type { PromptBlock } from '../../../../../shared/contract';
import { ev, flush, SID } from '../../../test-support/fake-api';
import { answer, boundStore, ok, showSession } from '../../../test-support/store-fixtures';
import { composerSelectors } from './selectors';
import { transcriptSelectors } from '../transcript/selectors';

const image: PromptBlock = { type: 'image', mimeType: 'image/png', data: 'AAAA', name: 'a.png' };

describe('the agent’s commands in the window', () => {
  it('come from the switch answer, then from newer available_commands events only', async () => {
    const ctx = boundStore();
    ctx.fake
      .handle('sessions:switch', () => ok(answer({ lastSeq: 3, availableCommands: [{ name: 'old', description: 'from the switch' }] })))
      .handle('transcript:page', () => ok({ events: [ev(3, 'available_commands', { commands: [{ name: 'older', description: '' }] })], hasMore: false }));
    await ctx.store.getState().switchSession(SID);
    // The page held an event no newer than the switch answer: the answer stays.
    expect(composerSelectors.commandsForCurrent(ctx.store.getState()).map((c) => c.name)).toEqual(['old']);
    ctx.fake.emit('session:event', ev(4, 'available_commands', { commands: [{ name: 'new', description: 'pushed' }] }));
    expect(composerSelectors.commandsForCurrent(ctx.store.getState()).map((c) => c.name)).toEqual(['new']);
  });
});

describe('sending attachments', () => {
  it('sends the content blocks with the text and shows them on the pending row', async () => {
    const ctx = boundStore();
    await showSession(ctx);
    let release!: () => void;
    ctx.fake.handle('prompt:send', () => new Promise((r) => (release = () => r(ok({ accepted: true as const, duplicate: false })))));
    await ctx.store.getState().sendPrompt('', { content: [image] });
    expect(ctx.fake.callsOf('prompt:send')).toEqual([expect.objectContaining({ text: '', content: [image] })]);
    const row = transcriptSelectors.rowAt(ctx.store.getState(), 0);
    expect(row).toMatchObject({ type: 'user', pending: true, attachments: [{ type: 'image', name: 'a.png', mimeType: 'image/png', bytes: 3 }] });
    release();
    await flush();
  });

  it('keeps the attachments of a refused prompt on its send error, to be put back', async () => {
    const ctx = boundStore();
    await showSession(ctx);
    ctx.fake.handle('prompt:send', () => ({ ok: false, error: { code: 'invalid_request', message: 'Demo does not accept images.' } }));
    await ctx.store.getState().sendPrompt('look', { content: [image] });
    await flush();
    expect(ctx.store.getState().sendError).toMatchObject({ text: 'look', content: [image], code: 'invalid_request' });
  });

  it('sends nothing with neither text nor attachments', async () => {
    const ctx = boundStore();
    await showSession(ctx);
    expect(await ctx.store.getState().sendPrompt('  ', { content: [] })).toBe(false);
    expect(ctx.fake.callsOf('prompt:send')).toEqual([]);
  });

  it('asks the host for the session folder’s files, and offers none when it cannot answer', async () => {
    const ctx = boundStore();
    ctx.fake.handle('files:search', (req) => ok({ paths: [`${req.query}.md`], truncated: false }));
    expect(await ctx.store.getState().searchFiles(SID, 'readme')).toEqual(['readme.md']);
    ctx.fake.handle('files:search', () => ({ ok: false, error: { code: 'not_found', message: 'gone' } }));
    expect(await ctx.store.getState().searchFiles(SID, 'x')).toEqual([]);
  });
});
