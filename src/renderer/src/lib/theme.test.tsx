import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { createAppStore } from '../store/app-store';
import { StoreProvider } from '../store/context';
import { FakeApi, testDeps } from '../test-support/fake-api';
import { ThemePicker } from '../components/settings/general-section';
import { applyTheme, rememberedTheme, setTheme, type ThemeStorage } from './theme';

function memoryStorage(): ThemeStorage & { map: Map<string, string> } {
  const map = new Map<string, string>();
  return { map, getItem: (k) => map.get(k) ?? null, setItem: (k, v) => void map.set(k, v) };
}

describe('theme', () => {
  it('pins light or dark on the root, and leaves System to the stylesheet (no data-theme)', () => {
    const root = { dataset: {} as DOMStringMap };
    applyTheme(root, 'dark');
    expect(root.dataset.theme).toBe('dark');
    applyTheme(root, 'light');
    expect(root.dataset.theme).toBe('light');
    applyTheme(root, 'system');
    expect('theme' in root.dataset).toBe(false);
  });

  it('remembers the last theme for the next first paint, and falls back to System', () => {
    const storage = memoryStorage();
    expect(rememberedTheme(storage)).toBe('system');
    setTheme({ dataset: {} }, storage, 'dark');
    expect(rememberedTheme(storage)).toBe('dark');
    storage.map.set('switchboard.theme', 'neon');
    expect(rememberedTheme(storage)).toBe('system');
    const refusing: ThemeStorage = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('denied');
      },
    };
    expect(rememberedTheme(refusing)).toBe('system');
    expect(() => setTheme({ dataset: {} }, refusing, 'light')).not.toThrow();
  });

  it('Settings offers System, Light and Dark with the host setting checked', () => {
    const api = new FakeApi();
    const store = createAppStore(testDeps(api));
    const checkedOf = () => {
      store.getInitialState = store.getState;
      const html = renderToStaticMarkup(
        <StoreProvider store={store}>
          <ThemePicker />
        </StoreProvider>,
      );
      expect(html).toContain('<legend class="field-label">Theme</legend>');
      expect([...html.matchAll(/value="(\w+)"/g)].map((m) => m[1])).toEqual(['system', 'light', 'dark']);
      return /checked="" value="(\w+)"/.exec(html)?.[1];
    };
    expect(checkedOf()).toBe('system');
    const settings = { idleTimeoutMs: 0, reapIntervalMs: 0, permissionTimeoutMs: 0, defaultCwd: '/', defaultAgentId: 'demo', maxSessionsPerBroker: 8 };
    store.getState().settingsChanged({ ...settings, theme: 'dark' });
    expect(checkedOf()).toBe('dark');
  });
});
