import { useState } from 'react';
import type { HostProblemT } from '../../../../shared/contract';
import { useAppStore } from '../../store/context';
import { hostSelectors } from '../../store/slices/host/selectors';

const timeOf = (at: number): string => new Date(at).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });

/** What the banner says: that the host went on, or that it restarted. */
export function describeHostProblem(p: HostProblemT): string {
  return p.kind === 'restarted'
    ? `Switchboard restarted after an unexpected error (${p.message}) at ${timeOf(p.at)}.`
    : `Switchboard hit an unexpected error (${p.message}) at ${timeOf(p.at)} and went on. If something looks wrong, the details help whoever fixes it.`;
}

/** An uncaught error of the host (or a restart after one), with its crash log one click away. */
export function HostProblemBanner() {
  const problem = useAppStore(hostSelectors.hostProblem);
  const crashReport = useAppStore((s) => s.crashReport);
  const dismiss = useAppStore((s) => s.dismissHostProblems);
  const [copied, setCopied] = useState<{ report: string; outcome: 'copied' | 'failed'; why?: string } | undefined>();
  if (!problem) return null;
  const copy = async (): Promise<void> => {
    const res = await crashReport(problem.report);
    if (!res.ok) return setCopied({ report: problem.report, outcome: 'failed', why: res.error.message });
    try {
      await navigator.clipboard.writeText(res.value);
      setCopied({ report: problem.report, outcome: 'copied' });
    } catch {
      setCopied({ report: problem.report, outcome: 'failed', why: 'the clipboard refused it' });
    }
  };
  const state = copied?.report === problem.report ? copied : undefined;
  return (
    <div className="connection-banner host-problem-banner" role="alert" aria-label="Unexpected error">
      <span>{describeHostProblem(problem)}</span>{' '}
      <button type="button" className="button-secondary" onClick={() => void copy()}>
        Copy details
      </button>{' '}
      <button type="button" className="button-secondary" onClick={dismiss}>
        Dismiss
      </button>
      {state ? (
        <span role="status" className="small">
          {' '}
          {state.outcome === 'copied' ? `Copied (${problem.report}).` : `Could not copy: ${state.why ?? ''}`}
        </span>
      ) : null}
    </div>
  );
}
