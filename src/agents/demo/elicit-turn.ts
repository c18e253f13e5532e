/**
 * `/elicit`: questions from the agent (ACP `elicitation/create`), each only when the client's
 * `initialize` offered that mode (`clientCapabilities.elicitation.form / .url`).
 *
 * - `/elicit`: a form with every kind of field ACP defines (text with each format and
 *   length bounds, single choices plain and titled, multi-selects, numbers and integers with
 *   bounds, a boolean; defaults, descriptions, required fields) and one secret field, whose
 *   answer the agent never repeats;
 * - `/elicit url [URL] [ms]`: asks the person to open a page; once they accept, waits `ms`
 *   (default 500) as if a sign-in ran there, then sends `elicitation/complete`;
 * - `/elicit malformed`: a form the SDK lets through but that is wrong (a field kind that does
 *   not exist, bounds the wrong way round, a required field that is not there), so a client's
 *   refusal can be seen.
 */
import { randomUUID } from 'node:crypto';
import * as acp from '@agentclientprotocol/sdk';
import type { CreateElicitationRequest, CreateElicitationResponse, ElicitationSchema } from '@agentclientprotocol/sdk';
import { delay } from './abortable';
import type { TurnContext } from './turns';

/** The field whose answer is masked: marked secret through `_meta`, as Switchboard reads it. */
export const SECRET_FIELD = 'token';

export const DEMO_FORM: ElicitationSchema = {
  type: 'object',
  title: 'Deploy the demo',
  description: 'Every kind of field a question can have.',
  properties: {
    name: { type: 'string', title: 'Project name', description: '2 to 20 characters', minLength: 2, maxLength: 20, default: 'demo' },
    email: { type: 'string', title: 'Email', format: 'email' },
    homepage: { type: 'string', title: 'Homepage', format: 'uri' },
    day: { type: 'string', title: 'Release day', format: 'date' },
    at: { type: 'string', title: 'Maintenance window', format: 'date-time' },
    region: { type: 'string', title: 'Region', enum: ['eu', 'us', 'ap'], default: 'eu' },
    size: {
      type: 'string',
      title: 'Machine size',
      oneOf: [
        { const: 's', title: 'Small', description: '1 CPU, 1 GB' },
        { const: 'm', title: 'Medium', description: '2 CPU, 4 GB' },
        { const: 'l', title: 'Large', description: '8 CPU, 32 GB' },
      ],
    },
    features: { type: 'array', title: 'Features', items: { type: 'string', enum: ['logs', 'metrics', 'traces'] }, minItems: 1, maxItems: 2, default: ['logs'] },
    reviewers: { type: 'array', title: 'Reviewers', items: { anyOf: [{ const: 'ann', title: 'Ann' }, { const: 'bo', title: 'Bo' }, { const: 'cy', title: 'Cy' }] } },
    ratio: { type: 'number', title: 'Traffic share', description: 'From 0 to 1', minimum: 0, maximum: 1, default: 0.5 },
    replicas: { type: 'integer', title: 'Replicas', minimum: 1, maximum: 10, default: 2 },
    confirm: { type: 'boolean', title: 'I understand this is a demo', default: false },
    [SECRET_FIELD]: { type: 'string', title: 'Deploy token', description: 'Kept out of the transcript', _meta: { secret: true } },
  },
  required: ['name', 'email', 'region', 'replicas', 'confirm'],
};

/** Accepted by the SDK's schema, refused by any client that reads it: see the module comment. */
export const MALFORMED_FORM = {
  type: 'object',
  properties: {
    colour: { type: '_demo/colour' },
    name: { type: 'string', minLength: 5, maxLength: 2 },
  },
  required: ['name', 'missing'],
} as unknown as ElicitationSchema;

export const DEFAULT_ELICIT_URL = 'https://example.com/switchboard-demo/sign-in';
const DEFAULT_COMPLETE_MS = 500;

function say(ctx: TurnContext, text: string): Promise<void> {
  return ctx.send({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } });
}

function failure(error: unknown): string {
  return error instanceof acp.RequestError ? `${error.message} (error ${error.code})` : String(error);
}

export async function elicit(ctx: TurnContext, arg: string): Promise<void> {
  const [mode = '', ...rest] = arg.split(/\s+/).filter(Boolean);
  if (mode === 'url') {
    const ms = rest.length > 0 && /^\d+$/.test(rest.at(-1) ?? '') ? Number(rest.pop()) : DEFAULT_COMPLETE_MS;
    return elicitUrl(ctx, rest[0] ?? DEFAULT_ELICIT_URL, Math.min(ms, 60_000));
  }
  if (mode === 'malformed') return elicitForm(ctx, MALFORMED_FORM, 'This form has mistakes in it.');
  if (mode !== '') return say(ctx, 'Usage: /elicit [url [URL] [ms] | malformed]');
  return elicitForm(ctx, DEMO_FORM, 'A few questions before the demo deploys.');
}

async function elicitForm(ctx: TurnContext, requestedSchema: ElicitationSchema, message: string): Promise<void> {
  if (!ctx.clientCapabilities?.elicitation?.form) return say(ctx, 'The client does not take questions as forms (clientCapabilities.elicitation.form); not asking.');
  const answer = await ask(ctx, { sessionId: ctx.sessionId, mode: 'form', message, requestedSchema });
  if (typeof answer === 'string') return say(ctx, answer);
  if (answer.action !== 'accept') return say(ctx, answer.action === 'decline' ? 'You declined the question.' : 'The question was cancelled.');
  const content = 'content' in answer && answer.content ? (answer.content as Record<string, unknown>) : {};
  const lines = Object.entries(content).map(([name, value]) =>
    name === SECRET_FIELD ? `- ${name}: (received, ${typeof value === 'string' ? value.length : 0} characters, not shown)` : `- ${name}: ${JSON.stringify(value)}`,
  );
  await say(ctx, `You answered:\n${lines.join('\n') || '(nothing)'}`);
}

async function elicitUrl(ctx: TurnContext, url: string, completeAfterMs: number): Promise<void> {
  if (!ctx.clientCapabilities?.elicitation?.url) return say(ctx, 'The client does not open pages for the agent (clientCapabilities.elicitation.url); not asking.');
  const elicitationId = randomUUID();
  const answer = await ask(ctx, { sessionId: ctx.sessionId, mode: 'url', elicitationId, url, message: 'Sign in to the demo service to continue.' });
  if (typeof answer === 'string') return say(ctx, answer);
  if (answer.action !== 'accept') return say(ctx, answer.action === 'decline' ? 'You declined to open the page.' : 'The question was cancelled.');
  await say(ctx, `Waiting for the sign-in at ${url} to finish… `);
  await delay(completeAfterMs, ctx.signal);
  if (ctx.signal.aborted) return;
  await ctx.client.notify(acp.methods.client.elicitation.complete, { elicitationId });
  await say(ctx, `Signed in (elicitation/complete sent for ${elicitationId}).`);
}

/** The client's answer, or what went wrong as a sentence. Gives up when the turn is cancelled. */
async function ask(ctx: TurnContext, request: CreateElicitationRequest): Promise<CreateElicitationResponse | string> {
  try {
    return await ctx.client.request(acp.methods.client.elicitation.create, request, { cancellationSignal: ctx.signal });
  } catch (error) {
    return ctx.signal.aborted ? 'The question was withdrawn: the turn was cancelled.' : `The client refused the question: ${failure(error)}`;
  }
}
