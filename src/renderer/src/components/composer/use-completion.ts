import { useEffect, useState, type KeyboardEvent } from 'react';
import type { AvailableCommand } from '../../../../shared/contract';
import { commandOptions, complete, keyOutcome, mentionOptions, triggerAt, type CompletionOption, type Trigger } from '../../lib/completion';
import { COMPLETION_LISTBOX_ID, completionOptionId } from './completion-popup';

/** Paths chosen from the `@` popup per session: sent as files while the text still mentions them. */
const chosenBySession = new Map<string, ReadonlySet<string>>();
const NO_PATHS: ReadonlySet<string> = new Set();

interface CompletionDeps {
  sessionId: string;
  text: string;
  caret: number;
  commands: readonly AvailableCommand[];
  searchFiles(query: string): Promise<readonly string[]>;
  /** Replaces the text and puts the caret at `caret` (after a completion). */
  replace(text: string, caret: number): void;
}

interface Completion {
  trigger: Trigger | undefined;
  options: readonly CompletionOption[];
  open: boolean;
  active: number;
  /** The message box's ARIA for the popup it controls. */
  aria: {
    'aria-expanded': boolean;
    'aria-controls'?: string;
    'aria-activedescendant'?: string;
  };
  /** Handles the popup's keys; true if the key was taken (the caller must not act on it). */
  onKeyDown(e: KeyboardEvent<HTMLTextAreaElement>): boolean;
  choose(index: number): void;
  /** Paths chosen from the popup, for the mentions sent with the text. */
  chosen: ReadonlySet<string>;
  forgetChosen(): void;
  /** Chosen again: the mentions of a message put back after a failed send. */
  restoreChosen(paths: readonly string[]): void;
}

/**
 * `/` offers the agent's commands (filtered as you type), `@` the files of the session's folder
 * (asked of the host per query; an answer to an older query is dropped). Escape hides the popup
 * until the token changes.
 */
export function useCompletion(d: CompletionDeps): Completion {
  const trigger = triggerAt(d.text, d.caret);
  const token = trigger ? `${trigger.kind}:${trigger.start}:${trigger.query}` : undefined;
  const [dismissed, setDismissed] = useState<string | undefined>();
  const [activeState, setActive] = useState({ token, active: 0 });
  const [files, setFiles] = useState<{ query: string; paths: readonly string[] } | undefined>();
  const [chosen, setChosen] = useState<ReadonlySet<string>>(() => chosenBySession.get(d.sessionId) ?? NO_PATHS);

  const mentionQuery = trigger?.kind === 'mention' ? trigger.query : undefined;
  const { searchFiles } = d;
  useEffect(() => {
    if (mentionQuery === undefined) return;
    let current = true;
    searchFiles(mentionQuery).then(
      (paths) => current && setFiles({ query: mentionQuery, paths }),
      () => current && setFiles({ query: mentionQuery, paths: [] }),
    );
    return () => {
      current = false;
    };
  }, [mentionQuery, searchFiles]);

  const options: readonly CompletionOption[] = !trigger
    ? []
    : trigger.kind === 'command'
      ? commandOptions(d.commands, trigger.query)
      : files?.query === trigger.query
        ? mentionOptions(files.paths)
        : [];
  const open = trigger !== undefined && token !== dismissed && options.length > 0;
  // The active option resets whenever the token changes (typing filters the list).
  const active = activeState.token === token ? Math.min(activeState.active, Math.max(0, options.length - 1)) : 0;

  const choose = (index: number): void => {
    const option = options[index];
    if (!trigger || !option) return;
    const next = complete(d.text, trigger, option);
    if (trigger.kind === 'mention') {
      const path = option.insert.slice(1);
      const set = new Set(chosen).add(path);
      chosenBySession.set(d.sessionId, set);
      setChosen(set);
    }
    d.replace(next.text, next.caret);
  };

  return {
    trigger,
    options,
    open,
    active,
    aria: open
      ? { 'aria-expanded': true, 'aria-controls': COMPLETION_LISTBOX_ID, 'aria-activedescendant': completionOptionId(active) }
      : { 'aria-expanded': false },
    onKeyDown(e) {
      if (!open || !trigger || e.nativeEvent.isComposing || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return false;
      const option = options[active];
      const whole = d.text.slice(trigger.start, trigger.end) === option?.insert;
      const outcome = keyOutcome(e.key, active, options.length, whole);
      if (!outcome) {
        if (e.key === 'Enter') setDismissed(token);
        return false;
      }
      e.preventDefault();
      if (outcome.action === 'move') setActive({ token, active: outcome.active });
      else if (outcome.action === 'accept') choose(active);
      else setDismissed(token);
      return true;
    },
    choose,
    chosen,
    forgetChosen() {
      chosenBySession.delete(d.sessionId);
      setChosen(NO_PATHS);
    },
    restoreChosen(paths) {
      const set = new Set([...chosen, ...paths]);
      chosenBySession.set(d.sessionId, set);
      setChosen(set);
    },
  };
}
