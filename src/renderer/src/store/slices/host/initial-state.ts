import type { HostInfoT, PermissionRuleT, SettingsT } from '../../../../../shared/contract';
import type { ConnectionStatus } from '../../../api/connection';

export interface HostState {
  hostInfo: HostInfoT | undefined;
  settings: SettingsT | undefined;
  connection: ConnectionStatus;
  /** Remembered permission rules of `rulesSessionId` (loaded when Settings opens). */
  rules: readonly PermissionRuleT[];
  rulesSessionId: string | undefined;
}

export const hostInitialState: HostState = {
  hostInfo: undefined,
  settings: undefined,
  connection: 'connecting',
  rules: [],
  rulesSessionId: undefined,
};
