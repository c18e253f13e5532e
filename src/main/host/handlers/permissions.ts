import type { Handlers } from '../dispatch';
import type { HostParts } from '../host-parts';

const ok = { ok: true as const };

/** Permission requests and the "always" answers remembered per session; questions from the agent. */
export function permissionHandlers({ service, gate, questions, openExternal }: HostParts) {
  return {
    'permissions:answer': (p, ctx) => (gate.answer(ctx.clientId, p.requestId, p.sessionId, p.optionId), ok),
    'questions:answer': (p, ctx) => {
      const { question } = questions.answer(ctx.clientId, p.requestId, p.sessionId, p.action, p.content);
      // Only the page the host checked when the agent asked, never an address from the window.
      if (p.action === 'accept' && question.mode === 'url') openExternal?.(question.target.href);
      return ok;
    },
    'permissions:rules': (p) => service.permissionRules(p.sessionId),
    'permissions:revoke': (p) => (service.revokePermissionRule(p.sessionId, p.ruleId), ok),
  } satisfies Partial<Handlers>;
}
