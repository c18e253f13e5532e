/**
 * A tiny ACP agent process for host tests, for the behaviours the demo agent never shows.
 *
 *   node --import tsx scripted-agent.ts refuse-new
 *     answers `initialize`, then refuses every `session/new` with -32000 (like real agents
 *     without an account), after sending an update for a session id it never names.
 *   node --import tsx scripted-agent.ts late-new
 *     answers the first `session/new` at once (session `s1`); later ones are held until a
 *     prompt arrives for `s1`. That prompt releases them, waits (up to 3 s of its own time)
 *     for the host to `session/close` each released session, and reports what it saw as
 *     agent text: `closed: s2` or `not closed: s2`.
 *   node --import tsx scripted-agent.ts ignore-cancel
 *     every prompt says `working` and then never answers; `session/cancel` is ignored.
 */
import { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import * as acp from '@agentclientprotocol/sdk';
import type { AgentDefinition } from '../brokers/agent-definition';

export const SCRIPTED_AGENT_ENTRY = fileURLToPath(import.meta.url);

export type ScriptedMode = 'refuse-new' | 'late-new' | 'ignore-cancel';

/** An agent definition running this script in `mode`. */
export function scriptedAgent(id: string, mode: ScriptedMode): AgentDefinition {
  return { id, name: `Scripted agent (${mode})`, command: process.execPath, args: ['--import', 'tsx', SCRIPTED_AGENT_ENTRY, mode], env: {} };
}

function run(mode: ScriptedMode): void {
  let created = 0;
  const held: { id: string; release: () => void }[] = [];
  const closed = new Set<string>();
  const closeWaiters: (() => void)[] = [];

  const app = acp
    .agent({ name: `scripted-${mode}` })
    .onRequest(acp.methods.agent.initialize, () => ({
      protocolVersion: acp.PROTOCOL_VERSION,
      agentCapabilities: mode === 'late-new' ? { sessionCapabilities: { close: {} } } : {},
      authMethods: [],
    }))
    .onNotification(acp.methods.agent.session.cancel, () => {})
    .onRequest(acp.methods.agent.session.new, async ({ client }) => {
      created++;
      const sessionId = `s${created}`;
      if (mode === 'refuse-new') {
        await client.notify(acp.methods.client.session.update, {
          sessionId: 'ghost',
          update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'from a session that never was' } },
        });
        throw new acp.RequestError(-32000, 'Authentication required', { authMethods: [{ id: 'login', name: 'Log in' }] });
      }
      if (created > 1) await new Promise<void>((release) => held.push({ id: sessionId, release }));
      await client.notify(acp.methods.client.session.update, {
        sessionId,
        update: { sessionUpdate: 'session_info_update', title: `late ${sessionId}` },
      });
      return { sessionId };
    })
    .onRequest(acp.methods.agent.session.close, ({ params }) => {
      closed.add(params.sessionId);
      for (const wake of closeWaiters.splice(0)) wake();
      return {};
    })
    .onRequest(acp.methods.agent.session.prompt, async ({ params, client }) => {
      if (mode === 'ignore-cancel') {
        await client.notify(acp.methods.client.session.update, {
          sessionId: params.sessionId,
          update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'working' } },
        });
        return new Promise<never>(() => {});
      }
      const released = held.splice(0);
      for (const h of released) h.release();
      const ids = released.map((h) => h.id);
      const deadline = Date.now() + 3_000;
      while (!ids.every((id) => closed.has(id)) && Date.now() < deadline) {
        await new Promise<void>((wake) => {
          closeWaiters.push(wake);
          setTimeout(wake, 100);
        });
      }
      const text = ids.every((id) => closed.has(id)) ? `closed: ${ids.join(',')}` : `not closed: ${ids.join(',')}`;
      await client.notify(acp.methods.client.session.update, {
        sessionId: params.sessionId,
        update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } },
      });
      return { stopReason: 'end_turn' };
    });

  const conn = app.connect(
    acp.ndJsonStream(Writable.toWeb(process.stdout) as WritableStream<Uint8Array>, Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>),
  );
  void conn.closed.then(() => process.exit(0));
  process.on('SIGTERM', () => process.exit(0));
}

if (process.argv[1] === SCRIPTED_AGENT_ENTRY) run((process.argv[2] ?? 'refuse-new') as ScriptedMode);
