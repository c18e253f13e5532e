import { useState } from 'react';
import type { AgentViewT, RegistryAgentInfoT, WireError } from '../../../../shared/contract';
import { useAppStore } from '../../store/context';
import { registrySelectors } from '../../store/slices/registry/selectors';
import { FormError } from './form-error';
import { installText } from './registry-panel';

type Outcome = { ok: true; text: string } | { ok: false; error: WireError };

/** An agent added from the ACP registry: its version, a newer one with Update, Pin and Roll back. */
export function AgentRegistry({ agent, info }: { agent: AgentViewT; info: RegistryAgentInfoT }) {
  const install = useAppStore(registrySelectors.install(agent.id));
  const updateRegistryAgent = useAppStore((s) => s.updateRegistryAgent);
  const rollBackRegistryAgent = useAppStore((s) => s.rollBackRegistryAgent);
  const pinRegistryAgent = useAppStore((s) => s.pinRegistryAgent);
  const [outcome, setOutcome] = useState<Outcome | undefined>();
  const busy = install !== undefined;

  const change = async (verb: string, run: () => ReturnType<typeof updateRegistryAgent>) => {
    setOutcome(undefined);
    const res = await run();
    setOutcome(res.ok ? { ok: true, text: `${verb} ${res.change.info.version}.` } : res);
  };
  const pin = async () => {
    const error = await pinRegistryAgent(agent.id, !info.pinned);
    setOutcome(error ? { ok: false, error } : { ok: true, text: info.pinned ? 'Unpinned: updates are offered again.' : `Pinned at ${info.version}.` });
  };

  return (
    <div className="agent-registry">
      <p className="small">
        From the ACP registry ({info.registryId}, {info.kind}): version {info.version}
        {info.pinned ? ', pinned' : ''}.{info.latestVersion ? ` Version ${info.latestVersion} is available.` : ''}
      </p>
      <div className="form-actions">
        {info.latestVersion ? (
          <button
            type="button"
            className="button-secondary"
            disabled={busy || info.pinned}
            title={info.pinned ? 'Unpin it to update' : `Update to ${info.latestVersion}`}
            onClick={() => void change('Updated to', () => updateRegistryAgent(agent.id))}
          >
            Update
          </button>
        ) : null}
        <button type="button" className="button-secondary" disabled={busy} onClick={() => void pin()} title={info.pinned ? 'Offer updates again' : 'Keep this version: no updates until you unpin it'}>
          {info.pinned ? 'Unpin' : 'Pin'}
        </button>
        {info.previousVersion ? (
          <button
            type="button"
            className="button-secondary"
            disabled={busy}
            title={`Go back to ${info.previousVersion} and pin it`}
            onClick={() => void change('Rolled back to', () => rollBackRegistryAgent(agent.id))}
          >
            Roll back
          </button>
        ) : null}
        <span aria-live="polite" className="small">
          {install ? installText(install) : outcome?.ok ? outcome.text : ''}
        </span>
      </div>
      {outcome && !outcome.ok ? <FormError error={outcome.error} /> : null}
    </div>
  );
}
