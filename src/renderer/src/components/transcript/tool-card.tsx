import { memo } from 'react';
import type { ToolCallState } from '../../store/slices/transcript/rows';
import { ToolDetails } from './tool-details';
import { toolKindLabel, toolStatusLabel } from './describe';
import { TerminalBlock } from './terminal-block';

/** One tool call with the latest status, title and content of all its updates. */
export const ToolCard = memo(function ToolCard({ call }: { call: ToolCallState }) {
  const hasDetails =
    call.content.length > 0 || call.locations.length > 0 || (call.kind === 'execute' && call.rawInput !== undefined);
  const status = call.status ?? 'pending';
  // Terminals are shown open, outside Details: their output is what the person waits for.
  const terminals = call.content.flatMap((c) => (c.type === 'terminal' ? [c.terminalId] : []));
  return (
    <section className={`tool-card tool-${status}`} aria-label={`Tool call: ${call.title}`}>
      <header className="tool-head">
        <span className="tool-kind">{toolKindLabel(call.kind)}</span>
        <span className="tool-title">{call.title}</span>
        <span className={`tool-status status-${status}`}>{toolStatusLabel(call.status)}</span>
      </header>
      {terminals.map((id) => (
        <TerminalBlock key={id} terminalId={id} done={call.terminalsDone?.[id]} />
      ))}
      {hasDetails ? (
        <details className="tool-more" open={status === 'failed'}>
          <summary>Details</summary>
          <ToolDetails kind={call.kind} locations={call.locations} rawInput={call.rawInput} content={call.content} />
        </details>
      ) : null}
    </section>
  );
});
