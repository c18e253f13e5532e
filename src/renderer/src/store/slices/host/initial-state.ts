import type { HostInfoT, PermissionRuleT, SettingsT, StorageStatusT } from '../../../../../shared/contract';
import type { ConnectionStatus } from '../../../api/connection';

export interface HostState {
  hostInfo: HostInfoT | undefined;
  settings: SettingsT | undefined;
  connection: ConnectionStatus;
  /** Remembered permission rules of `rulesSessionId` (loaded when Settings opens). */
  rules: readonly PermissionRuleT[];
  rulesSessionId: string | undefined;
  /** The host cannot save (disk full, folder unwritable): shown until it says saving works again. */
  storage: StorageStatusT;
}

export const hostInitialState: HostState = {
  hostInfo: undefined,
  settings: undefined,
  connection: 'connecting',
  rules: [],
  rulesSessionId: undefined,
  storage: { ok: true },
};
