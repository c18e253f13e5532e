import { presetViews } from '../../catalogue/agent-presets';
import type { Handlers } from '../dispatch';
import type { HostParts } from '../host-parts';

const ok = { ok: true as const };

/** The agent catalogue, what is done on a probe of an agent, signing a session's agent in, its log. */
export function agentHandlers(h: HostParts) {
  const { catalogue, probes, service, agentLogFollowers } = h;
  return {
    'agents:list': (p) => catalogue.list(p.refresh ?? false),
    'agents:presets': (p) => presetViews(h.detector, p.refresh ?? false),
    'agents:save': (p) => catalogue.save(p),
    'agents:remove': (p) => (catalogue.remove(p.agentId), ok),
    'agents:test': (p, ctx) => probes.test(p.agentId, (step, elapsedMs) => h.sendTo(ctx.clientId, 'agents:progress', { agentId: p.agentId, step, elapsedMs })),
    'agents:signin': (p) => probes.signIn(p.agentId, p.methodId, p.value),
    'agents:signout': (p) => probes.signOut(p.agentId),
    'agents:terminal': async (p) => (await probes.signInInTerminal(p.agentId, p.methodId), ok),
    'agents:sessions': (p) => probes.sessions(p.agentId, { ...(p.cwd === undefined ? {} : { cwd: p.cwd }), ...(p.cursor === undefined ? {} : { cursor: p.cursor }) }),
    'agents:authenticate': async (p) => ({ ok: true as const, ...(await service.authenticate(p.sessionId, p.methodId, p.value)) }),
    'agents:login': (p) => (service.signInInTerminal(p.sessionId, p.methodId), ok),
    'agents:log': (p, ctx) => agentLogFollowers.open(ctx.clientId, p.sessionId, p.follow),
    'agents:unfollow': (p, ctx) => (agentLogFollowers.close(ctx.clientId, p.sessionId), ok),
  } satisfies Partial<Handlers>;
}
