import type { PermissionViewT } from '../../../../../shared/contract';
import type { AppState } from '../../app-store';

const EMPTY: readonly PermissionViewT[] = [];
let lastMap: AppState['pendingPermissions'] | undefined;
let lastList: readonly PermissionViewT[] = EMPTY;

/** A stable array per map instance, so a component selecting it does not re-render in a loop. */
function pendingList(s: AppState): readonly PermissionViewT[] {
  if (s.pendingPermissions !== lastMap) {
    lastMap = s.pendingPermissions;
    lastList = s.pendingPermissions.size === 0 ? EMPTY : [...s.pendingPermissions.values()];
  }
  return lastList;
}

export const permissionsSelectors = {
  pendingList,
  isAnswering: (requestId: string) => (s: AppState) => s.answeringPermissions.has(requestId),
  errorFor: (requestId: string) => (s: AppState) => s.permissionErrors.get(requestId),
};
