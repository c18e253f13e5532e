import { describe, expect, it } from 'vitest';
import { currentSkip, headerControls, permissionSkip, SessionControls } from './session-controls';

// What Claude's ACP adapter 0.101 and Qwen Code 0.24 answered `session/new` with here (ACP.md),
// cut to what matters.
const claudeModes = [
  { id: 'default', name: 'Manual', description: 'Always ask before making changes' },
  { id: 'acceptEdits', name: 'Accept edits', description: 'Automatically accept all file edits' },
  { id: 'plan', name: 'Plan', description: 'Create a plan before making changes' },
  { id: 'auto', name: 'Auto', description: 'Claude handles permission decisions' },
  { id: 'bypassPermissions', name: 'Bypass permissions', description: 'Accepts all permissions' },
];
const qwenModes = [
  { id: 'plan', name: 'Plan', description: 'Analyze only, do not modify files or execute commands' },
  { id: 'default', name: 'Default', description: 'Require approval for file edits or shell commands' },
  { id: 'auto-edit', name: 'Auto Edit', description: 'Automatically approve file edits' },
  { id: 'auto', name: 'Auto', description: 'LLM classifier auto-approves safe actions, blocks risky ones' },
  { id: 'yolo', name: 'YOLO', description: 'Automatically approve all tools' },
];

const claudeAnswer = (mode: string) => ({
  rev: 1,
  modes: { currentModeId: mode, availableModes: claudeModes },
  configOptions: [
    { id: 'mode', name: 'Mode', category: 'mode', type: 'select', currentValue: mode, options: claudeModes.map((m) => ({ value: m.id, name: m.name, description: m.description })) },
    { id: 'model', name: 'Model', category: 'model', type: 'select', currentValue: 'default', options: [{ value: 'default', name: 'Default (recommended)' }, { value: 'haiku', name: 'Haiku' }] },
    { id: 'effort', name: 'Effort', category: 'thought_level', type: 'select', currentValue: 'default', options: [{ value: 'default', name: 'Default' }, { value: 'max', name: 'Max' }] },
  ],
});
const claude = SessionControls.parse(claudeAnswer('auto'));

describe('permission-skipping modes', () => {
  it('marks the modes of real agents that act without asking, and only those', () => {
    expect(Object.fromEntries(claudeModes.map((m) => [m.id, permissionSkip(m)]))).toEqual({
      default: undefined,
      acceptEdits: 'some',
      plan: undefined,
      auto: 'some',
      bypassPermissions: 'all',
    });
    expect(Object.fromEntries(qwenModes.map((m) => [m.id, permissionSkip(m)]))).toEqual({
      plan: undefined,
      default: undefined,
      'auto-edit': 'some',
      auto: 'some',
      yolo: 'all',
    });
  });

  it('says so of the current mode when an agent starts in one (Claude starts in auto)', () => {
    expect(currentSkip(claude)).toEqual({ name: 'Auto', skip: 'some' });
    expect(currentSkip(SessionControls.parse(claudeAnswer('default')))).toBeUndefined();
    expect(currentSkip(SessionControls.parse(claudeAnswer('bypassPermissions')))).toEqual({ name: 'Bypass permissions', skip: 'all' });
  });
});

describe('header controls', () => {
  it('makes one control per config option, the mode option standing for `modes` (no second Mode control)', () => {
    const controls = headerControls(claude);
    expect(controls.map((c) => [c.label, c.role])).toEqual([
      ['Mode', 'mode'],
      ['Model', 'model'],
      ['Effort', 'option'],
    ]);
    expect(controls[0]?.target).toEqual({ kind: 'option', configId: 'mode' });
  });

  it('makes Mode and Model controls from `modes` and the unstable `models` when no option covers them', () => {
    const controls = headerControls({
      rev: 1,
      modes: { currentModeId: 'ask', availableModes: [{ id: 'ask', name: 'Ask' }, { id: 'bypass', name: 'Bypass permissions' }] },
      models: { currentModelId: 'm1', availableModels: [{ modelId: 'm1', name: 'One' }] },
      configOptions: [{ id: 'verbosity', name: 'Verbosity', type: 'select', currentValue: 'normal', options: [{ value: 'normal', name: 'Normal' }] }],
    });
    expect(controls.map((c) => [c.label, c.target.kind])).toEqual([
      ['Mode', 'mode'],
      ['Model', 'model'],
      ['Verbosity', 'option'],
    ]);
    const mode = controls[0];
    expect(mode?.kind === 'select' && mode.choices.map((c) => c.skip)).toEqual([undefined, 'all']);
  });

  it('lists grouped choices with their group, and a boolean option as a switch', () => {
    const controls = headerControls({
      rev: 1,
      configOptions: [
        { id: 'model', name: 'Model', category: 'model', type: 'select', currentValue: 'b', options: [{ group: 'fast', name: 'Fast', options: [{ value: 'a', name: 'A' }] }, { group: 'big', name: 'Big', options: [{ value: 'b', name: 'B' }] }] },
        { id: 'web', name: 'Web search', type: 'boolean', currentValue: true },
      ],
    });
    expect(controls[0]?.kind === 'select' && controls[0].choices.map((c) => `${c.group}/${c.value}`)).toEqual(['Fast/a', 'Big/b']);
    expect(controls[1]).toMatchObject({ label: 'Web search', kind: 'boolean', value: true });
  });
});
