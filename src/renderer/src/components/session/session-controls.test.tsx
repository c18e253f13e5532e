import { describe, expect, it } from 'vitest';
import type { SessionControls } from '../../../../shared/contract';
import type { AppState } from '../../store/app-store';
import { SID, view } from '../../test-support/fake-api';
import { renderWith, storeWith } from '../../test-support/static-render';
import { SessionHeader } from './session-header';

const modes = [
  { id: 'ask', name: 'Ask' },
  { id: 'code', name: 'Code' },
  { id: 'bypass', name: 'Bypass permissions', description: 'Runs every tool without asking' },
];

function controls(over: Partial<SessionControls> = {}): SessionControls {
  return {
    rev: 1,
    modes: { currentModeId: 'ask', availableModes: modes },
    models: { currentModelId: 'fast', availableModels: [{ modelId: 'fast', name: 'Fast' }, { modelId: 'smart', name: 'Smart' }] },
    configOptions: [{ id: 'verbosity', name: 'Verbosity', type: 'select', currentValue: 'normal', options: [{ value: 'normal', name: 'Normal' }, { value: 'terse', name: 'Terse' }] }],
    ...over,
  };
}

function header(state: Partial<AppState>): string {
  const store = storeWith({ sessionsById: new Map([[SID, view()]]), currentSessionId: SID, ...state });
  return renderWith(store, <SessionHeader />);
}

const selectNamed = (html: string, name: string): string => {
  const m = new RegExp(`<select aria-label="${name}"[^>]*>(.*?)</select>`).exec(html);
  if (!m) throw new Error(`no select named ${name} in ${html}`);
  return m[0];
};

describe('session header controls', () => {
  it('shows one select per control, named after it, with the current choice selected', () => {
    const html = header({ controlsById: new Map([[SID, controls()]]) });
    expect(selectNamed(html, 'Mode')).toContain('<option value="ask" selected="">Ask</option>');
    expect(selectNamed(html, 'Model')).toContain('<option value="fast" selected="">Fast</option>');
    expect(selectNamed(html, 'Verbosity')).toContain('<option value="normal" selected="">Normal</option>');
    expect(html).not.toContain('mode-warning');
  });

  it('shows an on/off option as a checkbox named after it', () => {
    const html = header({
      controlsById: new Map([[SID, controls({ configOptions: [{ id: 'think', name: 'Think aloud', type: 'boolean', currentValue: true }] })]]),
    });
    expect(html).toMatch(/<label class="session-control"><input type="checkbox" checked=""\/><span class="session-control-label">Think aloud<\/span><\/label>/);
  });

  it('marks a mode that skips permission prompts in the list', () => {
    const html = selectNamed(header({ controlsById: new Map([[SID, controls()]]) }), 'Mode');
    expect(html).toContain('⚠ Bypass permissions (skips all permission prompts)');
    expect(html).toContain('>Code</option>');
  });

  it('warns in the header while the session runs in such a mode (as when an agent starts in one)', () => {
    const html = header({ controlsById: new Map([[SID, controls({ modes: { currentModeId: 'bypass', availableModes: modes } })]]) });
    expect(html).toMatch(/<p class="mode-warning mode-warning-all" role="status">⚠ Bypass permissions: .* runs every tool without asking you<\/p>/);
  });

  it('shows the value being set while the host has not answered, and disables the control', () => {
    const html = header({ controlsById: new Map([[SID, controls()]]), pendingControls: [{ sessionId: SID, key: 'mode', value: 'code' }] });
    const mode = selectNamed(html, 'Mode');
    expect(mode).toContain('disabled=""');
    expect(mode).toContain('<option value="code" selected="">Code</option>');
  });

  it('says a refused change with the agent\'s words', () => {
    const html = header({ controlsById: new Map([[SID, controls()]]), controlError: { sessionId: SID, label: 'Model', message: 'Demo agent refused session/set_model: Smart is not available' } });
    expect(html).toContain('role="alert">Could not change Model: Demo agent refused session/set_model: Smart is not available');
  });

  it('shows the session\'s usage where the agent reported it, and nothing when it did not', () => {
    const usage = { context: { used: 3200, size: 200_000 }, tokens: { inputTokens: 2400, outputTokens: 600, totalTokens: 3200 }, cost: { amount: 0.025, currency: 'USD' } };
    expect(header({ controlsById: new Map([[SID, controls({ usage })]]) })).toContain('aria-label="Session usage">Context 3.2k / 200k · 3.2k tokens · $0.025</p>');
    expect(header({ controlsById: new Map() })).not.toContain('session-controls');
  });
});
