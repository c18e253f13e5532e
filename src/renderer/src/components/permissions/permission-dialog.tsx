import { useId } from 'react';
import type { PermissionViewT } from '../../../../shared/contract';
import { useAppStore } from '../../store/context';
import { permissionsSelectors } from '../../store/slices/permissions/selectors';
import { toolKindLabel } from '../transcript/describe';
import { ToolDetails } from '../transcript/tool-details';

function deadlineText(deadlineAt: number | undefined): string | undefined {
  if (deadlineAt === undefined) return undefined;
  const at = new Date(deadlineAt).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' });
  return `Rejected automatically at ${at} if nobody answers.`;
}

/**
 * One pending request. Not modal: the sidebar and other sessions stay usable, and the agent
 * waits (the host rejects it at the deadline if no window answers). Deliberately no Escape
 * handling and no focus grab: a request is closed only by choosing one of its options, never
 * by a stray key press while typing elsewhere.
 */
export function PermissionDialog({ request }: { request: PermissionViewT }) {
  const answering = useAppStore(permissionsSelectors.isAnswering(request.requestId));
  const error = useAppStore(permissionsSelectors.errorFor(request.requestId));
  const answer = useAppStore((s) => s.answerPermission);
  const descId = useId();
  const { toolCall } = request;
  const deadline = deadlineText(request.deadlineAt);
  return (
    <section role="dialog" aria-label={toolCall.title} aria-describedby={descId} className="permission">
      <header className="permission-head">
        <span className="tool-kind">{toolKindLabel(toolCall.kind)}</span>
        <strong className="permission-title">{toolCall.title}</strong>
      </header>
      <p id={descId} className="muted small">
        The agent asks for permission.{deadline ? ` ${deadline}` : ''}
      </p>
      <ToolDetails
        kind={toolCall.kind}
        locations={toolCall.locations ?? []}
        rawInput={toolCall.rawInput}
        content={toolCall.content ?? []}
      />
      {error ? <p className="permission-error">{error}</p> : null}
      <div className="permission-options">
        {request.options.map((o) => (
          <button
            key={o.optionId}
            type="button"
            className={o.kind.startsWith('allow') ? 'button-primary' : 'button-secondary'}
            disabled={answering}
            onClick={() => void answer(request.requestId, o.optionId)}
          >
            {o.name}
          </button>
        ))}
      </div>
    </section>
  );
}

export function PermissionStack() {
  const pending = useAppStore(permissionsSelectors.pendingList);
  if (pending.length === 0) return null;
  return (
    <div className="permission-stack">
      {pending.map((p) => (
        <PermissionDialog key={p.requestId} request={p} />
      ))}
    </div>
  );
}
