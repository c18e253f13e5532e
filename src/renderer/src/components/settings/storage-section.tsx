/**
 * Settings → Storage (issue 23), one self-contained section: what the database holds (its
 * size, the largest sessions, the search index's share), `Clean up` of old archived sessions
 * with a count and a confirmation, `Compact` (done at the next start; the desktop app can
 * restart now), the backups with `Back up now`, and how many are kept.
 */
import { useEffect, useId, useState } from 'react';
import type { BackupViewT, WireError } from '../../../../shared/contract';
import { useAppStore } from '../../store/context';
import { hostSelectors } from '../../store/slices/host/selectors';
import { storageSelectors } from '../../store/slices/storage/selectors';
import { FormError } from './form-error';

const UNITS = ['bytes', 'KB', 'MB', 'GB', 'TB'] as const;

/** 1,234,567 bytes → "1.2 MB" (powers of 1,000, as file managers show sizes). */
export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < UNITS.length - 1) {
    value /= 1000;
    unit++;
  }
  return unit === 0 ? `${value} ${value === 1 ? 'byte' : 'bytes'}` : `${value < 10 ? value.toFixed(1) : Math.round(value)} ${UNITS[unit]}`;
}

const count = (n: number, one: string, many = `${one}s`): string => `${n.toLocaleString()} ${n === 1 ? one : many}`;
const dateOf = (at: number): string => new Date(at).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const KIND: Record<BackupViewT['kind'], string> = { daily: 'Daily', 'pre-migration': 'Before an upgrade' };

function Report() {
  const report = useAppStore(storageSelectors.report);
  const loading = useAppStore((s) => s.storageLoading);
  const error = useAppStore((s) => s.storageError);
  if (error) return <FormError error={error} />;
  if (!report) return <p className="muted small">{loading ? 'Measuring the database…' : ''}</p>;
  const share = report.searchIndex.share;
  return (
    <>
      <dl className="storage-figures">
        <dt>Database</dt>
        <dd>
          {formatBytes(report.databaseBytes + report.walBytes)}
          {report.freeBytes > 0 ? <span className="muted"> ({formatBytes(report.freeBytes)} unused, given back by Compact)</span> : null}
        </dd>
        <dt>Sessions</dt>
        <dd>
          {count(report.sessions, 'session')}, {report.archivedSessions.toLocaleString()} archived
        </dd>
        <dt>Search index</dt>
        <dd>
          {report.searchIndex.bytes === undefined
            ? 'size unknown'
            : `${formatBytes(report.searchIndex.bytes)}${share === undefined ? '' : ` (${Math.round(share * 100)}% of the database)`}`}
        </dd>
      </dl>
      {report.largestSessions.length ? (
        <table className="storage-largest" aria-label="Largest sessions">
          <thead>
            <tr>
              <th scope="col">Largest sessions</th>
              <th scope="col">Events</th>
              <th scope="col">Size</th>
            </tr>
          </thead>
          <tbody>
            {report.largestSessions.map((s) => (
              <tr key={s.id}>
                <td>
                  {s.title || 'Untitled'}
                  {s.archived ? <span className="muted"> (archived)</span> : null}
                </td>
                <td>{s.events.toLocaleString()}</td>
                <td>{formatBytes(s.payloadBytes)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </>
  );
}

function CleanUp() {
  const id = useId();
  const { preview, running, deleted, error } = useAppStore(storageSelectors.cleanUp);
  const previewCleanUp = useAppStore((s) => s.previewCleanUp);
  const confirmCleanUp = useAppStore((s) => s.confirmCleanUp);
  const cancelCleanUp = useAppStore((s) => s.cancelCleanUp);
  const [days, setDays] = useState('90');
  const valid = /^\d{1,4}$/.test(days.trim()) && Number(days) <= 3650;
  return (
    <div className="storage-cleanup">
      <h4>Clean up</h4>
      <div className="field inline">
        <label className="field-label" htmlFor={`${id}-days`}>
          Delete archived sessions last used more than
        </label>
        <input id={`${id}-days`} type="number" inputMode="numeric" min={0} max={3650} step={1} value={days} onChange={(e) => setDays(e.target.value)} />
        <span>days ago</span>
        <button type="button" className="button-secondary" disabled={!valid || running} onClick={() => void previewCleanUp(Number(days))}>
          Clean up…
        </button>
      </div>
      {preview ? (
        preview.sessions === 0 ? (
          <p className="muted small" role="status">
            No archived session was last used before {dateOf(preview.cutoff)}: nothing to delete.
          </p>
        ) : (
          <div className="storage-confirm" role="alertdialog" aria-label="Confirm clean-up">
            <p>
              This deletes {count(preview.sessions, 'archived session')} last used before {dateOf(preview.cutoff)}, with their{' '}
              {count(preview.events, 'transcript event')}. They cannot be brought back (a backup taken before keeps them).
            </p>
            <button type="button" className="button-danger" disabled={running} onClick={() => void confirmCleanUp()}>
              {running ? 'Deleting…' : `Delete ${count(preview.sessions, 'session')}`}
            </button>
            <button type="button" className="button-secondary" disabled={running} onClick={cancelCleanUp}>
              Cancel
            </button>
          </div>
        )
      ) : null}
      {deleted !== undefined ? (
        <p className="muted small" role="status">
          Deleted {count(deleted, 'session')}.
        </p>
      ) : null}
      {error ? <FormError error={error} /> : null}
    </div>
  );
}

function Compact() {
  const requested = useAppStore((s) => s.compaction);
  const alreadyAsked = useAppStore((s) => s.storageReport?.compactionRequested === true);
  const error = useAppStore((s) => s.compactionError);
  const canRestart = useAppStore(storageSelectors.canRestart);
  const requestCompaction = useAppStore((s) => s.requestCompaction);
  const restartHost = useAppStore((s) => s.restartHost);
  const asked = requested !== undefined || alreadyAsked;
  return (
    <div className="storage-compact">
      <h4>Compact</h4>
      <p className="muted small">Rewrites the database without its unused space. It needs the file to itself, so it runs when Switchboard next starts.</p>
      {asked ? (
        <p role="status">
          Compaction asked for: it runs the next time Switchboard starts.{' '}
          {canRestart ? (
            <button type="button" className="button-secondary" onClick={() => void restartHost()}>
              Restart now
            </button>
          ) : null}
        </p>
      ) : (
        <button type="button" className="button-secondary" onClick={() => void requestCompaction()}>
          Compact
        </button>
      )}
      {error ? <FormError error={error} /> : null}
    </div>
  );
}

function Backups() {
  const id = useId();
  const list = useAppStore(storageSelectors.backups);
  const error = useAppStore((s) => s.backupError);
  const kept = useAppStore((s) => hostSelectors.settings(s)?.backupsKept);
  const backUpNow = useAppStore((s) => s.backUpNow);
  const saveSettings = useAppStore((s) => s.saveSettings);
  const [keep, setKeep] = useState<string | undefined>();
  const [keepError, setKeepError] = useState<WireError | undefined>();
  const shownKeep = keep ?? (kept === undefined ? '' : String(kept));
  const saveKeep = async () => {
    const result = await saveSettings({ backupsKept: Number(shownKeep.trim() === '' ? NaN : shownKeep) });
    setKeepError(result);
    if (!result) setKeep(undefined);
  };
  return (
    <div className="storage-backups">
      <h4>Backups</h4>
      {list ? (
        <>
          <p className="muted small">
            Taken once a day while Switchboard runs, and before every upgrade of the database, into {list.folder}.
          </p>
          {list.backups.length ? (
            <ul className="storage-backup-list" aria-label="Backups">
              {list.backups.map((b) => (
                <li key={b.name}>
                  <span>{dateOf(b.takenAt)}</span>
                  <span className="muted">{KIND[b.kind]}</span>
                  <span>{formatBytes(b.bytes)}</span>
                </li>
              ))}
            </ul>
          ) : (
            <p className="muted small">No backups yet.</p>
          )}
          {list.lastFailure ? (
            <p className="form-error" role="alert">
              The last backup failed ({dateOf(list.lastFailure.at)}): {list.lastFailure.message}
            </p>
          ) : null}
        </>
      ) : null}
      <button type="button" className="button-secondary" disabled={list?.running === true} onClick={() => void backUpNow()}>
        {list?.running ? 'Backing up…' : 'Back up now'}
      </button>
      {error ? <FormError error={error} /> : null}
      <div className="field inline">
        <label className="field-label" htmlFor={`${id}-kept`}>
          Backups kept
        </label>
        <input
          id={`${id}-kept`}
          aria-describedby={`${id}-kept-hint`}
          type="number"
          inputMode="numeric"
          min={1}
          step={1}
          value={shownKeep}
          onChange={(e) => setKeep(e.target.value)}
        />
        <button type="button" className="button-secondary" disabled={keep === undefined} onClick={() => void saveKeep()}>
          Save
        </button>
        <span className="field-hint" id={`${id}-kept-hint`}>
          Of each kind; older ones are deleted.
        </span>
      </div>
      {keepError ? <FormError error={keepError} /> : null}
    </div>
  );
}

/** The whole section; it loads its figures when it is shown. */
export function StorageSection() {
  const loadStorage = useAppStore((s) => s.loadStorage);
  useEffect(() => {
    void loadStorage();
  }, [loadStorage]);
  return (
    <section className="storage" aria-label="Storage">
      <h3>Storage</h3>
      <Report />
      <CleanUp />
      <Compact />
      <Backups />
    </section>
  );
}
