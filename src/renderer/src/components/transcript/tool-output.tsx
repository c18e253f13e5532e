import { memo, useState } from 'react';

/** Lines shown before the rest of a long output is folded away. */
export const OUTPUT_TAIL_LINES = 200;

/**
 * One text block of a tool call's output. Memoised on the text: a tool call updated many
 * times re-renders only the blocks whose text changed. Long output shows its newest lines (what
 * a running command is doing now) with the earlier ones behind "Show more", so a growing log
 * does not put its whole length in the DOM on every update.
 */
export const ToolOutput = memo(function ToolOutput({ text }: { text: string }) {
  const [expanded, setExpanded] = useState(false);
  return <ToolOutputView text={text} expanded={expanded} onToggle={setExpanded} />;
});

/** The output folded or whole; a long output shown whole can be folded again (Show less). */
export function ToolOutputView({ text, expanded, onToggle }: { text: string; expanded: boolean; onToggle: (expanded: boolean) => void }) {
  const foldable = hiddenLines(text);
  const hidden = expanded ? 0 : foldable;
  return (
    <div className="tool-output-wrap">
      {hidden > 0 ? (
        <button type="button" className="link-button" aria-expanded={false} onClick={() => onToggle(true)}>
          Show more ({hidden} earlier {hidden === 1 ? 'line' : 'lines'})
        </button>
      ) : null}
      <pre className="tool-output">{hidden > 0 ? tailOf(text, OUTPUT_TAIL_LINES) : text}</pre>
      {expanded && foldable > 0 ? (
        <button type="button" className="link-button" aria-expanded onClick={() => onToggle(false)}>
          Show less
        </button>
      ) : null}
    </div>
  );
}

function lineCount(text: string): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

function hiddenLines(text: string): number {
  return Math.max(0, lineCount(text) - OUTPUT_TAIL_LINES);
}

/** The last `lines` lines of `text`, found from the end so the cost is that of the tail. */
export function tailOf(text: string, lines: number): string {
  let at = text.length;
  for (let seen = 0; seen < lines; seen++) {
    at = text.lastIndexOf('\n', at - 1);
    if (at < 0) return text;
  }
  return text.slice(at + 1);
}
