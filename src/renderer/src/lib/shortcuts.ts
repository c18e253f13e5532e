/**
 * Every keyboard shortcut, once: the key handlers match against this table and the shortcuts
 * sheet lists it, so the sheet cannot tell the person a key that does nothing.
 *
 * `mod` is Cmd on macOS and Ctrl elsewhere.
 */

export type ShortcutId =
  | 'newSession'
  | 'quickSwitch'
  | 'sessionByNumber'
  | 'nextSession'
  | 'previousSession'
  | 'focusComposer'
  | 'stopTurn'
  | 'searchTranscripts'
  | 'filterSessions'
  | 'showShortcuts'
  | 'entryMenu';

/** One key combination. `key` is compared with `KeyboardEvent.key`, case-insensitively for letters. */
interface Chord {
  key: string;
  mod?: boolean;
  shift?: boolean;
  alt?: boolean;
  /** Shown instead of `key` (a range such as "1–9"). */
  label?: string;
}

interface Shortcut {
  id: ShortcutId;
  description: string;
  chords: readonly Chord[];
  /** Also fires while the person types in a text field (false: only outside fields, like `?`). */
  whileTyping: boolean;
  /**
   * Bound by another part of the window (New session belongs to the new-session dialog): listed
   * here for the sheet, not matched by the global handler.
   */
  boundElsewhere?: boolean;
}

const DIGITS = ['1', '2', '3', '4', '5', '6', '7', '8', '9'];

export const SHORTCUTS: readonly Shortcut[] = [
  { id: 'newSession', description: 'New session', chords: [{ key: 'n', mod: true }], whileTyping: true, boundElsewhere: true },
  { id: 'quickSwitch', description: 'Switch session (find by title, folder or agent)', chords: [{ key: 'k', mod: true }], whileTyping: true },
  {
    id: 'sessionByNumber',
    description: 'Open the 1st to 9th session in the sidebar',
    chords: DIGITS.map((key) => ({ key, mod: true, label: '1–9' })),
    whileTyping: true,
  },
  { id: 'previousSession', description: 'Previous session in the sidebar', chords: [{ key: 'ArrowUp', alt: true }], whileTyping: true },
  { id: 'nextSession', description: 'Next session in the sidebar', chords: [{ key: 'ArrowDown', alt: true }], whileTyping: true },
  { id: 'focusComposer', description: 'Go to the message box', chords: [{ key: 'j', mod: true }], whileTyping: true },
  { id: 'stopTurn', description: 'Stop the running turn (also Escape in the message box)', chords: [{ key: '.', mod: true }], whileTyping: true },
  { id: 'searchTranscripts', description: 'Search transcripts', chords: [{ key: 'f', mod: true, shift: true }], whileTyping: true },
  { id: 'filterSessions', description: 'Filter the session list', chords: [{ key: 'l', mod: true, shift: true }], whileTyping: true },
  { id: 'showShortcuts', description: 'Show keyboard shortcuts', chords: [{ key: '?', shift: true }], whileTyping: false },
  {
    id: 'entryMenu',
    description: "Open a sidebar session's menu (open in new window, rename, archive, delete)",
    chords: [{ key: 'F10', shift: true }, { key: 'ContextMenu', label: 'Menu' }],
    whileTyping: false,
    // The focused entry handles it: the menu belongs to that entry.
    boundElsewhere: true,
  },
];

export interface KeyLike {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
}

function matchesChord(e: KeyLike, chord: Chord, mac: boolean): boolean {
  const mod = mac ? e.metaKey : e.ctrlKey;
  // The other of Ctrl/Cmd must be up: Ctrl+K on a Mac is the text field's own (kill line).
  const other = mac ? e.ctrlKey : e.metaKey;
  if (mod !== (chord.mod ?? false) || other) return false;
  if (e.altKey !== (chord.alt ?? false)) return false;
  // `?` is Shift+/ on most layouts; its Shift is part of the character, so only letters and
  // named keys compare Shift.
  const printable = chord.key.length === 1 && !/[a-z]/i.test(chord.key);
  if (!printable && e.shiftKey !== (chord.shift ?? false)) return false;
  return e.key.toLowerCase() === chord.key.toLowerCase();
}

interface ShortcutHit {
  shortcut: Shortcut;
  /** Which of its chords (for session 1–9: the session's index). */
  chord: number;
}

/** The shortcut a key press means here, if any. `typing`: the focus is in a text field. */
export function matchShortcut(e: KeyLike, { mac, typing }: { mac: boolean; typing: boolean }): ShortcutHit | undefined {
  for (const shortcut of SHORTCUTS) {
    if (shortcut.boundElsewhere || (typing && !shortcut.whileTyping)) continue;
    const chord = shortcut.chords.findIndex((c) => matchesChord(e, c, mac));
    if (chord >= 0) return { shortcut, chord };
  }
  return undefined;
}

/** Whether a key press is the shortcut `id` (for the parts that bind their own, e.g. an entry's menu). */
export function isShortcut(id: ShortcutId, e: KeyLike, mac: boolean): boolean {
  return SHORTCUTS.find((s) => s.id === id)?.chords.some((c) => matchesChord(e, c, mac)) ?? false;
}

const KEY_NAMES: Record<string, string> = { ArrowUp: '↑', ArrowDown: '↓', '.': '.', '?': '?' };

/** How the sheet spells a shortcut: "Ctrl+K", "⌘K", "Alt+↓", "Ctrl+1–9". One entry per distinct label. */
export function describeKeys(shortcut: Shortcut, mac: boolean): string[] {
  const seen = new Set<string>();
  for (const chord of shortcut.chords) {
    const key = chord.label ?? KEY_NAMES[chord.key] ?? chord.key.toUpperCase();
    const parts = [
      ...(chord.mod ? [mac ? '⌘' : 'Ctrl'] : []),
      ...(chord.alt ? [mac ? '⌥' : 'Alt'] : []),
      ...(chord.shift && chord.key !== '?' ? [mac ? '⇧' : 'Shift'] : []),
      key,
    ];
    seen.add(mac ? parts.join('') : parts.join('+'));
  }
  return [...seen];
}

/** The focus is somewhere typing goes: `?` there is a question mark, not the sheet. */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (typeof HTMLElement === 'undefined' || !(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  const tag = target.tagName;
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (tag !== 'INPUT') return false;
  const type = (target as HTMLInputElement).type;
  return !['button', 'checkbox', 'radio', 'submit', 'reset', 'range', 'color', 'file'].includes(type);
}

export function isMac(platform: string): boolean {
  return /mac|iphone|ipad/i.test(platform);
}
