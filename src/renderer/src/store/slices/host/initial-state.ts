import type { HostInfoT, HostProblemT, PermissionRuleT, SettingsT, StorageStatusT } from '../../../../../shared/contract';
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
  /** Uncaught errors of the host (and a restart after one), oldest first. */
  hostProblems: readonly HostProblemT[];
  /** How many of `hostProblems` the person dismissed: the banner shows the ones after. */
  hostProblemsSeen: number;
}

export const hostInitialState: HostState = {
  hostInfo: undefined,
  settings: undefined,
  connection: 'connecting',
  rules: [],
  rulesSessionId: undefined,
  storage: { ok: true },
  hostProblems: [],
  hostProblemsSeen: 0,
};
