import { memo, useEffect, useLayoutEffect, useRef } from 'react';
import type { TerminalExit } from '../../../../shared/contract';
import { useAppStore } from '../../store/context';
import type { TerminalDone } from '../../store/slices/transcript/rows';
import { terminalsSelectors } from '../../store/slices/terminals/selectors';

/** How a terminal's command ended, in words. */
export function describeExit(exit: TerminalExit | undefined): string {
  if (!exit) return 'Running…';
  if (exit.signal) return `Killed (${exit.signal})`;
  return exit.exitCode === 0 ? 'Exited with code 0' : `Exited with code ${exit.exitCode ?? '?'}`;
}

interface TerminalBlockProps {
  terminalId: string;
  /** The stored final output, once the command ended; until then the live output is shown. */
  done: TerminalDone | undefined;
}

/**
 * A terminal an agent runs, inside the tool call that embeds it: monospace, scrolling, following
 * the end while output streams in (unless the person scrolled up), with how it ended.
 */
export const TerminalBlock = memo(function TerminalBlock({ terminalId, done }: TerminalBlockProps) {
  const sessionId = useAppStore((s) => s.currentSessionId);
  const live = useAppStore(terminalsSelectors.terminal(sessionId, terminalId));
  const loadTerminal = useAppStore((s) => s.loadTerminal);
  const pre = useRef<HTMLPreElement>(null);
  const following = useRef(true);

  // Opened mid-run (a reload, another window): what was printed before this window looked.
  useEffect(() => {
    if (!done && sessionId) void loadTerminal(sessionId, terminalId);
  }, [done, sessionId, terminalId, loadTerminal]);

  const text = done?.output ?? live?.text ?? '';
  const exit = done?.exit ?? live?.exit;
  const truncated = done?.truncated ?? live?.truncated ?? false;

  useLayoutEffect(() => {
    const el = pre.current;
    if (el && following.current) el.scrollTop = el.scrollHeight;
  }, [text]);

  const state = exit ? (exit.exitCode === 0 ? 'ok' : 'failed') : 'running';
  return (
    <figure className={`terminal terminal-${state}`} aria-label="Terminal">
      <pre
        ref={pre}
        className="terminal-output"
        tabIndex={0}
        aria-label="Terminal output"
        onScroll={(e) => {
          const el = e.currentTarget;
          following.current = el.scrollHeight - el.scrollTop - el.clientHeight < 8;
        }}
      >
        {truncated ? <span className="terminal-truncated">… earlier output truncated{'\n'}</span> : null}
        {text}
      </pre>
      <figcaption className="terminal-status">
        {describeExit(exit)}
      </figcaption>
    </figure>
  );
});
