import { useEffect, useState } from 'react';
import { useAppStore } from '../../store/context';
import { hostSelectors } from '../../store/slices/host/selectors';
import { toolKindLabel } from '../transcript/describe';

const DECISION: Record<string, string> = {
  allow_always: 'Always allow',
  reject_always: 'Always reject',
};

/** Permission rules remembered for one session ("always allow edits"), each revocable. */
export function RulesList({ sessionId, sessionTitle }: { sessionId: string; sessionTitle: string }) {
  const rules = useAppStore(hostSelectors.rulesFor(sessionId));
  const loadRules = useAppStore((s) => s.loadRules);
  const revokeRule = useAppStore((s) => s.revokeRule);
  const [error, setError] = useState<string | undefined>();

  useEffect(() => {
    let live = true;
    void loadRules(sessionId).then((e) => live && setError(e?.message));
    return () => {
      live = false;
    };
  }, [sessionId, loadRules]);

  const revoke = async (ruleId: string) => {
    const e = await revokeRule(sessionId, ruleId);
    setError(e?.message);
  };

  return (
    <section className="rules" aria-label="Remembered permissions">
      <h3>Remembered permissions for “{sessionTitle || 'this session'}”</h3>
      {error ? <p className="form-error">{error}</p> : null}
      {rules === undefined ? (
        <p className="muted small">Loading…</p>
      ) : rules.length === 0 ? (
        <p className="muted small">No remembered permissions.</p>
      ) : (
        <ul className="rules-list">
          {rules.map((r) => (
            <li key={r.id}>
              <span>
                {DECISION[r.decision] ?? r.decision}: {toolKindLabel(r.toolKind)}
              </span>
              <button type="button" className="button-secondary" onClick={() => void revoke(r.id)}>
                Revoke
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
