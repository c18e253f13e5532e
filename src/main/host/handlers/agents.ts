import type { AgentTestResultT } from '../../../shared/catalogue';
import { AppError } from '../../../shared/errors';
import type { Handlers } from '../dispatch';
import { presetViews } from '../../catalogue/agent-presets';
import { signInAgent } from '../../catalogue/agent-sign-in';
import { testAgent } from '../../catalogue/agent-tester';
import type { HostParts } from '../host-parts';

type AgentHandlers = Pick<Handlers, 'agents:list' | 'agents:save' | 'agents:remove' | 'agents:test' | 'agents:presets' | 'agents:signin'>;

/** The catalogue's commands: each calls one catalogue method (or the tester). */
export function createAgentHandlers(h: HostParts): AgentHandlers {
  const { catalogue } = h;
  // Two Test clicks on one agent share one run: one process, one result.
  const running = new Map<string, Promise<AgentTestResultT>>();
  return {
    'agents:list': (p) => catalogue.list(p.refresh ?? false),
    'agents:presets': (p) => {
      if (p.refresh) h.detector.refresh();
      return presetViews(h.detector);
    },
    'agents:save': (p) => catalogue.save(p),
    'agents:remove': (p) => {
      catalogue.remove(p.agentId);
      return { ok: true as const };
    },
    'agents:test': (p, ctx) => {
      const agent = catalogue.resolve(p.agentId);
      if (!agent) throw new AppError('not_found', `No agent named ${p.agentId}`);
      let run = running.get(agent.id);
      if (!run) {
        run = testAgent(agent, {
          pool: h.pool,
          clock: h.clock,
          timeoutMs: h.agentTestTimeoutMs,
          onProgress: (step, elapsedMs) => h.sendTo(ctx.clientId, 'agents:progress', { agentId: agent.id, step, elapsedMs }),
        })
          .then((result) => {
            catalogue.recordTest(agent.id, result);
            return result;
          })
          .finally(() => running.delete(agent.id));
        running.set(agent.id, run);
      }
      return run;
    },
    'agents:signin': (p) =>
      signInAgent(p.agentId, p.methodId, p.value, {
        pool: h.pool,
        clock: h.clock,
        timeoutMs: h.agentTestTimeoutMs,
        resolve: (id) => catalogue.resolve(id),
        storeSecret: (id, name, value) => catalogue.storeSecret(id, name, value),
      }),
  };
}
