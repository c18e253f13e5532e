import type { Handlers } from '../dispatch';
import type { HostParts } from '../host-parts';

/** Workspaces (issue 19): the dialog's probe, a session's status, changes, checkpoints, commit, merge, rebase, groups, repositories. */
export function workspaceHandlers({ workspace, service }: HostParts) {
  return {
    'workspace:probe': (p) => workspace.probe(p),
    'branches:check': (p) => workspace.checkBranch(p.path, p.name),
    'workspace:status': (p) => workspace.status(p.sessionId),
    'changes:list': (p) => workspace.changes(p.sessionId, p.limit),
    'changes:diff': (p) => workspace.diff(p),
    'changes:revert': (p) => workspace.revert(p.sessionId, p.paths),
    'changes:discard': (p) => workspace.discard(p.sessionId),
    'changes:commit': (p) => workspace.commit(p.sessionId, p.message),
    'workspace:merge': (p) => workspace.merge(p),
    'workspace:rebase': (p) => workspace.rebase(p.sessionId),
    'checkpoints:restore': (p) => workspace.restore(p.sessionId, p.checkpointId),
    'workspace:recreate': (p) => service.recreateWorkspace(p.sessionId),
    'setup:read': (p) => workspace.setupSnapshot(p.sessionId),
    'workspace:compare': (p) => workspace.compare(p.groupId),
    'repositories:list': () => workspace.repositories(),
    'repositories:save': (p) => workspace.saveRepository(p),
  } satisfies Partial<Handlers>;
}
