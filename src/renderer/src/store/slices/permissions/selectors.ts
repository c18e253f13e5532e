import type { PermissionViewT } from '../../../../../shared/contract';
import type { AppState } from '../../app-store';
import { stableValues } from '../../pending-journal';

const pendingList = stableValues<PermissionViewT>();

export const permissionsSelectors = {
  /** A stable array per map instance, so a component selecting it does not re-render in a loop. */
  pendingList: (s: AppState): readonly PermissionViewT[] => pendingList(s.pendingPermissions),
  isAnswering: (requestId: string) => (s: AppState) => s.answeringPermissions.has(requestId),
  errorFor: (requestId: string) => (s: AppState) => s.permissionErrors.get(requestId),
};
