import type { DiffState } from '../../store/slices/workspace/initial-state';
import { CodeBlock } from '../transcript/code-block';

/** One changed file's diff, highlighted like a fenced `diff` block; a binary file says so. */
export function FileDiffView({ path, diff }: { path: string; diff: DiffState }) {
  if (diff.state === 'loading') return <p className="muted">Loading the diff of {path}…</p>;
  if (diff.state === 'error') return <p className="field-error">Could not read the diff of {path}: {diff.error.message}</p>;
  const d = diff.diff;
  return (
    <figure className="changes-diff" aria-label={`Diff of ${path}`}>
      <figcaption>
        <code>{d.from ? `${d.from} → ${d.path}` : d.path}</code>
      </figcaption>
      {d.binary ? (
        <p className="muted">Binary file: no text diff.</p>
      ) : d.text === '' ? (
        <p className="muted">No difference in content.</p>
      ) : (
        <CodeBlock code={d.text} language="diff" closed />
      )}
      {d.truncated ? <p className="muted small">The diff is cut at 1 MiB.</p> : null}
    </figure>
  );
}
