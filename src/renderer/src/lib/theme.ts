/**
 * The colour theme: the system's (the stylesheet follows `prefers-color-scheme` through
 * `light-dark()`), or pinned light or dark by Settings through `data-theme` on `<html>`.
 * The choice lives in the host's settings so every window agrees; the last one applied is
 * also remembered locally, so a window can apply it before its first paint, before the host
 * has answered.
 */
export const THEMES = ['system', 'light', 'dark'] as const;
export type ThemeChoice = (typeof THEMES)[number];

const KEY = 'switchboard.theme';

interface ThemeTarget {
  dataset: DOMStringMap;
}

/** Storage that may be missing or refuse (privacy settings): remembering is best effort. */
export interface ThemeStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

const isTheme = (value: unknown): value is ThemeChoice => THEMES.includes(value as ThemeChoice);

export function applyTheme(root: ThemeTarget, choice: ThemeChoice): void {
  if (choice === 'system') delete root.dataset.theme;
  else root.dataset.theme = choice;
}

export function rememberedTheme(storage: ThemeStorage | undefined): ThemeChoice {
  try {
    const value = storage?.getItem(KEY);
    return isTheme(value) ? value : 'system';
  } catch {
    return 'system';
  }
}

/** Applies `choice` and remembers it for the next window's first paint. */
export function setTheme(root: ThemeTarget, storage: ThemeStorage | undefined, choice: ThemeChoice): void {
  applyTheme(root, choice);
  try {
    storage?.setItem(KEY, choice);
  } catch {
    /* best effort */
  }
}
