/**
 * `Export…` and `Import session…` (issue 20) with the real demo agent: Markdown to read, JSON
 * with every stored event that reads back as a read-only archived session; bad files refused
 * with nothing changed; the desktop app's save dialog as a port.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MASKED } from '../../shared/elicitation';
import type { ExportResultT } from '../../shared/contract';
import { startHarness, type Harness, type TestWindow } from '../test-support/host-harness';
import type { HostOptions } from './session-host';

let h: Harness | undefined;
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
});

const SECRET = 'very-secret-deploy-token';

/** A session with a message, a tool call, a permission answered, a question answered with a secret. */
async function richSession(options: Partial<HostOptions> = {}): Promise<{ w: TestWindow; id: string }> {
  h = await startHarness(options);
  const w = h.window('window 1');
  const { id } = await w.call('sessions:create', { cwd: h.dataDir });
  await w.call('sessions:switch', { sessionId: id });
  await w.prompt(id, 'hello there');
  await w.prompt(id, '/tool Read the README');
  const asking = w.call('prompt:send', { sessionId: id, clientMessageId: randomUUID(), text: '/permission Edit greeting.txt' });
  const permission = await w.waitFor('permission:requested', (p) => p.sessionId === id);
  await asking;
  await w.call('permissions:answer', { requestId: permission.requestId, sessionId: id, optionId: 'allow_once' });
  await w.waitForText(id, 'Permission outcome: allow_once');
  await w.waitIdle(id);
  const mark = w.mark();
  const elicit = randomUUID();
  await w.call('prompt:send', { sessionId: id, clientMessageId: elicit, text: '/elicit' });
  const question = await w.waitFor('question:asked', (q) => q.sessionId === id, 15_000, mark);
  await w.call('questions:answer', {
    requestId: question.requestId,
    sessionId: id,
    action: 'accept',
    content: { name: 'web', email: 'ann@example.com', region: 'us', replicas: 3, confirm: true, token: SECRET },
  });
  await w.waitAnswered(id, elicit);
  return { w, id };
}

function download(result: ExportResultT): { fileName: string; mimeType: string; text: string } {
  if (result.kind !== 'download') throw new Error(`expected a download, got ${result.kind}`);
  return result;
}

describe('Export…', () => {
  it('as Markdown: readable, tool calls with title and status, the permission and the question with their answers, secrets masked', async () => {
    const { w, id } = await richSession();
    const file = download(await w.call('sessions:export', { sessionId: id, format: 'markdown' }));
    expect(file.fileName).toMatch(/^hello-there-\d{4}-\d{2}-\d{2}\.md$/);
    expect(file.mimeType).toBe('text/markdown');
    const md = file.text;
    expect(md).toMatch(/^# hello there\n/);
    expect(md).toContain('- Agent: Demo agent');
    expect(md).toMatch(/## You · .*\n\nhello there/);
    expect(md).toContain('## Agent');
    expect(md).toContain('Echo: hello there');
    expect(md).toContain('- **Tool call** `Read the README` (read): completed');
    expect(md).toMatch(/- \*\*Tool call\*\* `Edit greeting.txt` \(edit\): completed\n {2}- Edited `.*greeting.txt` \(\+1 −1 lines\)/);
    expect(md).toMatch(/- \*\*Permission\*\* for `Edit greeting.txt`: Allow once, by window 1/);
    expect(md).toMatch(/- \*\*Question\*\* `Deploy the demo`: “A few questions before the demo deploys\.” — answered by window 1/);
    expect(md).toContain('  - Project name: `"web"`');
    expect(md).toContain(`  - Deploy token: \`"${MASKED}"\``);
    expect(md).not.toContain(SECRET);
  });

  it('as JSON: every stored event, re-imported as a read-only archived session that refuses prompts and forks', async () => {
    const { w, id } = await richSession();
    const file = download(await w.call('sessions:export', { sessionId: id, format: 'json' }));
    expect(file.text).not.toContain(SECRET);
    const archive = JSON.parse(file.text) as { events: unknown[]; session: { id: string } };
    const stored = h!.stored(id);
    expect(archive.events).toEqual(JSON.parse(JSON.stringify(stored)));
    expect(archive.session.id).toBe(id);

    const imported = await w.call('sessions:import', { text: file.text, fileName: file.fileName });
    expect(imported).toMatchObject({ readOnly: true, state: 'ENDED', stateReason: 'imported', title: 'hello there', archivedAt: expect.any(Number) });
    expect(imported.canFork).toBeUndefined();
    const copy = h!.stored(imported.id);
    expect(copy.slice(0, stored.length).map((e) => [e.kind, e.payload, e.at])).toEqual(stored.map((e) => [e.kind, e.payload, e.at]));
    expect(copy.at(-1)).toMatchObject({ kind: 'notice', payload: { kind: 'imported', text: expect.stringContaining(file.fileName) } });

    await expect(w.call('prompt:send', { sessionId: imported.id, clientMessageId: randomUUID(), text: 'go on' })).rejects.toMatchObject({
      code: 'invalid_state',
      message: expect.stringMatching(/read-only copy with no agent session/),
    });
    await expect(w.call('sessions:fork', { sessionId: imported.id })).rejects.toMatchObject({ code: 'unsupported' });
    await expect(w.call('sessions:retry', { sessionId: imported.id })).rejects.toMatchObject({ code: 'invalid_state' });
    // Nothing started an agent for it, and it still exports.
    expect(h!.host.pool.brokerOf(imported.id)).toBeUndefined();
    expect(download(await w.call('sessions:export', { sessionId: imported.id, format: 'markdown' })).text).toContain('Imported: a read-only copy');
  });

  it('through the save dialog port in the desktop app: saved where the person chose, or nothing when cancelled', async () => {
    const saved: string[] = [];
    let cancel = false;
    const { w, id } = await richSession({
      saveFile: (name, text) => {
        if (cancel) return Promise.resolve(undefined);
        const path = join(h!.dataDir, name);
        writeFileSync(path, text);
        saved.push(path);
        return Promise.resolve(path);
      },
    });
    expect((await w.call('host:info', {})).canSaveFile).toBe(true);
    const result = await w.call('sessions:export', { sessionId: id, format: 'markdown' });
    expect(result).toEqual({ kind: 'saved', path: saved[0] });
    expect(readFileSync(saved[0]!, 'utf8')).toMatch(/^# hello there/);
    cancel = true;
    expect(await w.call('sessions:export', { sessionId: id, format: 'json' })).toEqual({ kind: 'cancelled' });
  });
});

describe('Import session…', () => {
  it('refuses a file that is not JSON, or not an export, with a clear reason, and changes nothing', async () => {
    h = await startHarness();
    const w = h.window('window 1');
    const before = await w.call('sessions:list', {});
    await expect(w.call('sessions:import', { text: 'not json at all', fileName: 'notes.txt' })).rejects.toMatchObject({
      code: 'invalid_request',
      message: expect.stringMatching(/“notes\.txt” is not JSON/),
    });
    const bad = {
      format: 'switchboard-session',
      version: 1,
      exportedAt: '2026-01-01T00:00:00Z',
      session: { id: randomUUID(), title: 't', agentId: 'demo', cwd: '/w', additionalDirs: [], createdAt: 1 },
      events: [{ sessionId: randomUUID(), seq: 1, at: 1, kind: 'user_message', payload: { text: 7 } }],
    };
    await expect(w.call('sessions:import', { text: JSON.stringify(bad), fileName: 'bad.json' })).rejects.toMatchObject({
      code: 'invalid_request',
      message: expect.stringMatching(/“bad\.json” is not a Switchboard session export: events\.0/),
    });
    await expect(w.call('sessions:import', { text: JSON.stringify({ format: 'something else' }) })).rejects.toMatchObject({ code: 'invalid_request' });
    expect(await w.call('sessions:list', {})).toEqual(before);
    expect(h.host.store.db.prepare('SELECT COUNT(*) AS n FROM events').get()).toEqual({ n: 0 });
  });
});
