import { describe, expect, it } from 'vitest';
import { describeKeys, isShortcut, matchShortcut, SHORTCUTS, type KeyLike } from './shortcuts';

const key = (k: string, mods: Partial<KeyLike> = {}): KeyLike => ({ key: k, ctrlKey: false, metaKey: false, shiftKey: false, altKey: false, ...mods });
const hit = (e: KeyLike, { mac = false, typing = false } = {}) => {
  const h = matchShortcut(e, { mac, typing });
  return h ? `${h.shortcut.id}${h.shortcut.id === 'sessionByNumber' ? `#${h.chord}` : ''}` : undefined;
};

describe('the shortcut table', () => {
  it('lists every shortcut the issue asks for, each chord once', () => {
    expect(SHORTCUTS.map((s) => s.id)).toEqual(
      expect.arrayContaining(['newSession', 'quickSwitch', 'sessionByNumber', 'nextSession', 'previousSession', 'focusComposer', 'stopTurn', 'searchTranscripts', 'showShortcuts']),
    );
    // Within one scope a chord means one thing (↑ moves in the transcript and in a menu alike).
    const chords = SHORTCUTS.flatMap((s) => describeKeys(s, false).map((k) => `${s.scope} ${k}`));
    expect(new Set(chords).size).toBe(chords.length);
  });

  it('matches Ctrl on Linux and Windows and Cmd on a Mac, never the other one', () => {
    expect(hit(key('k', { ctrlKey: true }))).toBe('quickSwitch');
    expect(hit(key('K', { ctrlKey: true }))).toBe('quickSwitch');
    expect(hit(key('k', { metaKey: true }))).toBeUndefined();
    expect(hit(key('k', { metaKey: true }), { mac: true })).toBe('quickSwitch');
    // Ctrl+K in a Mac text field is the field's own (delete to the end of the line).
    expect(hit(key('k', { ctrlKey: true }), { mac: true })).toBeUndefined();
  });

  it('opens session 1-9 by the digit, and moves with Alt+arrows', () => {
    expect(hit(key('1', { ctrlKey: true }))).toBe('sessionByNumber#0');
    expect(hit(key('9', { ctrlKey: true }))).toBe('sessionByNumber#8');
    expect(hit(key('0', { ctrlKey: true }))).toBeUndefined();
    expect(hit(key('ArrowDown', { altKey: true }))).toBe('nextSession');
    expect(hit(key('ArrowUp', { altKey: true }), { typing: true })).toBe('previousSession');
    expect(hit(key('ArrowUp'))).toBeUndefined();
  });

  it('takes ? for the sheet only outside text fields, and extra modifiers make it something else', () => {
    expect(hit(key('?', { shiftKey: true }))).toBe('showShortcuts');
    expect(hit(key('?', { shiftKey: true }), { typing: true })).toBeUndefined();
    expect(hit(key('?', { shiftKey: true, ctrlKey: true }))).toBeUndefined();
    expect(hit(key('f', { ctrlKey: true }))).toBeUndefined();
    expect(hit(key('F', { ctrlKey: true, shiftKey: true }))).toBe('searchTranscripts');
    expect(hit(key('.', { ctrlKey: true }))).toBe('stopTurn');
  });

  it('lists New session and the entry menu but leaves their keys to the parts that own them', () => {
    expect(hit(key('n', { ctrlKey: true }))).toBeUndefined();
    expect(isShortcut('newSession', key('n', { ctrlKey: true }), false)).toBe(true);
    expect(isShortcut('entryMenu', key('F10', { shiftKey: true }), false)).toBe(true);
    expect(isShortcut('entryMenu', key('ContextMenu'), false)).toBe(true);
    expect(isShortcut('entryMenu', key('F10'), false)).toBe(false);
  });

  it('goes to the transcript and to a permission request from anywhere, even while typing', () => {
    expect(hit(key('H', { ctrlKey: true, shiftKey: true }), { typing: true })).toBe('focusTranscript');
    expect(hit(key('A', { metaKey: true, shiftKey: true }), { mac: true, typing: true })).toBe('answerPermission');
    expect(hit(key('a', { ctrlKey: true }), { typing: true })).toBeUndefined();
  });

  it("lists the transcript's, the list's and the menus' own keys without taking them from the window", () => {
    for (const k of ['ArrowUp', 'ArrowDown', 'Home', 'End', 'Enter', 'c', 'Escape']) expect(hit(key(k))).toBeUndefined();
    const transcript = SHORTCUTS.filter((s) => s.scope === 'transcript').map((s) => describeKeys(s, false));
    expect(transcript).toEqual([['↑', '↓'], ['Home', 'End'], ['Enter'], ['C']]);
  });

  it('spells the keys for the sheet per platform', () => {
    const spell = (id: string, mac: boolean) => describeKeys(SHORTCUTS.find((s) => s.id === id)!, mac);
    expect(spell('quickSwitch', false)).toEqual(['Ctrl+K']);
    expect(spell('quickSwitch', true)).toEqual(['⌘K']);
    expect(spell('sessionByNumber', false)).toEqual(['Ctrl+1–9']);
    expect(spell('nextSession', false)).toEqual(['Alt+↓']);
    expect(spell('searchTranscripts', false)).toEqual(['Ctrl+Shift+F']);
    expect(spell('showShortcuts', false)).toEqual(['?']);
    expect(spell('entryMenu', false)).toEqual(['Shift+F10', 'Menu']);
  });
});
