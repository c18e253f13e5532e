import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { demoAgent } from '../catalogue/demo-agent';
import { scriptedAgent } from '../test-support/scripted-agent';
import { startHarness, type Harness } from '../test-support/host-harness';
import { tempDir } from '../test-support/temp-dir';

const harnesses: Harness[] = [];
const dirs: { cleanup(): void }[] = [];
afterEach(async () => {
  for (const h of harnesses.splice(0)) await h.cleanup();
  dirs.splice(0).forEach((d) => d.cleanup());
});

async function harness(...args: Parameters<typeof startHarness>): Promise<Harness> {
  const h = await startHarness(...args);
  harnesses.push(h);
  return h;
}

function folder(root: string, name: string): string {
  const path = join(root, name);
  mkdirSync(path, { recursive: true });
  return path;
}

describe('New session: folder and agent', () => {
  it("confines the agent's file requests to the folder and the additional folders, nothing else", async () => {
    const h = await harness();
    const w = h.window();
    const project = folder(h.dataDir, 'project');
    const docs = folder(h.dataDir, 'docs');
    const other = folder(h.dataDir, 'other');
    writeFileSync(join(docs, 'guide.md'), 'from the docs folder\n');
    writeFileSync(join(other, 'secret.txt'), 'not for the agent\n');
    const view = await w.call('sessions:create', { cwd: project, additionalDirs: [docs] });
    await w.call('sessions:switch', { sessionId: view.id });
    await w.prompt(view.id, `/read ${join(docs, 'guide.md')}`);
    expect(w.agentText(view.id)).toContain('from the docs folder');
    await w.prompt(view.id, `/write ${join(docs, 'new.md')} added`);
    expect(w.agentText(view.id)).toContain('Wrote 5 bytes');
    await w.prompt(view.id, `/read ${join(other, 'secret.txt')}`);
    expect(w.agentText(view.id)).toMatch(/Could not read .*secret\.txt: Refused/);
    expect(w.agentText(view.id)).not.toContain('not for the agent');
  });

  it('runs the agent in the chosen folder and gives it the additional folders', async () => {
    const h = await harness();
    const w = h.window();
    const project = folder(h.dataDir, 'project');
    const docs = folder(h.dataDir, 'docs');
    const view = await w.call('sessions:create', { cwd: `${project}/`, additionalDirs: [docs, project] });
    expect(view.cwd).toBe(project);
    expect(view.additionalDirs).toEqual([docs]);
    await w.call('sessions:switch', { sessionId: view.id });
    await w.prompt(view.id, '/cwd');
    expect(w.agentText(view.id)).toBe(`Working folder: ${project}\nAdditional folders: ${docs}`);
    // The live session knows them too (file requests are confined to the folder and these).
    expect(h.host.service.registry.get(view.id)?.additionalDirs).toEqual([docs]);
    // Stored: the list and a restarted host still name them.
    await h.restart();
    const again = h.window();
    expect((await again.call('sessions:list', {})).find((s) => s.id === view.id)?.additionalDirs).toEqual([docs]);
    // ...and the agent gets them again when the session resumes.
    await again.call('sessions:switch', { sessionId: view.id });
    await again.prompt(view.id, '/cwd');
    expect(again.agentText(view.id)).toContain(`Additional folders: ${docs}`);
  });

  it('refuses a folder that is not there or is a file, storing nothing', async () => {
    const h = await harness();
    const w = h.window();
    const file = join(h.dataDir, 'a-file');
    writeFileSync(file, 'x');
    await expect(w.call('sessions:create', { cwd: join(h.dataDir, 'missing') })).rejects.toMatchObject({ code: 'invalid_request', message: expect.stringContaining('There is no folder') });
    await expect(w.call('sessions:create', { cwd: file })).rejects.toMatchObject({ code: 'invalid_request', message: expect.stringContaining('is a file, not a folder') });
    await expect(w.call('sessions:create', { cwd: 'relative/path' })).rejects.toMatchObject({ code: 'invalid_request' });
    await expect(w.call('sessions:create', { cwd: h.dataDir, additionalDirs: [file] })).rejects.toMatchObject({ code: 'invalid_request', message: expect.stringContaining('An additional folder') });
    expect(await w.call('sessions:list', {})).toEqual([]);
    expect(await w.call('folders:recent', {})).toEqual({ folders: [] });
  });

  it('checks a typed folder through the host as the dialog asks', async () => {
    const h = await harness();
    const w = h.window();
    expect(await w.call('folders:check', { path: h.dataDir })).toEqual({ ok: true, path: h.dataDir });
    expect(await w.call('folders:check', { path: join(h.dataDir, 'nope') })).toMatchObject({ ok: false, problem: 'missing' });
    expect(await w.call('folders:check', { path: 'nope' })).toMatchObject({ ok: false, problem: 'relative' });
  });

  it('offers the folders sessions started in, most recent first', async () => {
    const h = await harness();
    const w = h.window();
    const [a, b] = [folder(h.dataDir, 'a'), folder(h.dataDir, 'b')];
    for (const cwd of [a, b, a]) await w.call('sessions:create', { cwd });
    expect(await w.call('folders:recent', {})).toEqual({ folders: [a, b] });
  });

  it('remembers the last agent chosen as the one New session preselects, across restarts', async () => {
    const secondDir = tempDir();
    dirs.push(secondDir);
    const h = await harness({ agents: [{ ...demoAgent(secondDir.path), id: 'second', name: 'Second demo' }] });
    const w = h.window();
    expect((await w.call('host:info', {})).settings.defaultAgentId).toBe('demo');
    const view = await w.call('sessions:create', { agentId: 'second', cwd: h.dataDir });
    expect(view.agentId).toBe('second');
    expect((await w.call('host:info', {})).settings.defaultAgentId).toBe('second');
    await h.restart();
    expect((await h.window().call('host:info', {})).settings.defaultAgentId).toBe('second');
  });
});

describe('the native folder picker port', () => {
  it('is unsupported in a headless host, and host:info says there is none', async () => {
    const h = await harness();
    const w = h.window();
    expect((await w.call('host:info', {})).canPickFolder).toBe(false);
    await expect(w.call('folders:pick', {})).rejects.toMatchObject({ code: 'unsupported' });
  });

  it('answers the folder the picker chose, or that it was cancelled', async () => {
    const answers: (string | undefined)[] = ['/chosen/folder', undefined];
    const h = await harness({ folderPicker: { pick: () => Promise.resolve(answers.shift()) } });
    const w = h.window();
    expect((await w.call('host:info', {})).canPickFolder).toBe(true);
    expect(await w.call('folders:pick', {})).toEqual({ cancelled: false, path: '/chosen/folder' });
    expect(await w.call('folders:pick', {})).toEqual({ cancelled: true });
  });
});

describe("opening an agent's existing session (session/list)", () => {
  it("lists sessions an earlier agent process made and opens one with its conversation", async () => {
    const shared = tempDir();
    dirs.push(shared);
    const demoArgs = ['--data-dir', shared.path];
    // Another client of the same agent (its own host and data) made a session earlier.
    const other = await harness({ demoAgentArgs: demoArgs });
    const ow = other.window();
    const project = folder(shared.path, 'project');
    const earlier = await ow.call('sessions:create', { cwd: project });
    await ow.call('sessions:switch', { sessionId: earlier.id });
    await ow.prompt(earlier.id, '/title Listed one');
    await ow.prompt(earlier.id, 'remember me');
    await other.cleanup();
    harnesses.splice(harnesses.indexOf(other), 1);

    const h = await harness({ demoAgentArgs: demoArgs });
    const w = h.window();
    const page = await w.call('agents:sessions', { agentId: 'demo' });
    const listed = page.sessions.find((s) => s.title === 'Listed one');
    expect(listed).toMatchObject({ cwd: project, title: 'Listed one', additionalDirs: [] });
    expect(listed?.openAs).toBeUndefined();
    expect(listed?.updatedAt).toEqual(expect.any(Number));
    expect((await w.call('agents:sessions', { agentId: 'demo', cwd: h.dataDir })).sessions).toEqual([]);

    const opened = await w.call('sessions:create', { agentId: 'demo', cwd: listed!.cwd, acpSessionId: listed!.acpSessionId, title: listed!.title });
    expect(opened.title).toBe('Listed one');
    await w.call('sessions:switch', { sessionId: opened.id });
    await w.waitForState(opened.id, 'ACTIVE');
    // Its conversation is the agent's replay (nothing of it was stored here before).
    const stored = h.stored(opened.id);
    expect(stored.filter((e) => e.kind === 'user_message').map((e) => e.payload.text)).toEqual(['/title Listed one', 'remember me']);
    expect(w.agentText(opened.id)).toContain('Echo: remember me');
    // Bound to that agent session: the agent counts its earlier prompts.
    await w.prompt(opened.id, '/history');
    expect(w.agentText(opened.id)).toContain('History: 2 earlier prompts');

    // Listed again, it names the session it is open as, and is not opened twice.
    const again = (await w.call('agents:sessions', { agentId: 'demo' })).sessions.find((s) => s.acpSessionId === listed!.acpSessionId);
    expect(again?.openAs).toBe(opened.id);
    await expect(w.call('sessions:create', { agentId: 'demo', cwd: project, acpSessionId: listed!.acpSessionId })).rejects.toMatchObject({ code: 'already_exists' });
  });

  it('says unsupported for an agent that does not list its sessions', async () => {
    const h = await harness({ agents: [scriptedAgent('quiet', 'ignore-cancel')] });
    await expect(h.window().call('agents:sessions', { agentId: 'quiet' })).rejects.toMatchObject({ code: 'unsupported', message: expect.stringContaining('does not list its sessions') });
  });
});
