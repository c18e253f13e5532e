import { useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { contentFromInputs, initialInputs, validateAnswer, type ElicitationFormT, type UrlTargetT } from '../../../../shared/elicitation';
import type { QuestionAction } from '../../../../shared/contract';
import { useAppStore } from '../../store/context';
import type { PendingQuestion } from '../../store/slices/questions/initial-state';
import { questionsSelectors } from '../../store/slices/questions/selectors';
import { fieldId, QuestionForm, type FormInputs } from './question-form';

function deadlineText(deadlineAt: number | undefined): string | undefined {
  if (deadlineAt === undefined) return undefined;
  const at = new Date(deadlineAt).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' });
  return `Cancelled automatically at ${at} if nobody answers.`;
}

function Buttons({ answering, onAnswer, first }: { answering: boolean; onAnswer(action: QuestionAction): void; first: ReactNode }) {
  return (
    <div className="permission-options">
      {first}
      <button type="button" className="button-secondary" disabled={answering} onClick={() => onAnswer('decline')}>
        Decline
      </button>
      <button type="button" className="button-secondary" disabled={answering} onClick={() => onAnswer('cancel')}>
        Cancel
      </button>
    </div>
  );
}

/** A form question: checked as the host checks it before it is sent, the reason beside each field. */
function FormQuestion({ pending, form }: { pending: PendingQuestion; form: ElicitationFormT }) {
  const answer = useAppStore((s) => s.answerQuestion);
  const prefix = useId();
  const [values, setValues] = useState<FormInputs>(() => initialInputs(form));
  const [local, setLocal] = useState<{ fields: Record<string, string>; form: string[] }>({ fields: {}, form: [] });
  const box = useRef<HTMLFormElement>(null);
  const { requestId } = pending.view;
  // The host's reasons (it checks again) until the person changes something.
  const errors = { ...pending.error?.fields, ...local.fields };
  const focusFirstError = (fields: Record<string, string>) => {
    const first = form.fields.find((f) => fields[f.name] !== undefined);
    const control = first && box.current?.querySelector<HTMLElement>(`#${CSS.escape(fieldId(prefix, first.name))}`);
    (control?.matches('fieldset') ? control.querySelector<HTMLElement>('input') : control)?.focus();
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const checked = validateAnswer(form, contentFromInputs(form, values));
    if (!checked.ok) {
      setLocal(checked.error);
      focusFirstError(checked.error.fields);
      return;
    }
    setLocal({ fields: {}, form: [] });
    void answer(requestId, 'accept', checked.value);
  };
  return (
    <form ref={box} noValidate onSubmit={submit}>
      <QuestionForm
        form={form}
        idPrefix={prefix}
        values={values}
        errors={errors}
        disabled={pending.answering}
        onChange={(name, value) => {
          setValues((v) => ({ ...v, [name]: value }));
          setLocal((l) => ({ ...l, fields: Object.fromEntries(Object.entries(l.fields).filter(([k]) => k !== name)) }));
        }}
      />
      {[...local.form, ...(pending.error ? [pending.error.message] : [])].map((m) => (
        <p key={m} className="permission-error">
          {m}
        </p>
      ))}
      <Buttons
        answering={pending.answering}
        onAnswer={(action) => void answer(requestId, action)}
        first={
          <button type="submit" className="button-primary" disabled={pending.answering}>
            Submit
          </button>
        }
      />
    </form>
  );
}

/**
 * A URL question: where the page leads, its real host first and large, with any warning that
 * it may pass for another site. It opens only on the person's click: in the system browser
 * through the host (the desktop app), or as a new tab that cannot reach back (`noopener`).
 */
function UrlQuestion({ pending, target }: { pending: PendingQuestion; target: UrlTargetT }) {
  const answer = useAppStore((s) => s.answerQuestion);
  const hostOpens = useAppStore(questionsSelectors.hostOpensPages);
  const { requestId } = pending.view;
  const open = `Open ${target.displayHost}`;
  return (
    <>
      <p className="question-host">
        <span className="muted small">The page is on </span>
        <strong>{target.displayHost}</strong>
      </p>
      <p className="muted small question-url">{target.href}</p>
      {target.warnings.length > 0 ? (
        <ul className={target.deceptive ? 'question-warnings is-deceptive' : 'question-warnings'} aria-label={target.deceptive ? 'Warnings: this address may imitate another site' : 'Notes about this address'}>
          {target.warnings.map((w) => (
            <li key={w.kind}>{w.message}</li>
          ))}
        </ul>
      ) : null}
      {pending.error ? <p className="permission-error">{pending.error.message}</p> : null}
      <Buttons
        answering={pending.answering}
        onAnswer={(action) => void answer(requestId, action)}
        first={
          hostOpens ? (
            <button type="button" className="button-primary" disabled={pending.answering} onClick={() => void answer(requestId, 'accept')}>
              {open}
            </button>
          ) : (
            // A real link: the browser opens it on this very click (no pop-up blocker), with no way back to this page.
            <a className="button-primary button-link" href={target.href} target="_blank" rel="noopener noreferrer" onClick={() => void answer(requestId, 'accept')}>
              {open}
            </a>
          )
        }
      />
    </>
  );
}

/**
 * One pending question, in every window watching the session. Not modal, and (like a
 * permission request) closed only by an answer: Escape does nothing here.
 */
export function QuestionPrompt({ pending }: { pending: PendingQuestion }) {
  const { question } = pending.view;
  const descId = useId();
  const title = question.mode === 'form' ? (question.form.title ?? 'Question from the agent') : 'The agent asks you to open a page';
  const deadline = deadlineText(pending.view.deadlineAt);
  return (
    <section role="dialog" aria-label={title} aria-describedby={descId} className="permission question">
      <header className="permission-head">
        <span className="tool-kind">Question</span>
        <strong className="permission-title">{title}</strong>
      </header>
      <p id={descId} className="question-message">
        {question.message}
        {deadline ? <span className="muted small"> {deadline}</span> : null}
      </p>
      {question.mode === 'form' && question.form.description ? <p className="muted small">{question.form.description}</p> : null}
      {question.mode === 'form' ? <FormQuestion pending={pending} form={question.form} /> : <UrlQuestion pending={pending} target={question.target} />}
    </section>
  );
}

export function QuestionStack() {
  const pending = useAppStore(questionsSelectors.pendingList);
  if (pending.length === 0) return null;
  return (
    <div className="permission-stack">
      {pending.map((p) => (
        <QuestionPrompt key={p.view.requestId} pending={p} />
      ))}
    </div>
  );
}
