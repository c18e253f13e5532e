/**
 * Every keyboard shortcut, once: the key handlers match against this table and the shortcuts
 * sheet lists it, so the sheet cannot tell the person a key that does nothing.
 *
 * `mod` is Cmd on macOS and Ctrl elsewhere.
 */

/** Asks the transcript (an event on its log) to put the focus on its newest message. */
export const FOCUS_NEWEST_EVENT = 'switchboard:focus-newest';

/** Shortcuts the window's one handler runs (`components/keyboard/use-shortcuts.ts`), wherever the focus is. */
export type WindowShortcutId =
  | 'quickSwitch'
  | 'sessionByNumber'
  | 'nextSession'
  | 'previousSession'
  | 'focusComposer'
  | 'focusTranscript'
  | 'answerPermission'
  | 'stopTurn'
  | 'searchTranscripts'
  | 'filterSessions'
  | 'showShortcuts';

export type ShortcutId =
  | WindowShortcutId
  | 'newSession'
  | 'entryMenu'
  | 'sendMessage'
  | 'transcriptMove'
  | 'transcriptEnds'
  | 'transcriptOpen'
  | 'transcriptCopy'
  | 'listMove'
  | 'menuMove'
  | 'closeDialog';

/** Where a shortcut works; the sheet shows one table per scope. */
export type ShortcutScope = 'window' | 'transcript' | 'list' | 'menu';

export const SCOPE_TITLES: Readonly<Record<ShortcutScope, string>> = {
  window: 'Anywhere in the window',
  transcript: 'In the transcript',
  list: 'In the session list',
  menu: 'In menus and dialogs',
};

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
  scope: ShortcutScope;
  /** Also fires while the person types in a text field (false: only outside fields, like `?`). */
  whileTyping: boolean;
  /**
   * Bound by another part of the window (New session belongs to the new-session dialog, the
   * transcript's keys to the transcript): listed here for the sheet, not matched by the window's
   * handler.
   */
  boundElsewhere?: boolean;
}

const DIGITS = ['1', '2', '3', '4', '5', '6', '7', '8', '9'];
const ARROWS: readonly Chord[] = [{ key: 'ArrowUp' }, { key: 'ArrowDown' }];
const ENDS: readonly Chord[] = [{ key: 'Home' }, { key: 'End' }];

export const SHORTCUTS: readonly Shortcut[] = [
  { id: 'newSession', scope: 'window', description: 'New session', chords: [{ key: 'n', mod: true }], whileTyping: true, boundElsewhere: true },
  { id: 'quickSwitch', scope: 'window', description: 'Switch session (find by title, folder or agent)', chords: [{ key: 'k', mod: true }], whileTyping: true },
  {
    id: 'sessionByNumber',
    scope: 'window',
    description: 'Open the 1st to 9th session in the sidebar',
    chords: DIGITS.map((key) => ({ key, mod: true, label: '1–9' })),
    whileTyping: true,
  },
  { id: 'previousSession', scope: 'window', description: 'Previous session in the sidebar', chords: [{ key: 'ArrowUp', alt: true }], whileTyping: true },
  { id: 'nextSession', scope: 'window', description: 'Next session in the sidebar', chords: [{ key: 'ArrowDown', alt: true }], whileTyping: true },
  { id: 'focusComposer', scope: 'window', description: 'Go to the message box', chords: [{ key: 'j', mod: true }], whileTyping: true },
  { id: 'sendMessage', scope: 'window', description: 'Send the message (Shift+Enter: a new line)', chords: [{ key: 'Enter' }], whileTyping: true, boundElsewhere: true },
  { id: 'focusTranscript', scope: 'window', description: 'Go to the newest message in the transcript', chords: [{ key: 'h', mod: true, shift: true }], whileTyping: true },
  {
    id: 'answerPermission',
    scope: 'window',
    description: "Go to the agent's permission request or question (its first answer or field)",
    chords: [{ key: 'a', mod: true, shift: true }],
    whileTyping: true,
  },
  { id: 'stopTurn', scope: 'window', description: 'Stop the running turn (also Escape in the message box)', chords: [{ key: '.', mod: true }], whileTyping: true },
  { id: 'searchTranscripts', scope: 'window', description: 'Search transcripts', chords: [{ key: 'f', mod: true, shift: true }], whileTyping: true },
  { id: 'filterSessions', scope: 'window', description: 'Filter the session list', chords: [{ key: 'l', mod: true, shift: true }], whileTyping: true },
  { id: 'showShortcuts', scope: 'window', description: 'Show keyboard shortcuts', chords: [{ key: '?', shift: true }], whileTyping: false },
  { id: 'transcriptMove', scope: 'transcript', description: 'Previous or next message', chords: ARROWS, whileTyping: false, boundElsewhere: true },
  { id: 'transcriptEnds', scope: 'transcript', description: 'First or last loaded message', chords: ENDS, whileTyping: false, boundElsewhere: true },
  {
    id: 'transcriptOpen',
    scope: 'transcript',
    description: "Open or close a tool call's details or a thought",
    chords: [{ key: 'Enter' }],
    whileTyping: false,
    boundElsewhere: true,
  },
  { id: 'transcriptCopy', scope: 'transcript', description: "Copy the message's code block", chords: [{ key: 'c' }], whileTyping: false, boundElsewhere: true },
  { id: 'listMove', scope: 'list', description: 'Move between sessions and folders (Enter opens one)', chords: [...ARROWS, ...ENDS], whileTyping: false, boundElsewhere: true },
  {
    id: 'entryMenu',
    scope: 'list',
    description: "Open a session's menu (open in new window, rename, archive, delete)",
    chords: [{ key: 'F10', shift: true }, { key: 'ContextMenu', label: 'Menu' }],
    whileTyping: false,
    // The focused entry handles it: the menu belongs to that entry.
    boundElsewhere: true,
  },
  {
    id: 'menuMove',
    scope: 'menu',
    description: 'Move between items (or type the first letters of one); Enter chooses',
    chords: [...ARROWS, ...ENDS],
    whileTyping: false,
    boundElsewhere: true,
  },
  {
    id: 'closeDialog',
    scope: 'menu',
    description: 'Close the menu or dialog; the focus goes back where it was',
    chords: [{ key: 'Escape', label: 'Esc' }],
    whileTyping: true,
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

const KEY_NAMES: Record<string, string> = { ArrowUp: '↑', ArrowDown: '↓', '.': '.', '?': '?', Home: 'Home', End: 'End', Enter: 'Enter', Escape: 'Esc' };

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
