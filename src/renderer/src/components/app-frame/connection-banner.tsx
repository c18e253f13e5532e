import { useAppStore } from '../../store/context';
import { hostSelectors } from '../../store/slices/host/selectors';

const TEXT = 'Connection lost — reconnecting…';

export function ConnectionBanner() {
  const down = useAppStore(hostSelectors.isDisconnected);
  if (!down) return null;
  return (
    <div className="connection-banner" role="alert" aria-label={TEXT}>
      {TEXT}
    </div>
  );
}

/** The host cannot save (disk full, data folder unwritable): an alert until saving works again. */
export function StorageBanner() {
  const problem = useAppStore(hostSelectors.storageProblem);
  if (!problem) return null;
  return (
    <div className="connection-banner storage-banner" role="alert" aria-label="Cannot save">
      {problem}
    </div>
  );
}
