import type { CompletionOption, TriggerKind } from '../../lib/completion';

export const COMPLETION_LISTBOX_ID = 'composer-completions';
export const completionOptionId = (index: number): string => `composer-completion-${index}`;

/**
 * The `/` and `@` suggestions: a listbox the message box controls (it keeps focus and points
 * at the active option with aria-activedescendant). Clicking an option completes it; the mouse
 * down is swallowed so the message box keeps focus and its caret.
 */
export function CompletionPopup({
  kind,
  options,
  active,
  onChoose,
}: {
  kind: TriggerKind;
  options: readonly CompletionOption[];
  active: number;
  onChoose(index: number): void;
}) {
  return (
    <ul id={COMPLETION_LISTBOX_ID} role="listbox" className="completion-popup" aria-label={kind === 'command' ? 'Commands' : 'Files'}>
      {options.map((o, i) => (
        <li
          key={o.insert}
          id={completionOptionId(i)}
          role="option"
          aria-selected={i === active}
          className={i === active ? 'completion-option is-active' : 'completion-option'}
          onMouseDown={(e) => e.preventDefault()}
          onClick={() => onChoose(i)}
        >
          <span className="completion-label">{o.label}</span>
          {o.hint ? <span className="completion-hint muted"> {o.hint}</span> : null}
          {o.description ? <span className="completion-description muted small"> — {o.description}</span> : null}
        </li>
      ))}
    </ul>
  );
}
