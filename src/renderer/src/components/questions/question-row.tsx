import type { ElicitationQuestionT } from '../../../../shared/elicitation';
import type { Row } from '../../store/slices/transcript/rows';
import { describeDecider } from '../transcript/describe';

type QuestionRowT = Extract<Row, { type: 'question' }>;

function outcome(row: QuestionRowT): string {
  const { answer, question } = row;
  if (!answer) return 'Waiting for an answer';
  const by = describeDecider(answer.decider, answer.reason);
  if (answer.action === 'decline') return `Declined — ${by}`;
  if (answer.action === 'cancel') return `Cancelled — ${by}`;
  if (question.mode === 'url') return `Opened — ${by}; ${row.completed ? 'the agent says it is done' : 'waiting for the agent to finish'}`;
  return `Submitted — ${by}`;
}

/** A field's answer as the transcript keeps it (secrets already masked by the host). */
function shown(value: unknown): string {
  if (value === undefined) return '—';
  if (Array.isArray(value)) return value.length ? value.join(', ') : '—';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  return String(value);
}

function FormSummary({ question, content }: { question: Extract<ElicitationQuestionT, { mode: 'form' }>; content: Record<string, unknown> | undefined }) {
  return (
    <dl className="question-summary">
      {question.form.fields.map((f) => (
        <div key={f.name}>
          <dt>
            {f.label}
            {f.required ? <span className="muted small"> (required)</span> : null}
          </dt>
          <dd>{content ? shown(content[f.name]) : <span className="muted">{f.description ?? f.kind.replace('_', ' ')}</span>}</dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * A question from the agent in the transcript: the form it asked (each field, and once
 * answered what was answered) or the page it asked to open, and how it ended. The question
 * itself is answered where it is shown as a dialog, in every window watching the session.
 */
export function QuestionRow({ row }: { row: QuestionRowT }) {
  const { question } = row;
  const title = question.mode === 'form' ? (question.form.title ?? 'A question') : `Open a page on ${question.target.displayHost}`;
  return (
    <section className="row-question" aria-label={`Question from the agent: ${title}`}>
      <p className="row-permission">
        <span>
          Question from the agent: <strong>{title}</strong> — {question.message}
        </span>
        <span className="permission-outcome">{outcome(row)}</span>
      </p>
      {question.mode === 'form' ? <FormSummary question={question} content={row.answer?.content} /> : null}
    </section>
  );
}
