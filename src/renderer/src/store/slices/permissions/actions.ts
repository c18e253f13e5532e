import type { EventPayload, PermissionViewT } from '../../../../../shared/contract';
import type { GetState, SetState } from '../../app-store';
import type { StoreDeps } from '../../deps';
import { PendingJournal, withoutKey } from '../../pending-journal';

export interface PermissionsActions {
  setPendingPermissions(list: readonly PermissionViewT[]): void;
  permissionRequested(request: PermissionViewT): void;
  permissionResolved(resolved: EventPayload<'permission:resolved'>): void;
  answerPermission(requestId: string, optionId: string): Promise<void>;
  /** A marker of the permission pushes applied so far (take it when a snapshot is asked for). */
  permissionsMark(): number;
  /**
   * Applies a snapshot of the current session's pending requests (a switch answer) that was
   * asked for at `mark`: requests resolved since then stay gone, and requests pushed since then
   * stay, so an older answer never undoes newer pushed state.
   */
  applyPermissionsSnapshot(list: readonly PermissionViewT[], mark: number): void;
}

/** Answers that mean "this request is gone": the dialog closes with a short notice. */
const GONE_NOTICE: Partial<Record<string, string>> = {
  permission_answered: 'That request was already answered in another window.',
  not_found: 'That permission request is no longer pending.',
  permission_timeout: 'That permission request timed out.',
  invalid_state: 'That permission request is no longer pending.',
};

export function createPermissionsActions(set: SetState, get: GetState, deps: StoreDeps): PermissionsActions {
  const journal = new PendingJournal<PermissionViewT>();
  const remove = (requestId: string): void => {
    const s = get();
    const answering = new Set(s.answeringPermissions);
    answering.delete(requestId);
    set({
      pendingPermissions: withoutKey(s.pendingPermissions, requestId),
      permissionErrors: withoutKey(s.permissionErrors, requestId),
      answeringPermissions: answering,
    });
  };
  return {
    setPendingPermissions(list) {
      set({
        pendingPermissions: new Map(list.map((p) => [p.requestId, p])),
        answeringPermissions: new Set(),
        permissionErrors: new Map(),
      });
    },
    permissionRequested(request) {
      if (request.sessionId !== get().currentSessionId) return;
      journal.noteRequested(request);
      const next = new Map(get().pendingPermissions);
      next.set(request.requestId, request);
      set({ pendingPermissions: next });
    },
    permissionResolved({ requestId, sessionId }) {
      if (sessionId !== get().currentSessionId) return;
      journal.noteResolved(requestId);
      remove(requestId);
    },
    permissionsMark() {
      return journal.mark();
    },
    applyPermissionsSnapshot(list, mark) {
      const next = journal.merge(list, mark, get().currentSessionId);
      // Keeps what is being answered (and its error) for requests that are still pending.
      const s = get();
      const pending = new Map(next.map((p) => [p.requestId, p]));
      set({
        pendingPermissions: pending,
        answeringPermissions: new Set([...s.answeringPermissions].filter((id) => pending.has(id))),
        permissionErrors: new Map([...s.permissionErrors].filter(([id]) => pending.has(id))),
      });
    },
    async answerPermission(requestId, optionId) {
      const request = get().pendingPermissions.get(requestId);
      if (!request || get().answeringPermissions.has(requestId)) return;
      set({
        answeringPermissions: new Set(get().answeringPermissions).add(requestId),
        permissionErrors: withoutKey(get().permissionErrors, requestId),
      });
      const res = await deps.api['permissions:answer']({ requestId, sessionId: request.sessionId, optionId });
      if (res.ok) {
        remove(requestId);
        return;
      }
      const gone = GONE_NOTICE[res.error.code];
      if (gone) {
        remove(requestId);
        get().pushNotice(gone);
        return;
      }
      const answering = new Set(get().answeringPermissions);
      answering.delete(requestId);
      const errors = new Map(get().permissionErrors);
      errors.set(
        requestId,
        res.error.code === 'disconnected' ? 'Not sent: the connection was lost. Try again.' : res.error.message,
      );
      set({ answeringPermissions: answering, permissionErrors: errors });
    },
  };
}
