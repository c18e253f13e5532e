import type { PermissionViewT } from '../../../../../shared/contract';

export interface PermissionsState {
  /** Pending requests of the current session, by requestId, in arrival order. */
  pendingPermissions: ReadonlyMap<string, PermissionViewT>;
  /** Requests whose answer is on its way (their buttons are disabled meanwhile). */
  answeringPermissions: ReadonlySet<string>;
  /** A failed answer that left the dialog open, by requestId. */
  permissionErrors: ReadonlyMap<string, string>;
}

export const permissionsInitialState: PermissionsState = {
  pendingPermissions: new Map(),
  answeringPermissions: new Set(),
  permissionErrors: new Map(),
};
