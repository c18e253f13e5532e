/**
 * An `elicitation/create` request as the host takes it in: which session (and tool call) or
 * request it belongs to, and the question as windows show it: a form already normalised, or a
 * URL already checked. A mode Switchboard did not advertise (a future or `_`-prefixed one), a
 * malformed form and a URL that may not be opened are refused with the reason, which the host
 * returns to the agent as invalid params.
 */
import { z } from 'zod';
import { ElicitationForm, normaliseElicitationSchema, type SchemaIssue } from './elicitation-form';
import { checkUrlTarget, UrlTarget } from './elicitation-url';

export const ELICITATION_MESSAGE_MAX = 10_000;

/** A question tied to a session (optionally a tool call), or to a request outside any session (sign-in). */
export const ElicitationScope = z.union([
  z.object({ sessionId: z.string(), toolCallId: z.string().optional() }),
  z.object({ requestId: z.union([z.string(), z.number()]) }),
]);

export const ElicitationQuestion = z.discriminatedUnion('mode', [
  z.object({ mode: z.literal('form'), message: z.string(), form: ElicitationForm }),
  z.object({ mode: z.literal('url'), message: z.string(), elicitationId: z.string(), target: UrlTarget }),
]);

export type ElicitationScopeT = z.output<typeof ElicitationScope>;
export type ElicitationQuestionT = z.output<typeof ElicitationQuestion>;
export type ElicitationRequestResult =
  | { ok: true; value: { scope: ElicitationScopeT; question: ElicitationQuestionT } }
  | { ok: false; error: { message: string; issues: SchemaIssue[] } };

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

export function parseElicitationRequest(params: unknown): ElicitationRequestResult {
  const refuse = (message: string, issues: SchemaIssue[] = []): ElicitationRequestResult => ({ ok: false, error: { message, issues } });
  if (!isObj(params)) return refuse('The question is not an object.');
  let scope: ElicitationScopeT;
  if (typeof params.sessionId === 'string') {
    scope = typeof params.toolCallId === 'string' ? { sessionId: params.sessionId, toolCallId: params.toolCallId } : { sessionId: params.sessionId };
  } else if (typeof params.requestId === 'string' || typeof params.requestId === 'number') scope = { requestId: params.requestId };
  else return refuse('The question names neither a session nor a request.');
  if (typeof params.message !== 'string') return refuse('The question has no message.');
  if (params.message.length > ELICITATION_MESSAGE_MAX) return refuse(`The question's message is longer than ${ELICITATION_MESSAGE_MAX} characters.`);
  const message = params.message;

  if (params.mode === 'form') {
    const form = normaliseElicitationSchema(params.requestedSchema);
    return form.ok ? { ok: true, value: { scope, question: { mode: 'form', message, form: form.value } } } : refuse(form.error.message, form.error.issues);
  }
  if (params.mode === 'url') {
    if (typeof params.elicitationId !== 'string' || params.elicitationId === '') return refuse('A URL question needs an elicitationId.');
    const target = checkUrlTarget(params.url);
    return target.ok
      ? { ok: true, value: { scope, question: { mode: 'url', message, elicitationId: params.elicitationId, target: target.value } } }
      : refuse(`The page cannot be opened: ${target.error.message}`, [{ path: 'url', message: target.error.message }]);
  }
  return refuse(`Switchboard asks questions as forms or URLs, not ${JSON.stringify(params.mode)}.`, [{ path: 'mode', message: 'not form or url' }]);
}
