import { randomUUID } from 'node:crypto';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { PromptBlock, SessionEventT } from '../../shared/contract';
import { overrideCapabilities, spyAcp } from '../test-support/acp-spy';
import { startHarness, type Harness, type TestWindow } from '../test-support/host-harness';
import { tempDir } from '../test-support/temp-dir';

let h: Harness;
const dirs: { cleanup(): void }[] = [];
afterEach(async () => {
  await h?.cleanup();
  for (const d of dirs.splice(0)) d.cleanup();
});

// 1×1 transparent PNG.
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

function project() {
  const d = tempDir();
  dirs.push(d);
  const folder = join(d.path, 'project');
  mkdirSync(join(folder, 'src'), { recursive: true });
  writeFileSync(join(folder, 'src', 'notes.md'), '# Notes\n');
  writeFileSync(join(d.path, 'secret.txt'), 'secret');
  symlinkSync(join(d.path, 'secret.txt'), join(folder, 'leak.txt'));
  return { folder };
}

async function session(w: TestWindow, cwd: string): Promise<string> {
  const view = await w.call('sessions:create', { cwd });
  await w.call('sessions:switch', { sessionId: view.id });
  await w.waitFor('session:updated', (v) => v.id === view.id && v.promptCapabilities !== undefined);
  return view.id;
}

async function send(w: TestWindow, sessionId: string, text: string, content: PromptBlock[]): Promise<SessionEventT> {
  const clientMessageId = randomUUID();
  await w.call('prompt:send', { sessionId, clientMessageId, text, content });
  return w.waitAnswered(sessionId, clientMessageId);
}

describe('prompts with attachments and mentions (demo agent)', () => {
  it('shows the agent’s prompt capabilities on the session view once it runs', async () => {
    h = await startHarness();
    const w = h.window();
    const id = await session(w, project().folder);
    const view = (await w.call('sessions:list', {})).find((v) => v.id === id);
    expect(view?.promptCapabilities).toEqual({ image: true, audio: false, embeddedContext: true });
  });

  it('sends an image and an embedded file to the agent and records them as chips', async () => {
    h = await startHarness();
    const w = h.window();
    const id = await session(w, project().folder);
    const spy = spyAcp();
    const sent = spy.next('session/prompt');
    const ended = await send(w, id, 'look', [
      { type: 'image', mimeType: 'image/png', data: PNG, name: 'dot.png' },
      { type: 'resource', resource: { uri: 'attachment:///a.txt', mimeType: 'text/plain', text: 'hello' } },
    ]);
    expect(ended.kind === 'turn_ended' && ended.payload.stopReason).toBe('end_turn');
    expect((await sent as { prompt: unknown[] }).prompt).toEqual([
      { type: 'text', text: 'look' },
      { type: 'image', mimeType: 'image/png', data: PNG },
      { type: 'resource', resource: { uri: 'attachment:///a.txt', mimeType: 'text/plain', text: 'hello' } },
    ]);
    expect(w.agentText(id)).toContain('Received image image/png 68 bytes; resource attachment:///a.txt (5 characters of text).');
    const user = h.stored(id).find((e) => e.kind === 'user_message');
    expect(user?.kind === 'user_message' && user.payload.attachments).toEqual([
      { type: 'image', mimeType: 'image/png', bytes: 68, name: 'dot.png', thumbnail: `data:image/png;base64,${PNG}` },
      { type: 'file', name: 'a.txt', uri: 'attachment:///a.txt', as: 'resource', mimeType: 'text/plain', bytes: 5 },
    ]);
  });

  it('embeds a small mentioned text file when the agent takes embedded context', async () => {
    h = await startHarness();
    const w = h.window();
    const { folder } = project();
    const id = await session(w, folder);
    await send(w, id, 'read @src/notes.md', [{ type: 'mention', path: 'src/notes.md' }]);
    const uri = pathToFileURL(join(folder, 'src', 'notes.md')).href;
    expect(w.agentText(id)).toContain(`Received resource ${uri} (8 characters of text).`);
    const user = h.stored(id).find((e) => e.kind === 'user_message');
    expect(user?.kind === 'user_message' && user.payload.attachments).toEqual([{ type: 'file', name: 'src/notes.md', uri, as: 'mention' }]);
  });

  it('links a mentioned file that is too large or not text even when the agent takes embedded context', async () => {
    h = await startHarness();
    const w = h.window();
    const { folder } = project();
    writeFileSync(join(folder, 'big.txt'), 'x'.repeat(64 * 1024 + 1));
    writeFileSync(join(folder, 'blob.bin'), Buffer.from([1, 0, 2]));
    const id = await session(w, folder);
    await send(w, id, 'see', [
      { type: 'mention', path: 'big.txt' },
      { type: 'mention', path: 'blob.bin' },
    ]);
    const link = (name: string, bytes: number) => `resource_link ${pathToFileURL(join(folder, name)).href} (${bytes} bytes)`;
    expect(w.agentText(id)).toContain(`Received ${link('big.txt', 64 * 1024 + 1)}; ${link('blob.bin', 3)}.`);
  });

  it('links a mentioned file when the agent does not take embedded context', async () => {
    h = await startHarness();
    overrideCapabilities(h.host.pool, { loadSession: true, promptCapabilities: {} });
    const w = h.window();
    const { folder } = project();
    const id = await session(w, folder);
    await send(w, id, 'see', [{ type: 'mention', path: 'src/notes.md' }]);
    expect(w.agentText(id)).toContain(`Received resource_link ${pathToFileURL(join(folder, 'src', 'notes.md')).href} (8 bytes).`);
  });

  it('refuses, before storing anything, an image for an agent without image support', async () => {
    h = await startHarness();
    overrideCapabilities(h.host.pool, { loadSession: true, promptCapabilities: { embeddedContext: true } });
    const w = h.window();
    const id = await session(w, project().folder);
    const before = h.stored(id).length;
    await expect(
      w.call('prompt:send', { sessionId: id, clientMessageId: randomUUID(), text: 'x', content: [{ type: 'image', mimeType: 'image/png', data: PNG }] }),
    ).rejects.toMatchObject({ code: 'invalid_request', message: expect.stringContaining('does not accept images') });
    expect(h.stored(id).length).toBe(before);
  });

  it('refuses at the turn what the agent turned out not to take, and a retried send of it stays a duplicate', async () => {
    h = await startHarness();
    overrideCapabilities(h.host.pool, { loadSession: true, promptCapabilities: {} });
    const w = h.window();
    const view = await w.call('sessions:create', { cwd: project().folder });
    await w.call('sessions:switch', { sessionId: view.id });
    // Sent before the agent is up: nothing is known yet, so the window and the host accept it.
    const req = { sessionId: view.id, clientMessageId: randomUUID(), text: 'x', content: [{ type: 'image' as const, mimeType: 'image/png', data: PNG }] };
    expect(await w.call('prompt:send', req)).toEqual({ accepted: true, duplicate: false });
    const ended = await w.waitAnswered(view.id, req.clientMessageId);
    expect(ended.kind === 'turn_ended' && ended.payload.stopReason).toBe('error');
    const error = h.stored(view.id).find((e) => e.kind === 'error');
    expect(error?.kind === 'error' && error.payload.message).toContain('does not accept images');
    expect(await w.call('prompt:send', req)).toEqual({ accepted: true, duplicate: true });
  });

  it('refuses a mention that leaves the folder by .. or by a symlink, and one of a missing file', async () => {
    h = await startHarness();
    const w = h.window();
    const id = await session(w, project().folder);
    for (const path of ['../secret.txt', 'leak.txt', 'src/../../secret.txt', 'nope.md']) {
      await expect(
        w.call('prompt:send', { sessionId: id, clientMessageId: randomUUID(), text: `@${path}`, content: [{ type: 'mention', path }] }),
      ).rejects.toMatchObject({ code: 'invalid_request', message: expect.stringContaining('not a file inside the session') });
    }
    expect(h.stored(id).filter((e) => e.kind === 'user_message')).toEqual([]);
  });

  it('rejects attachments over the size caps at the contract', async () => {
    h = await startHarness();
    const w = h.window();
    const id = await session(w, project().folder);
    const huge = 'A'.repeat(7 * 1024 * 1024);
    await expect(
      w.call('prompt:send', { sessionId: id, clientMessageId: randomUUID(), text: 'x', content: [{ type: 'image', mimeType: 'image/png', data: huge }] }),
    ).rejects.toMatchObject({ code: 'invalid_request' });
    await expect(w.call('prompt:send', { sessionId: id, clientMessageId: randomUUID(), text: ' ' })).rejects.toMatchObject({ code: 'invalid_request' });
  });

  it('answers a prompt of attachments alone and names the session after them', async () => {
    h = await startHarness();
    const w = h.window();
    const id = await session(w, project().folder);
    await send(w, id, '', [{ type: 'image', mimeType: 'image/png', data: PNG, name: 'dot.png' }]);
    expect(w.agentText(id)).toContain('Received image image/png 68 bytes.');
    expect((await w.call('sessions:list', {})).find((v) => v.id === id)?.title).toBe('dot.png');
  });

  it('offers the latest commands in the switch answer, including those /commands sent', async () => {
    h = await startHarness();
    const w = h.window();
    const id = await session(w, project().folder);
    await w.waitFor('session:event', (e) => e.sessionId === id && e.kind === 'available_commands');
    const first = await w.call('sessions:switch', { sessionId: id });
    expect(first.availableCommands?.map((c) => c.name)).toEqual(expect.arrayContaining(['slow', 'permission', 'commands']));
    expect(first.availableCommands?.find((c) => c.name === 'slow')).toMatchObject({ description: expect.any(String), input: { hint: 'seconds' } });
    await w.prompt(id, '/commands deploy');
    const second = await w.call('sessions:switch', { sessionId: id });
    expect(second.availableCommands?.map((c) => c.name)).toContain('deploy');
  });

  it('files:search lists the session folder’s files for @ mentions, and nothing of another folder', async () => {
    h = await startHarness();
    const w = h.window();
    const id = await session(w, project().folder);
    expect(await w.call('files:search', { sessionId: id, query: 'notes' })).toEqual({ paths: ['src/notes.md'], truncated: false });
    expect((await w.call('files:search', { sessionId: id, query: 'secret' })).paths).toEqual([]);
    await expect(w.call('files:search', { sessionId: randomUUID(), query: '' })).rejects.toMatchObject({ code: 'not_found' });
  });
});
