import { describe, expect, it } from 'vitest';
import { AgentIdPattern, AgentPresetView } from '../../shared/catalogue';
import { AgentDetector, pinnedNpxPackage } from './agent-detection';
import { AGENT_PRESETS, presetLaunches, presetViews, ROOT_SANDBOX_HINT } from './agent-presets';

describe('agent presets', () => {
  it('have unique ids usable as agent ids', () => {
    const ids = AGENT_PRESETS.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(AgentIdPattern);
  });

  it('cover the well-known ACP agents', () => {
    expect(AGENT_PRESETS.map((p) => p.id)).toEqual(
      expect.arrayContaining(['gemini', 'qwen', 'claude', 'claude-zed', 'codex', 'codex-zed', 'copilot', 'opencode', 'goose', 'pi']),
    );
  });

  it('start npm agents through npx with an exact pinned version', () => {
    for (const p of AGENT_PRESETS.filter((x) => x.npm)) {
      const npx = presetLaunches(p).find((l) => l.kind === 'npx');
      expect(npx?.command).toBe('npx');
      expect(npx?.args[0]).toBe('-y');
      expect(pinnedNpxPackage(npx!.args)).toEqual({ name: p.npm!.package, version: p.npm!.version });
      expect(p.npm!.version).toMatch(/^\d+\.\d+\.\d+$/);
    }
  });

  it('put the command on PATH first, with its ACP arguments', () => {
    const gemini = AGENT_PRESETS.find((p) => p.id === 'gemini')!;
    expect(presetLaunches(gemini)[0]).toEqual({ kind: 'path', command: 'gemini', args: ['--acp'] });
    const opencode = AGENT_PRESETS.find((p) => p.id === 'opencode')!;
    expect(presetLaunches(opencode)[0]).toEqual({ kind: 'path', command: 'opencode', args: ['acp'] });
    const goose = AGENT_PRESETS.find((p) => p.id === 'goose')!;
    expect(presetLaunches(goose)).toEqual([{ kind: 'path', command: 'goose', args: ['acp'] }]);
  });

  it('tell Claude users that root needs IS_SANDBOX=1', () => {
    for (const p of AGENT_PRESETS.filter((x) => x.id.startsWith('claude'))) expect(p.hints).toContain(ROOT_SANDBOX_HINT);
    expect(ROOT_SANDBOX_HINT).toMatch(/IS_SANDBOX=1/);
  });

  it('cross the contract as valid preset views', async () => {
    const views = await presetViews(new AgentDetector({ PATH: '' }));
    for (const v of views) expect(AgentPresetView.parse(v)).toEqual(v);
    expect(views.every((v) => v.launches.every((l) => l.availability.status === 'missing'))).toBe(true);
  });
});
