import { memo, useMemo } from 'react';
import { diffLines } from '../lib/diff';
import { arr, isRec, num, str, strings, type Rec } from '../lib/payload';
import { ToolOutput } from './transcript/tool-output';

const MAX_DIFF_LINES = 400;

/** The command an execute tool call will run, from the agent's raw input. */
export function commandOf(rawInput: unknown): string | undefined {
  if (!isRec(rawInput)) return undefined;
  const c = rawInput.command;
  if (typeof c === 'string') {
    const args = strings(rawInput.args);
    return args.length > 0 ? `${c} ${args.join(' ')}` : c;
  }
  const parts = strings(c);
  return parts.length > 0 ? parts.join(' ') : undefined;
}

interface DiffItem {
  path: string;
  oldText: string | undefined;
  newText: string;
}

function diffsOf(content: readonly unknown[]): DiffItem[] {
  const out: DiffItem[] = [];
  for (const c of content) {
    if (!isRec(c) || c.type !== 'diff') continue;
    out.push({ path: str(c.path) ?? '', oldText: str(c.oldText), newText: str(c.newText) ?? '' });
  }
  return out;
}

/** Text from ACP content blocks: `{type:'content', content:{type:'text', text}}`. */
function textsOf(content: readonly unknown[]): string[] {
  const out: string[] = [];
  for (const c of content) {
    if (!isRec(c)) continue;
    const inner: Rec | undefined = c.type === 'content' && isRec(c.content) ? c.content : c.type === 'text' ? c : undefined;
    const text = inner && inner.type === 'text' ? str(inner.text) : undefined;
    if (text) out.push(text);
  }
  return out;
}

/** Memoised on its strings: a tool call updated many times re-diffs only a changed edit. */
export const DiffView = memo(function DiffView({ path, oldText, newText }: DiffItem) {
  const lines = useMemo(() => diffLines(oldText, newText), [oldText, newText]);
  const shown = lines.slice(0, MAX_DIFF_LINES);
  return (
    <figure className="diff">
      <figcaption>
        <code>{path}</code>
        {oldText === undefined ? ' (new file)' : ''}
      </figcaption>
      <pre>
        {shown.map((l, i) => (
          <span key={i} className={l.op === '-' ? 'diff-del' : l.op === '+' ? 'diff-add' : 'diff-ctx'}>
            {`${l.op}${l.text}\n`}
          </span>
        ))}
        {lines.length > shown.length ? `… ${lines.length - shown.length} more lines\n` : null}
      </pre>
    </figure>
  );
});

interface ToolDetailsProps {
  kind: string | undefined;
  locations: readonly unknown[];
  rawInput: unknown;
  content: readonly unknown[];
}

/** What a tool call touches: files, the command it runs, the edits it makes, its output. */
export function ToolDetails({ kind, locations, rawInput, content }: ToolDetailsProps) {
  const command = commandOf(rawInput);
  const diffs = diffsOf(content);
  const texts = textsOf(content);
  const terminal = arr(content).some((c) => isRec(c) && c.type === 'terminal');
  const paths = locations.filter(isRec).filter((l) => str(l.path));
  return (
    <div className="tool-details">
      {paths.length > 0 ? (
        <ul className="tool-locations" aria-label="Files">
          {paths.map((l, i) => {
            const line = num(l.line);
            return (
              <li key={i}>
                <code>
                  {str(l.path)}
                  {line !== undefined ? `:${line}` : ''}
                </code>
              </li>
            );
          })}
        </ul>
      ) : null}
      {command !== undefined && (kind === 'execute' || diffs.length === 0) ? (
        <pre className="tool-command" aria-label="Command">
          <code>{`$ ${command}`}</code>
        </pre>
      ) : null}
      {diffs.map((d, i) => (
        <DiffView key={i} {...d} />
      ))}
      {texts.map((t, i) => (
        <ToolOutput key={i} text={t} />
      ))}
      {terminal ? <p className="muted">Output goes to a terminal.</p> : null}
    </div>
  );
}
