import type { ClientRequestHandlers } from './client-handlers';
import type { SessionSink } from './update-router';
import { acpSdk } from '../util/acp-sdk';

export interface ElicitationHandlerOptions {
  /** The session an ACP session id belongs to (undefined: nobody holds it). */
  sinkFor(acpSessionId: string): SessionSink | undefined;
  /** Every session of this connection (an `elicitation/complete` names no session). */
  sinks(): Iterable<SessionSink>;
  /** The connection is closing: nobody can answer. */
  closing(): boolean;
  /** A question tied to no session (a request's, e.g. during `authenticate`): said in the agent log. */
  unscoped(message: string): void;
}

const CANCEL = { action: 'cancel' as const };

/**
 * `elicitation/create` and `elicitation/complete`: questions from the agent, in form and URL
 * modes (advertised as `clientCapabilities.elicitation`). A question for a session goes to the
 * session (its windows show it); one tied to no session, or to a session nobody holds, is
 * answered `cancel` at once, never left hanging: there is no window to ask in.
 */
export function elicitationHandlers(o: ElicitationHandlerOptions): ClientRequestHandlers {
  return {
    capabilities: { elicitation: { form: {}, url: {} } },
    register: (app) =>
      app
        .onRequest(acpSdk().methods.client.elicitation.create, ({ params, signal }) => {
          const sessionId = (params as { sessionId?: unknown }).sessionId;
          if (typeof sessionId !== 'string') {
            o.unscoped('The agent asked a question outside any session; Switchboard has no window to ask in, so it answered cancel.');
            return CANCEL;
          }
          const sink = o.sinkFor(sessionId);
          if (!sink?.onQuestion || o.closing()) return CANCEL;
          return sink.onQuestion(params, signal);
        })
        .onNotification(acpSdk().methods.client.elicitation.complete, ({ params }) => {
          for (const sink of o.sinks()) if (sink.onQuestionComplete?.(params.elicitationId)) return;
        }),
  };
}
