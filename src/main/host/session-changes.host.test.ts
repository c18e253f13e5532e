import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionViewT } from '../../shared/contract';
import { liveSession, startHarness, type Harness, type TestWindow } from '../test-support/host-harness';

/**
 * Issue 18: what changes a session announces the change itself, so every window hears it
 * without a caller remembering to tell them. Each public path that changes a field of a
 * session's view is taken here by one window (or by the agent, or the reaper), and another
 * window that watches nothing must hear the new value. A write path that stops announcing
 * leaves that window stale, and its case fails.
 */

let h: Harness | undefined;
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
});

/** Waits for a view of `sessionId` pushed to `w` after `mark` that satisfies `check`. */
function heard(w: TestWindow, sessionId: string, mark: number, check: (v: SessionViewT) => boolean): Promise<SessionViewT> {
  return w.waitFor('session:updated', (v) => v.id === sessionId && check(v), 5_000, mark);
}

async function setup(options: Parameters<typeof startHarness>[0] = {}) {
  h = await startHarness(options);
  const actor = h.window('actor');
  const bystander = h.window('bystander');
  const id = await liveSession(h, actor);
  return { h, actor, bystander, id };
}

describe('every change to a session reaches every window', () => {
  it('creation, and the state as windows come and go', async () => {
    const { actor, bystander, h } = await setup();
    let mark = bystander.mark();
    const made = await actor.call('sessions:create', { cwd: h.dataDir });
    await heard(bystander, made.id, mark, () => true);
    mark = bystander.mark();
    await actor.call('sessions:switch', { sessionId: made.id });
    await heard(bystander, made.id, mark, (v) => v.state === 'ACTIVE');
    mark = bystander.mark();
    await actor.call('sessions:detach', { sessionId: made.id });
    await heard(bystander, made.id, mark, (v) => v.state === 'DETACHED');
  });

  it('a prompt: running, the title from the first prompt, then not running', async () => {
    const { actor, bystander, id } = await setup();
    const mark = bystander.mark();
    const clientMessageId = randomUUID();
    await actor.call('prompt:send', { sessionId: id, clientMessageId, text: 'first words' });
    await heard(bystander, id, mark, (v) => v.running && v.title === 'first words');
    await actor.waitAnswered(id, clientMessageId);
    await heard(bystander, id, mark, (v) => !v.running && v.turnStartedAt === undefined);
  });

  it("the agent's title", async () => {
    const { actor, bystander, id } = await setup();
    const mark = bystander.mark();
    await actor.prompt(id, '/title Named by the agent');
    await heard(bystander, id, mark, (v) => v.title === 'Named by the agent');
  });

  it('Stop while a turn runs', async () => {
    const { actor, bystander, id } = await setup();
    const mark = bystander.mark();
    await actor.call('prompt:send', { sessionId: id, clientMessageId: randomUUID(), text: '/slow 5' });
    await heard(bystander, id, mark, (v) => v.running);
    // The agent is streaming: Stop reaches a turn it is running.
    await actor.waitForText(id, 'tick');
    await actor.call('prompt:cancel', { sessionId: id });
    await heard(bystander, id, mark, (v) => !v.running);
  });

  it('a permission request, pending then answered', async () => {
    const { actor, bystander, id } = await setup();
    const mark = bystander.mark();
    await actor.call('prompt:send', { sessionId: id, clientMessageId: randomUUID(), text: '/permission edit' });
    await heard(bystander, id, mark, (v) => v.pendingPermissions === 1);
    const request = await actor.waitFor('permission:requested', (r) => r.sessionId === id);
    await actor.call('permissions:answer', { sessionId: id, requestId: request.requestId, optionId: request.options[0]!.optionId });
    await heard(bystander, id, mark, (v) => v.pendingPermissions === 0);
  });

  it('a question from the agent, pending then answered', async () => {
    const { actor, bystander, id } = await setup();
    const mark = bystander.mark();
    await actor.call('prompt:send', { sessionId: id, clientMessageId: randomUUID(), text: '/elicit' });
    await heard(bystander, id, mark, (v) => v.pendingQuestions === 1);
    const question = await actor.waitFor('question:asked', (q) => q.sessionId === id);
    await actor.call('questions:answer', { sessionId: id, requestId: question.requestId, action: 'decline' });
    await heard(bystander, id, mark, (v) => v.pendingQuestions === 0);
  });

  it('a fork, which can be forked once its agent has started, and an import', async () => {
    const { actor, bystander, id } = await setup();
    let mark = bystander.mark();
    const fork = await actor.call('sessions:fork', { sessionId: id });
    await heard(bystander, fork.id, mark, (v) => v.forkedFrom === id);
    await heard(bystander, fork.id, mark, (v) => v.canFork === true);
    const exported = await actor.call('sessions:export', { sessionId: id, format: 'json' });
    if (exported.kind !== 'download') throw new Error('expected a download');
    mark = bystander.mark();
    const imported = await actor.call('sessions:import', { text: exported.text });
    await heard(bystander, imported.id, mark, (v) => v.readOnly === true && v.archivedAt !== undefined);
  });

  it('rename, archive, restore, close and delete', async () => {
    const { actor, bystander, id } = await setup();
    let mark = bystander.mark();
    await actor.call('sessions:rename', { sessionId: id, title: 'Mine' });
    await heard(bystander, id, mark, (v) => v.title === 'Mine' && v.renamed === true);
    mark = bystander.mark();
    await actor.call('sessions:archive', { sessionId: id });
    await heard(bystander, id, mark, (v) => v.archivedAt !== undefined && v.state === 'ENDED');
    mark = bystander.mark();
    await actor.call('sessions:restore', { sessionId: id });
    await heard(bystander, id, mark, (v) => v.archivedAt === undefined);
    const other = await liveSession(h!, actor);
    mark = bystander.mark();
    await actor.call('sessions:close', { sessionId: other });
    await heard(bystander, other, mark, (v) => v.state === 'ENDED' && v.stateReason === 'closed_by_user');
    mark = bystander.mark();
    await actor.call('sessions:delete', { sessionId: id });
    await bystander.waitFor('session:deleted', (d) => d.sessionId === id, 5_000, mark);
  });

  it('an agent asking for sign-in, and the sign-in', async () => {
    h = await startHarness({ demoAgentArgs: ['--auth', 'required'] });
    const actor = h.window('actor');
    const bystander = h.window('bystander');
    const mark = bystander.mark();
    const view = await actor.call('sessions:create', { cwd: h.dataDir });
    const asked = await heard(bystander, view.id, mark, (v) => v.auth !== undefined && v.stateReason === 'auth_required');
    const method = asked.auth!.methods.find((m) => m.kind === 'env_var')!;
    await actor.call('agents:authenticate', { sessionId: view.id, methodId: method.id, value: 'demo-key' });
    await heard(bystander, view.id, mark, (v) => v.auth === undefined);
  });

  it('the agent process crashing ends the session', async () => {
    const { actor, bystander, id } = await setup();
    const mark = bystander.mark();
    await actor.call('prompt:send', { sessionId: id, clientMessageId: randomUUID(), text: '/crash' });
    await heard(bystander, id, mark, (v) => v.state === 'ENDED' && !v.running);
  });

  it('the idle reaper closing a session no window watches', async () => {
    const { actor, bystander, id } = await setup({ settings: { idleTimeoutMs: 50, reapIntervalMs: 20 } });
    const mark = bystander.mark();
    await actor.call('sessions:detach', { sessionId: id });
    await heard(bystander, id, mark, (v) => v.state === 'ENDED' && v.stateReason === 'idle_timeout');
  });

  it("the agent's modes and options reach the windows watching the session", async () => {
    const { actor, id } = await setup();
    const watcher = actor;
    const mark = watcher.mark();
    await actor.prompt(id, '/mode code');
    const pushed = await watcher.waitFor('session:controls', (c) => c.sessionId === id, 5_000, mark);
    expect(pushed.controls.modes?.currentModeId).toBe('code');
  });
});

describe('how views are pushed', () => {
  it("a turn is two views (its start, its end): the prompt's acceptance and its turn's start go as one, before the answer and the turn's events", async () => {
    const { actor, id } = await setup();
    const frames = (from: number) => actor.events.slice(from).filter((e) => (e.event === 'session:updated' && (e.payload as SessionViewT).id === id) || (e.event === 'session:event' && (e.payload as { sessionId: string }).sessionId === id));
    for (let turn = 0; turn < 3; turn++) {
      const mark = actor.mark();
      const clientMessageId = randomUUID();
      await actor.call('prompt:send', { sessionId: id, clientMessageId, text: '/history' });
      // Answered: the view of what the command changed is already here, complete.
      const atAnswer = frames(mark).filter((e) => e.event === 'session:updated');
      expect(atAnswer).toHaveLength(1);
      expect(atAnswer[0]!.payload).toMatchObject({ running: true, title: '/history' });
      expect((atAnswer[0]!.payload as SessionViewT).turnStartedAt).toEqual(expect.any(Number));
      await actor.waitAnswered(id, clientMessageId);
      // Past the host's current turn of work: a view still gathering would have gone out by now.
      await new Promise((resolve) => setImmediate(resolve));
      const all = frames(mark);
      const views = all.filter((e) => e.event === 'session:updated').map((e) => e.payload as SessionViewT);
      expect(views.map((v) => v.running)).toEqual([true, false]);
      // The first frame of the turn is its view; every stored event comes after it.
      expect(all[0]!.event).toBe('session:updated');
    }
  });
});
