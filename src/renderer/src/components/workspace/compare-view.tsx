import { useEffect } from 'react';
import type { CompareEntryT } from '../../../../shared/contract';
import { formatCost } from '../../lib/usage-format';
import { useAppStore } from '../../store/context';
import { sessionsSelectors } from '../../store/slices/sessions/selectors';
import { workspaceSelectors } from '../../store/slices/workspace/selectors';
import { GitFailureNote } from './git-failure-note';
import { hashFor } from '../../lib/address';

/** How often Compare reads the group again while a sibling's turn runs. */
const COMPARE_POLL_MS = 1500;

function seconds(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

function Sibling({ entry, current }: { entry: CompareEntryT; current: boolean }) {
  const agent = useAppStore((s) => sessionsSelectors.agentName(s, entry.agentId));
  const compare = useAppStore((s) => s.compare);
  const merge = useAppStore((s) => s.mergeBranch);
  const busy = compare?.merging !== undefined;
  return (
    <section className={`compare-sibling${current ? ' is-current' : ''}`} aria-label={`${agent}: ${entry.title || 'Untitled session'}`}>
      <h3>
        <a href={hashFor(entry.sessionId)}>{agent}</a>
      </h3>
      <p className="muted small">
        {entry.branch ? <code>{entry.branch}</code> : null} {entry.running ? '· running' : ''}
      </p>
      <dl className="compare-figures">
        <dt>Files changed</dt>
        <dd>{entry.files === undefined ? '—' : entry.filesChanged}</dd>
        <dt>Lines</dt>
        <dd>
          +{entry.added} −{entry.removed}
        </dd>
        <dt>Turn time</dt>
        <dd>
          {seconds(entry.turnMs)} ({entry.turns} turn{entry.turns === 1 ? '' : 's'})
        </dd>
        <dt>Cost</dt>
        <dd>{entry.cost.length ? entry.cost.map(formatCost).join(' + ') : 'not reported'}</dd>
        <dt>Commits</dt>
        <dd>{entry.ahead}</dd>
      </dl>
      {entry.problem ? <p className="field-error">{entry.problem}</p> : null}
      {entry.files?.length ? (
        <ul className="compare-files" aria-label="Changed files">
          {entry.files.map((f) => (
            <li key={f.path}>
              <code>{f.path}</code> <span className="muted small">{workspaceSelectors.fileSummary(f)}</span>
            </li>
          ))}
        </ul>
      ) : entry.files ? (
        <p className="muted">No changes.</p>
      ) : null}
      {entry.truncated ? <p className="muted small">More files changed than listed.</p> : null}
      <button type="button" className="button-primary" disabled={busy} onClick={() => void merge(entry.sessionId, compare?.squash === true)}>
        Merge {agent}
        {entry.branch ? ` (${entry.branch})` : ''}
      </button>
    </section>
  );
}

/** `Compare`: every session of a group side by side (files, lines, turn time, cost), `Merge` on the one picked. */
export function CompareView() {
  const compare = useAppStore((s) => {
    const group = s.currentSessionId === undefined ? undefined : s.sessionsById.get(s.currentSessionId)?.groupId;
    return group !== undefined && s.compare?.groupId === group ? s.compare : undefined;
  });
  const currentId = useAppStore((s) => s.currentSessionId);
  const close = useAppStore((s) => s.closeCompare);
  const setSquash = useAppStore((s) => s.setCompareSquash);
  const refresh = useAppStore((s) => s.refreshCompare);
  // Siblings this window does not watch push no changes: while one runs, compare again now and then.
  const anyRunning = compare?.result?.sessions.some((e) => e.running) === true;
  const at = compare?.result;
  useEffect(() => {
    if (!anyRunning) return undefined;
    const timer = setTimeout(() => void refresh(), COMPARE_POLL_MS);
    return () => clearTimeout(timer);
  }, [anyRunning, at, refresh]);
  if (!compare) return null;
  const sessions = compare.result?.sessions ?? [];
  return (
    <section className="compare-view" aria-label="Compare" aria-busy={compare.loading || compare.merging !== undefined}>
      <div className="changes-head">
        <h2>Compare</h2>
        <span className="muted small" aria-live="polite">
          {compare.loading ? (compare.result ? 'Updating…' : 'Loading…') : `${sessions.length} sessions on one task`}
        </span>
        <span className="spacer" />
        <label className="checkbox-field">
          <input type="checkbox" checked={compare.squash} onChange={(e) => setSquash(e.target.checked)} /> Squash into one commit
        </label>
        <button type="button" className="button-secondary" onClick={close}>
          Close compare
        </button>
      </div>
      {compare.error ? <p className="field-error">Could not compare: {compare.error.message}</p> : null}
      <div className="compare-grid">
        {sessions.map((e) => (
          <Sibling key={e.sessionId} entry={e} current={e.sessionId === currentId} />
        ))}
      </div>
      <p className="changes-progress" aria-live="polite">
        {compare.merging ? 'Merging…' : (compare.done ?? '')}
      </p>
      {compare.failure ? <GitFailureNote failure={compare.failure} /> : null}
    </section>
  );
}
