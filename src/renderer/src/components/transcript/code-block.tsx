import { memo, useEffect, useState, type ReactNode } from 'react';
import { loadedHighlighter, loadHighlighter, type Highlighter, type HighlightToken } from '../../lib/highlight';
import { createIdleQueue } from '../../lib/idle-queue';

/** Highlighting runs in idle time, never inside a render or a frame's work (one queue for the window). */
const highlightQueue = createIdleQueue();

function renderTokens(tokens: readonly HighlightToken[]): ReactNode[] {
  return tokens.map((t, i) =>
    typeof t === 'string' ? (
      t
    ) : (
      // The class is highlight.js's own ("hljs-keyword", "hljs-title function_"), for the theme.
      <span key={i} className={t.scope}>
        {renderTokens(t.children)}
      </span>
    ),
  );
}

/** The highlighter once loaded; asking starts the load (only blocks that get highlighted ask). */
function useHighlighter(wanted: boolean): Highlighter | undefined {
  const [highlighter, setHighlighter] = useState(loadedHighlighter);
  useEffect(() => {
    if (!wanted || highlighter) return;
    let live = true;
    void loadHighlighter().then((h) => {
      if (live) setHighlighter(h);
    });
    return () => {
      live = false;
    };
  }, [wanted, highlighter]);
  return highlighter;
}

const COPIED_MS = 1_500;

function CopyButton({ text }: { text: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    // A short confirmation, then the button is itself again.
    const timer = setTimeout(() => setState('idle'), COPIED_MS);
    return () => clearTimeout(timer);
  }, [state]);
  return (
    <button
      type="button"
      className="code-copy"
      aria-label={state === 'copied' ? 'Copied' : 'Copy code'}
      onClick={() => {
        const write = navigator.clipboard?.writeText(text);
        if (!write) setState('failed');
        else void write.then(() => setState('copied'), () => setState('failed'));
      }}
    >
      {state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed' : 'Copy'}
    </button>
  );
}

/** A fence's source is closed when its last line is a closing fence of the same kind and at least its length. */
export function isClosedFence(source: string): boolean {
  const lines = source.replace(/\n$/, '').split('\n');
  if (lines.length < 2) return false;
  // Inside a quote or a list item each line carries its container's prefix.
  const open = /^[\s>*+\-\d.)]*?(`{3,}|~{3,})/.exec(lines[0] ?? '');
  const close = /^[\s>]*(`{3,}|~{3,})[ \t]*$/.exec(lines[lines.length - 1] ?? '');
  return !!open?.[1] && !!close?.[1] && close[1][0] === open[1][0] && close[1].length >= open[1].length;
}

/**
 * A fenced code block with a Copy button. It is highlighted only once it is closed (its
 * closing fence has arrived) and names a language we load: while it streams it stays plain
 * text. A closed block shows plain text first and its tokens once the idle queue got to it,
 * so a frame never pays for highlighting; tokens are cached by the highlighter, so a block
 * seen again (scrolled back into view, reopened) shows them at once.
 */
export const CodeBlock = memo(function CodeBlock({ code, language, closed }: { code: string; language: string | undefined; closed: boolean }) {
  const wanted = closed && language !== undefined;
  const highlighter = useHighlighter(wanted);
  const [, setHighlighted] = useState(0);
  const tokens = wanted && highlighter ? highlighter.cached(code, language) : undefined;
  const queue = wanted && highlighter !== undefined && tokens === undefined && highlighter.knows(language);
  useEffect(() => {
    if (!queue || !highlighter || language === undefined) return;
    return highlightQueue.add(() => {
      highlighter.highlight(code, language);
      setHighlighted((n) => n + 1);
    });
  }, [queue, highlighter, code, language]);
  return (
    <div className="code-block">
      <CopyButton text={code} />
      <pre>
        <code className={language ? `language-${language}${tokens ? ' hljs' : ''}` : undefined}>{tokens ? renderTokens(tokens) : code}</code>
      </pre>
    </div>
  );
});
