import type { Handlers } from '../dispatch';
import type { HostParts } from '../host-parts';

const ok = { ok: true as const };

/** Permission requests and the "always" answers remembered per session. */
export function permissionHandlers({ service, gate }: HostParts) {
  return {
    'permissions:answer': (p, ctx) => (gate.answer(ctx.clientId, p.requestId, p.sessionId, p.optionId), ok),
    'permissions:rules': (p) => service.permissionRules(p.sessionId),
    'permissions:revoke': (p) => (service.revokePermissionRule(p.sessionId, p.ruleId), ok),
  } satisfies Partial<Handlers>;
}
