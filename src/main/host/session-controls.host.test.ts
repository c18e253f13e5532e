import { afterEach, describe, expect, it } from 'vitest';
import { currentSkip, type SessionControls, type SessionEventT } from '../../shared/contract';
import { liveSession, startHarness, type Harness, type TestWindow } from '../test-support/host-harness';
import type { HostOptions } from './session-host';

let h: Harness | undefined;
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
});

async function setup(options: Partial<HostOptions> = {}): Promise<{ h: Harness; w: TestWindow; id: string }> {
  h = await startHarness(options);
  const w = h.window();
  const id = await liveSession(h, w);
  await h.settled(id);
  return { h, w, id };
}

/** The controls last pushed to `w` for the session that match `check`, waited for. */
function controlsWhere(w: TestWindow, id: string, check: (c: SessionControls) => boolean, after = 0): Promise<SessionControls> {
  return w.waitFor('session:controls', (p) => p.sessionId === id && check(p.controls), 15_000, after).then((p) => p.controls);
}

const mode = (c: SessionControls | undefined): string | undefined => c?.modes?.currentModeId;
const model = (c: SessionControls | undefined): string | undefined => c?.models?.currentModelId;
const verbosity = (c: SessionControls | undefined): unknown => c?.configOptions?.find((o) => o.id === 'verbosity')?.currentValue;
const notices = (events: readonly SessionEventT[]): string[] =>
  events.flatMap((e) => (e.kind === 'notice' && e.payload.kind === 'default_applied' ? [e.payload.text] : []));

async function newLiveSession(h: Harness, w: TestWindow): Promise<string> {
  const id = await liveSession(h, w);
  await h.settled(id);
  return id;
}

describe('modes, models and config options', () => {
  it('keeps what session/new offers, stores it with the session, and answers it on a switch, after a restart too', async () => {
    const { h, w, id } = await setup();
    const pushed = await controlsWhere(w, id, (c) => c.modes !== undefined);
    expect(pushed.modes?.availableModes.map((m) => m.id)).toEqual(['ask', 'code', 'bypass']);
    expect(mode(pushed)).toBe('ask');
    expect(model(pushed)).toBe('demo-fast');
    expect(pushed.models?.availableModels.map((m) => m.modelId)).toEqual(['demo-fast', 'demo-smart', 'demo-offline']);
    expect(pushed.configOptions).toEqual([
      expect.objectContaining({ id: 'verbosity', name: 'Verbosity', type: 'select', currentValue: 'normal' }),
      // Offered because the host advertises boolean options in `initialize`.
      expect.objectContaining({ id: 'think-aloud', name: 'Think aloud', type: 'boolean', currentValue: false }),
    ]);

    await h.restart();
    const again = await h.window().call('sessions:switch', { sessionId: id });
    expect(mode(again.controls)).toBe('ask');
    expect(again.controls?.configOptions?.[0]?.id).toBe('verbosity');
  });

  it('sets a mode, a model and an option on the agent, and shows what the agent then holds', async () => {
    const { w, id } = await setup();
    const afterMode = await w.call('sessions:configure', { sessionId: id, target: { kind: 'mode' }, value: 'code' });
    expect(mode(afterMode)).toBe('code');
    await w.prompt(id, '/mode');
    expect(w.agentText(id)).toContain('Mode: code');

    const afterModel = await w.call('sessions:configure', { sessionId: id, target: { kind: 'model' }, value: 'demo-smart' });
    expect(model(afterModel)).toBe('demo-smart');
    const afterOption = await w.call('sessions:configure', { sessionId: id, target: { kind: 'option', configId: 'verbosity' }, value: 'chatty' });
    expect(verbosity(afterOption)).toBe('chatty');
    const afterSwitch = await w.call('sessions:configure', { sessionId: id, target: { kind: 'option', configId: 'think-aloud' }, value: true });
    expect(afterSwitch.configOptions?.find((o) => o.id === 'think-aloud')?.currentValue).toBe(true);
    // Every change was pushed to the watching window, in order.
    const last = await controlsWhere(w, id, (c) => c.configOptions?.find((o) => o.id === 'think-aloud')?.currentValue === true);
    expect(last.rev).toBe(afterSwitch.rev);
    expect(verbosity(last)).toBe('chatty');
    expect(mode(last)).toBe('code');
  });

  it('follows a mode the agent switches to by itself, without remembering it as the person\'s choice', async () => {
    const { h, w, id } = await setup();
    const mark = w.mark();
    await w.prompt(id, '/mode code');
    const pushed = await controlsWhere(w, id, (c) => mode(c) === 'code', mark);
    expect(mode(h.host.service.switchTo(w.id, id).controls)).toBe('code');
    expect(pushed.modes?.availableModes).toHaveLength(3);

    const next = await newLiveSession(h, w);
    expect(mode((await w.call('sessions:switch', { sessionId: next })).controls)).toBe('ask');
  });

  it('shows an agent\'s refusal as the agent said it, and keeps what the session held', async () => {
    const { w, id } = await setup();
    await expect(w.call('sessions:configure', { sessionId: id, target: { kind: 'model' }, value: 'demo-offline' })).rejects.toMatchObject({
      code: 'agent_error',
      message: expect.stringContaining('Demo Offline is not available right now'),
    });
    expect(model((await w.call('sessions:switch', { sessionId: id })).controls)).toBe('demo-fast');
  });

  it('refuses a choice the agent does not offer before asking it', async () => {
    const { w, id } = await setup();
    await expect(w.call('sessions:configure', { sessionId: id, target: { kind: 'mode' }, value: 'turbo' })).rejects.toMatchObject({ code: 'invalid_request' });
    await expect(w.call('sessions:configure', { sessionId: id, target: { kind: 'option', configId: 'verbosity' }, value: true })).rejects.toMatchObject({
      code: 'invalid_request',
    });
  });

  it('answers what is stored now, also when the stored controls changed behind the keeper (its parse of them is kept)', async () => {
    const { h, w, id } = await setup();
    await controlsWhere(w, id, (c) => c.modes !== undefined);
    expect(mode((await w.call('sessions:switch', { sessionId: id })).controls)).toBe('ask');
    // Another writer of the row (a restore, a second code path) changes the stored JSON.
    const stored = JSON.parse(h.host.store.sessions.controlsJson(id)!) as SessionControls;
    h.host.store.sessions.setControlsJson(id, JSON.stringify({ ...stored, modes: { ...stored.modes!, currentModeId: 'code' } }));
    expect(mode((await w.call('sessions:switch', { sessionId: id })).controls)).toBe('code');
    // The keeper's own change builds on the new JSON, not on its earlier parse.
    const afterModel = await w.call('sessions:configure', { sessionId: id, target: { kind: 'model' }, value: 'demo-smart' });
    expect([mode(afterModel), model(afterModel)]).toEqual(['code', 'demo-smart']);
  });

  it('starts a sleeping session\'s agent to change its mode', async () => {
    const { w, id } = await setup();
    await w.call('sessions:close', { sessionId: id });
    const controls = await w.call('sessions:configure', { sessionId: id, target: { kind: 'mode' }, value: 'code' });
    expect(mode(controls)).toBe('code');
    await w.prompt(id, '/mode');
    expect(w.agentText(id)).toContain('Mode: code');
  });
});

describe('remembered choices', () => {
  it('applies the person\'s last mode, model and option to the next new session of that agent, and says so', async () => {
    const { h, w, id } = await setup();
    await w.call('sessions:configure', { sessionId: id, target: { kind: 'mode' }, value: 'code' });
    await w.call('sessions:configure', { sessionId: id, target: { kind: 'model' }, value: 'demo-smart' });
    await w.call('sessions:configure', { sessionId: id, target: { kind: 'option', configId: 'verbosity' }, value: 'terse' });

    const next = await newLiveSession(h, w);
    const controls = (await w.call('sessions:switch', { sessionId: next })).controls;
    expect([mode(controls), model(controls), verbosity(controls)]).toEqual(['code', 'demo-smart', 'terse']);
    expect(notices(h.stored(next))).toEqual(['Your last choices for Demo agent: Mode Code, Model Demo Smart, Verbosity Terse.']);
    // The agent itself runs in it, not only the header.
    await w.prompt(next, '/mode');
    expect(w.agentText(next)).toContain('Mode: code');
  });

  it('never applies a mode that skips permission prompts which the person did not choose in that agent', async () => {
    const { h, w, id } = await setup();
    // The agent switched itself to bypass; the person only chose a model.
    await w.prompt(id, '/mode bypass');
    await w.call('sessions:configure', { sessionId: id, target: { kind: 'model' }, value: 'demo-smart' });
    const second = await newLiveSession(h, w);
    const controls = (await w.call('sessions:switch', { sessionId: second })).controls;
    expect([mode(controls), model(controls)]).toEqual(['ask', 'demo-smart']);

    // A remembered bypass the person is not recorded as having picked (an older record) is not applied either.
    h.host.store.settings.set('agentChoices', { demo: { mode: 'bypass' } });
    const third = await newLiveSession(h, w);
    expect(mode((await w.call('sessions:switch', { sessionId: third })).controls)).toBe('ask');
    expect(notices(h.stored(third))).toEqual([]);
  });

  it('applies a mode that skips permission prompts once the person chose it in that agent, and the agent then runs tools unasked', async () => {
    const { h, w, id } = await setup();
    const chosen = await w.call('sessions:configure', { sessionId: id, target: { kind: 'mode' }, value: 'bypass' });
    expect(currentSkip(chosen)).toEqual({ name: 'Bypass permissions', skip: 'all' });

    const next = await newLiveSession(h, w);
    const controls = (await w.call('sessions:switch', { sessionId: next })).controls;
    expect(mode(controls)).toBe('bypass');
    expect(notices(h.stored(next))).toEqual(['Your last choices for Demo agent: Mode Bypass permissions.']);
    await w.prompt(next, '/permission');
    expect(w.agentText(next)).toContain('Not asked: bypass mode');
    expect(h.stored(next).some((e) => e.kind === 'permission_requested')).toBe(false);
  });

  it('shows an agent that starts in a mode that skips permission prompts as it is, without changing it', async () => {
    const { w, id } = await setup({ demoAgentArgs: ['--mode', 'bypass'] });
    const controls = (await w.call('sessions:switch', { sessionId: id })).controls;
    expect(mode(controls)).toBe('bypass');
    expect(currentSkip(controls)?.skip).toBe('all');
  });
});

describe('usage', () => {
  it('records each turn\'s tokens and cost on its end, and the session\'s totals', async () => {
    const { w, id } = await setup();
    const first = await w.prompt(id, '/usage');
    expect(first.kind === 'turn_ended' && first.payload.usage).toEqual({
      tokens: { inputTokens: 1200, outputTokens: 300, thoughtTokens: 100, totalTokens: 1600 },
      cost: { amount: 0.0125, currency: 'USD' },
      context: { used: 1600, size: 200_000 },
    });
    const second = await w.prompt(id, '/usage');
    const turn = second.kind === 'turn_ended' ? second.payload.usage : undefined;
    expect(turn?.cost?.amount).toBeCloseTo(0.0125, 6);
    expect(turn?.context).toEqual({ used: 3200, size: 200_000 });

    const session = (await w.call('sessions:switch', { sessionId: id })).controls?.usage;
    expect(session?.tokens).toEqual({ inputTokens: 2400, outputTokens: 600, thoughtTokens: 200, totalTokens: 3200 });
    expect(session?.cost).toEqual({ amount: 0.025, currency: 'USD' });
    expect(session?.context).toEqual({ used: 3200, size: 200_000 });
  });

  it('leaves a turn without usage when the agent reports none', async () => {
    const { w, id } = await setup();
    const ended = await w.prompt(id, 'hello');
    expect(ended.kind === 'turn_ended' && ended.payload.usage).toBeUndefined();
  });
});
