import { useAppStore } from '../store/context';
import { hostSelectors } from '../store/slices/host/selectors';

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
