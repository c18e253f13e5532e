import { memo, useMemo } from 'react';
import type { Json, ToolCallContent, ToolCallLocation, ToolKind } from '../../../../shared/contract';
import { diffLines } from '../../lib/diff';
import { ToolOutput } from './tool-output';

const MAX_DIFF_LINES = 400;

/** The command an execute tool call will run, from the agent's raw input (free JSON: agents differ). */
function commandOf(rawInput: Json | undefined): string | undefined {
  if (rawInput === undefined || rawInput === null || typeof rawInput !== 'object' || Array.isArray(rawInput)) return undefined;
  const c = rawInput.command;
  if (typeof c === 'string') {
    const args = stringsOf(rawInput.args);
    return args.length > 0 ? `${c} ${args.join(' ')}` : c;
  }
  const parts = stringsOf(c);
  return parts.length > 0 ? parts.join(' ') : undefined;
}

function stringsOf(v: Json | undefined): string[] {
  return Array.isArray(v) ? v.filter((x) => typeof x === 'string') : [];
}

interface DiffItem {
  path: string;
  oldText: string | undefined;
  newText: string;
}

function diffsOf(content: readonly ToolCallContent[]): DiffItem[] {
  const out: DiffItem[] = [];
  for (const c of content) if (c.type === 'diff') out.push({ path: c.path, oldText: c.oldText ?? undefined, newText: c.newText });
  return out;
}

/** Text from ACP content blocks: `{type:'content', content:{type:'text', text}}`. */
function textsOf(content: readonly ToolCallContent[]): string[] {
  const out: string[] = [];
  for (const c of content) if (c.type === 'content' && c.content.type === 'text' && c.content.text) out.push(c.content.text);
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
  kind: ToolKind | undefined;
  locations: readonly ToolCallLocation[];
  rawInput: Json | undefined;
  content: readonly ToolCallContent[];
}

/** What a tool call touches: files, the command it runs, the edits it makes, its output. */
export function ToolDetails({ kind, locations, rawInput, content }: ToolDetailsProps) {
  const command = commandOf(rawInput);
  const diffs = diffsOf(content);
  const texts = textsOf(content);
  const paths = locations.filter((l) => l.path);
  return (
    <div className="tool-details">
      {paths.length > 0 ? (
        <ul className="tool-locations" aria-label="Files">
          {paths.map((l, i) => (
            <li key={i}>
              <code>
                {l.path}
                {typeof l.line === 'number' ? `:${l.line}` : ''}
              </code>
            </li>
          ))}
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
    </div>
  );
}
