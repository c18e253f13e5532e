/**
 * The composer's completions, as pure functions: where a `/command` or `@path` is being typed,
 * which options match, what choosing one does to the text, and what a key does to the popup.
 * The component only wires these to the textarea (see composer/use-completion.ts).
 */
import type { AvailableCommand } from '../../../shared/contract';

export type TriggerKind = 'command' | 'mention';

/** The token being completed: `text.slice(start, end)` is `/query` or `@query`. */
export interface Trigger {
  kind: TriggerKind;
  query: string;
  start: number;
  end: number;
}

export interface CompletionOption {
  /** What the option says first: `/name` or the path. */
  label: string;
  description?: string;
  /** The command's input hint (what to type after it). */
  hint?: string;
  /** The token it completes to (without the space that follows). */
  insert: string;
}

/**
 * A `/` completes only as the composer's first character (that is where agents read a command);
 * an `@` starts a mention at the start or after white space, so `me@example.com` is left alone.
 * The token runs from the trigger to the caret and holds no white space.
 */
export function triggerAt(text: string, caret: number): Trigger | undefined {
  const before = text.slice(0, caret);
  const command = /^\/([^\s/]*)$/.exec(before);
  if (command) return { kind: 'command', query: command[1] ?? '', start: 0, end: tokenEnd(text, caret) };
  const mention = /(^|\s)@([^\s@]*)$/.exec(before);
  if (mention) {
    const start = caret - (mention[2] ?? '').length - 1;
    return { kind: 'mention', query: mention[2] ?? '', start, end: tokenEnd(text, caret) };
  }
  return undefined;
}

/** Choosing an option replaces the whole token, also what follows the caret up to white space. */
function tokenEnd(text: string, caret: number): number {
  const rest = /^\S*/.exec(text.slice(caret))?.[0] ?? '';
  return caret + rest.length;
}

/**
 * The command named exactly by the query first (so Enter on `/plan` typed whole sends it), then
 * those whose name starts with the query, then those that contain it; case-insensitive.
 */
export function commandOptions(commands: readonly AvailableCommand[], query: string): CompletionOption[] {
  const q = query.toLowerCase();
  const rank = (name: string): number => (name === q ? 0 : 1);
  const starts = commands.filter((c) => c.name.toLowerCase().startsWith(q)).sort((a, b) => rank(a.name.toLowerCase()) - rank(b.name.toLowerCase()));
  const contains = commands.filter((c) => !c.name.toLowerCase().startsWith(q) && c.name.toLowerCase().includes(q));
  return [...starts, ...contains].map((c) => ({
    label: `/${c.name}`,
    description: c.description,
    ...(c.input?.hint ? { hint: c.input.hint } : {}),
    insert: `/${c.name}`,
  }));
}

export function mentionOptions(paths: readonly string[]): CompletionOption[] {
  return paths.map((path) => ({ label: path, insert: `@${path}` }));
}

/** The text with the trigger's token replaced by the option, and where the caret goes (after a space). */
export function complete(text: string, trigger: Trigger, option: CompletionOption): { text: string; caret: number } {
  const after = text.slice(trigger.end);
  const spaced = after.startsWith(' ') ? after : ` ${after}`;
  const next = text.slice(0, trigger.start) + option.insert + spaced;
  return { text: next, caret: trigger.start + option.insert.length + 1 };
}

type KeyOutcome =
  | { action: 'move'; active: number }
  | { action: 'accept' }
  | { action: 'close' }
  /** Not the popup's key: the composer handles it (Enter sends). */
  | undefined;

/**
 * What a key does while the popup is open with `count` options. Up/Down wrap; Enter and Tab
 * complete the active option, except Enter on a token already complete (`/plan` typed whole):
 * that sends, as it would without the popup.
 */
export function keyOutcome(key: string, active: number, count: number, tokenIsComplete: boolean): KeyOutcome {
  switch (key) {
    case 'ArrowDown':
      return count > 0 ? { action: 'move', active: (active + 1) % count } : undefined;
    case 'ArrowUp':
      return count > 0 ? { action: 'move', active: (active - 1 + count) % count } : undefined;
    case 'Tab':
      return count > 0 ? { action: 'accept' } : undefined;
    case 'Enter':
      return count > 0 && !tokenIsComplete ? { action: 'accept' } : undefined;
    case 'Escape':
      return { action: 'close' };
    default:
      return undefined;
  }
}

/**
 * The paths chosen from the `@` popup that the text still mentions (`@path` followed by white
 * space or the end): those are sent as files; one the person deleted or edited is not.
 */
export function mentionedPaths(text: string, chosen: ReadonlySet<string>): string[] {
  return [...chosen].filter((path) => new RegExp(`(^|\\s)@${escapeRegExp(path)}(?=\\s|$)`).test(text));
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
