import type { SessionViewT } from './contract';

/**
 * A session the person has to act on before its agent can go on: a permission request or a
 * question from the agent is pending, or its agent waits for a sign-in. Archived sessions are out of sight and not
 * counted. The window title and the dock/taskbar badge both count these.
 */
export function isWaitingForPerson(view: SessionViewT): boolean {
  return view.archivedAt === undefined && (view.pendingPermissions > 0 || view.pendingQuestions > 0 || view.auth !== undefined);
}
