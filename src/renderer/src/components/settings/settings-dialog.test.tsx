import { describe, expect, it } from 'vitest';
import type { SettingsT } from '../../../../shared/contract';
import { renderWith, storeWith } from '../../test-support/static-render';
import { checkDurations, DURATIONS, durationText } from './duration-form';
import { GeneralSection } from './general-section';
import { PermissionsSection } from './permissions-section';
import { SettingsDialog } from './settings-dialog';
import { SETTINGS_SECTIONS, tabAfterKey } from './settings-sections';

const settings: SettingsT = { idleTimeoutMs: 1_800_000, reapIntervalMs: 60_000, permissionTimeoutMs: 300_000, defaultCwd: '/home/me', defaultAgentId: 'demo', maxSessionsPerBroker: 8 };

describe('Settings in sections', () => {
  it('lists General, Agents, MCP servers, Permissions, Repositories and Storage at the side, in the shared modal dialog', () => {
    expect(SETTINGS_SECTIONS.map((s) => s.label)).toEqual(['General', 'Agents', 'MCP servers', 'Permissions', 'Repositories', 'Storage']);
    expect(new Set(SETTINGS_SECTIONS.map((s) => s.id)).size).toBe(SETTINGS_SECTIONS.length);
    const html = renderWith(storeWith({ settings }), <SettingsDialog onClose={() => {}} />);
    expect(html).toMatch(/<dialog aria-labelledby="[^"]+" class="modal settings"/);
    expect(html).toContain('>Settings</h2>');
    expect(html).toContain('role="tablist" aria-orientation="vertical" aria-label="Settings sections"');
    const tabs = [...html.matchAll(/role="tab"[^>]*aria-selected="(true|false)"[^>]*tabindex="(-?\d)"[^>]*>([^<]+)</g)].map((m) => [m[3], m[1], m[2]]);
    expect(tabs).toEqual([
      ['General', 'true', '0'],
      ['Agents', 'false', '-1'],
      ['MCP servers', 'false', '-1'],
      ['Permissions', 'false', '-1'],
      ['Repositories', 'false', '-1'],
      ['Storage', 'false', '-1'],
    ]);
    // The panel is named by its tab and shows the General section; Done closes from any section.
    expect(html).toMatch(/role="tabpanel" id="([^"]+)" aria-labelledby="([^"]+)"/);
    expect(html).toContain('aria-label="General settings"');
    expect(html).toContain('>Done</button>');
  });

  it('opens on the section asked for', () => {
    const html = renderWith(storeWith({ settings }), <SettingsDialog onClose={() => {}} initialSection="mcp" />);
    expect(html).toMatch(/aria-selected="true"[^>]*>MCP servers</);
    expect(html).toContain('Add MCP server');
  });

  it('moves between tabs with the arrow keys (wrapping), Home and End', () => {
    expect(tabAfterKey('ArrowDown', 0, 4)).toBe(1);
    expect(tabAfterKey('ArrowRight', 3, 4)).toBe(0);
    expect(tabAfterKey('ArrowUp', 0, 4)).toBe(3);
    expect(tabAfterKey('ArrowLeft', 2, 4)).toBe(1);
    expect(tabAfterKey('Home', 2, 4)).toBe(0);
    expect(tabAfterKey('End', 0, 4)).toBe(3);
    expect(tabAfterKey('Enter', 1, 4)).toBeUndefined();
    expect(tabAfterKey('a', 1, 4)).toBeUndefined();
  });
});

describe('durations in General and Permissions', () => {
  it('shows each duration in minutes and seconds with what it changes, never in milliseconds', () => {
    const general = renderWith(storeWith({ settings }), <GeneralSection />);
    expect(general).toContain('>Idle timeout</label>');
    expect(general).toContain('value="30 min"');
    expect(general).toContain('>Check for idle sessions every</label>');
    expect(general).toContain('value="1 min"');
    expect(general).toContain('its agent stops, and your next message wakes it');
    expect(general).toContain('>Default working folder</label>');
    expect(general).toContain('Where a new session starts');
    expect(general).not.toMatch(/\(ms\)|1800000|milliseconds/);
    // Every input is described by its hint.
    for (const m of general.matchAll(/<input id="([^"]+)"[^>]*aria-describedby="([^"]+)"/g)) expect(general).toContain(`id="${m[2]?.split(' ')[0]}"`);

    const permissions = renderWith(storeWith({ settings }), <PermissionsSection />);
    expect(permissions).toContain('>Permission timeout</label>');
    expect(permissions).toContain('value="5 min"');
    expect(permissions).toContain('denied after this long');
    expect(permissions).toContain('open it to see and revoke them here');
  });

  it('says off for a setting that is turned off, and 0 s for one that acts at once', () => {
    expect(durationText(DURATIONS.idleTimeoutMs, 0)).toBe('off');
    expect(durationText(DURATIONS.permissionTimeoutMs, 0)).toBe('0 s');
    expect(durationText(DURATIONS.reapIntervalMs, 90_000)).toBe('1 min 30 s');
  });

  it('checks every field before saving: the values in ms, or each refused field with its reason', () => {
    const specs = [DURATIONS.idleTimeoutMs, DURATIONS.reapIntervalMs, DURATIONS.permissionTimeoutMs];
    expect(checkDurations(specs, { idleTimeoutMs: '45 min', reapIntervalMs: 'off', permissionTimeoutMs: '90 s' })).toEqual({
      values: { idleTimeoutMs: 2_700_000, reapIntervalMs: 0, permissionTimeoutMs: 90_000 },
      errors: {},
    });
    expect(checkDurations(specs, { idleTimeoutMs: '1800000', reapIntervalMs: '10 s', permissionTimeoutMs: 'off' }).errors).toEqual({
      idleTimeoutMs: 'Add a unit to 1800000: min or s (for example 1800000 min).',
      permissionTimeoutMs: '“off” is not a duration: write it like 30 min or 45 s.',
    });
    expect(checkDurations(specs, { idleTimeoutMs: '30 s', reapIntervalMs: '500 ms', permissionTimeoutMs: '' }).errors).toEqual({
      idleTimeoutMs: 'At least 1 min, or off.',
      reapIntervalMs: 'Use seconds, minutes or hours, not milliseconds.',
      permissionTimeoutMs: 'Enter a duration, like 30 min or 45 s.',
    });
  });
});
