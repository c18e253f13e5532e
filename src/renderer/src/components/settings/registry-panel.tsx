import { useEffect, useId, useState, type FormEvent } from 'react';
import type { RegistryEntryViewT, RegistryInstallProgressT, RegistryListingT, RegistryNeedT, WireError } from '../../../../shared/contract';
import { useAppStore } from '../../store/context';
import { hostSelectors } from '../../store/slices/host/selectors';
import { filterEntries, registrySelectors } from '../../store/slices/registry/selectors';
import { FormError, SaveActions } from './form-error';

const NEEDS: Record<RegistryNeedT['tool'], string> = { node: 'Node (npx)', uv: 'uv (uvx)', download: 'A download' };
const when = (iso: string): string => {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? iso : new Date(t).toLocaleString();
};

/** Where the list came from, in words. */
export function sourceLine(l: RegistryListingT): string {
  switch (l.source) {
    case 'network':
      return `Fetched from the registry ${when(l.asOf)}.`;
    case 'cache':
      return `The copy fetched ${when(l.asOf)}.`;
    case 'snapshot':
      return `The copy bundled with Switchboard (registry as of ${when(l.snapshot.date)}).`;
  }
}

/** A download's progress, or the step of an install, in words. */
export function installText(p: RegistryInstallProgressT | { phase: 'starting' }): string {
  if (p.phase === 'starting') return 'Adding…';
  if (p.phase === 'downloading') {
    const mb = (n: number) => `${(n / 1_048_576).toFixed(1)} MB`;
    return p.total ? `Downloading ${Math.floor((p.bytes / p.total) * 100)}% (${mb(p.bytes)} of ${mb(p.total)})…` : `Downloading ${mb(p.bytes)}…`;
  }
  if (p.phase === 'verifying') return 'Checking the download…';
  if (p.phase === 'extracting') return 'Unpacking…';
  return 'Done';
}

function Entry({ entry }: { entry: RegistryEntryViewT }) {
  const m = entry.manifest;
  const install = useAppStore(registrySelectors.install(m.id));
  const addFromRegistry = useAppStore((s) => s.addFromRegistry);
  const [outcome, setOutcome] = useState<{ ok: true; text: string } | { ok: false; error: WireError } | undefined>();
  const nameId = useId();
  const add = async () => {
    setOutcome(undefined);
    const res = await addFromRegistry(m.id);
    setOutcome(res.ok ? { ok: true, text: `Added as ${res.change.agentId}, version ${res.change.info.version}.` } : res);
  };
  const preferred = entry.options.find((o) => o.kind === entry.preferred);
  return (
    <li className="agent-entry" aria-labelledby={nameId}>
      <div className="agent-head">
        <strong id={nameId}>{m.name}</strong>
        <span className="badge">{m.version}</span>
        {m.license ? <span className="badge">{m.license}</span> : null}
      </div>
      <p className="small">{m.description}</p>
      <ul className="registry-needs small" aria-label={`What ${m.name} needs`}>
        {entry.options.map((o) => (
          <li key={o.kind} className={o.need.satisfied ? undefined : 'availability-missing'}>
            {NEEDS[o.need.tool]}: {o.need.satisfied ? '' : 'missing — '}
            {o.need.detail}
          </li>
        ))}
      </ul>
      {entry.unavailable ? <p className="hint small">{entry.unavailable}</p> : null}
      {entry.addedAs.length ? <p className="muted small">Added as {entry.addedAs.join(', ')}.</p> : null}
      <div className="form-actions">
        <button type="button" className="button-secondary" disabled={!preferred || install !== undefined} onClick={() => void add()} title={preferred ? [preferred.command, ...preferred.args].join(' ') : entry.unavailable}>
          Add
        </button>
        <span aria-live="polite" className="small">
          {install ? installText(install) : outcome?.ok ? outcome.text : ''}
        </span>
      </div>
      {outcome && !outcome.ok ? <FormError error={outcome.error} /> : null}
    </li>
  );
}

/** The `registryUrl` setting: where the list is fetched from; empty never fetches. */
function RegistryAddress() {
  const url = useAppStore((s) => hostSelectors.settings(s)?.registryUrl ?? '');
  const saveSettings = useAppStore((s) => s.saveSettings);
  const [text, setText] = useState(url);
  const [error, setError] = useState<WireError | undefined>();
  const [saved, setSaved] = useState(false);
  const id = useId();
  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    setSaved(false);
    const result = await saveSettings({ registryUrl: text });
    setError(result);
    setSaved(!result);
  };
  return (
    <form className="registry-address" aria-label="Registry address" onSubmit={(e) => void onSubmit(e)} noValidate>
      <div className="field">
        <label className="field-label" htmlFor={id}>
          Registry address
        </label>
        <input id={id} type="url" spellCheck={false} aria-describedby={`${id}-hint`} value={text} onChange={(e) => (setSaved(false), setText(e.target.value))} />
        <span className="field-hint" id={`${id}-hint`}>
          Where the list of agents is fetched from. Leave it empty to never fetch: the copy bundled with Switchboard is used.
        </span>
      </div>
      <SaveActions error={error} saved={saved} saving={false} label="Save address" secondary />
    </form>
  );
}

/** `Add from registry`: the ACP registry's agents, searchable, each with what it needs here. */
export function RegistryPanel({ onClose }: { onClose: () => void }) {
  const listing = useAppStore(registrySelectors.listing);
  const loading = useAppStore(registrySelectors.loading);
  const loadRegistry = useAppStore((s) => s.loadRegistry);
  const [query, setQuery] = useState('');
  const [error, setError] = useState<WireError | undefined>();
  const headingId = useId();
  const searchId = useId();

  useEffect(() => {
    void loadRegistry().then(setError);
  }, [loadRegistry]);

  const entries = listing ? filterEntries(listing.entries, query) : [];
  return (
    <section aria-labelledby={headingId} className="agent-form registry-panel">
      <h4 id={headingId}>Add from registry</h4>
      <p className="muted small" aria-live="polite">
        {loading === 'refresh' ? 'Fetching the registry…' : listing ? sourceLine(listing) : 'Reading the registry…'}
        {listing?.error && !loading ? ` It could not be fetched: ${listing.error}.` : ''}
      </p>
      <div className="form-actions">
        <button type="button" className="button-secondary" disabled={loading !== undefined} onClick={() => void loadRegistry(true).then(setError)}>
          Check for updates
        </button>
        <span className="spacer" />
        <button type="button" className="button-secondary" onClick={onClose}>
          Close
        </button>
      </div>
      {error ? <FormError error={error} /> : null}
      <div className="field">
        <label className="field-label" htmlFor={searchId}>
          Search the registry
        </label>
        <input id={searchId} type="search" value={query} onChange={(e) => setQuery(e.target.value)} />
      </div>
      {listing ? (
        entries.length ? (
          <ul aria-label="Registry agents" className="agent-list">
            {entries.map((e) => (
              <Entry key={e.manifest.id} entry={e} />
            ))}
          </ul>
        ) : (
          <p className="muted small">No agent matches “{query}”.</p>
        )
      ) : null}
      {listing?.skipped.length ? (
        <details className="small muted">
          <summary>Left out of the list ({listing.skipped.length})</summary>
          <ul>
            {listing.skipped.map((s, i) => (
              <li key={i}>
                {s.id ?? 'an entry'}: {s.reason}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
      <RegistryAddress />
    </section>
  );
}
