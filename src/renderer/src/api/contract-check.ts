import { z } from 'zod';
import { commandNames, commands, events, WireError, type Api, type CommandName, type EventName, type Result } from '../../../shared/contract';

/**
 * Answers and pushed events are checked against the contract where they arrive, whichever
 * transport brought them (the preload's `window.api` or the WebSocket), so a host bug shows as
 * an error naming the command or event and the field instead of a wrong value deep in the store.
 *
 * On in production too, because it is cheap: `node --import tsx bench/contract-check.ts`
 * (jitless, as in the window; Node 20's V8 on a shared 2-core machine) measured 1.5–3.5 µs per
 * message chunk, 4–10 µs per tool call with its diff or output, so a 200 events/s stream costs
 * 0.3–1.4 ms per second: at most 0.14% of a 60 Hz frame's budget (the bar was 2%). A
 * `sessions:switch` answer takes 30–50 µs, a 200-event `transcript:page` about 0.3 ms (twice
 * the `JSON.parse` of its frame), once per switch or page.
 */

/** Where refused answers and events are reported, after they were logged. */
export interface ContractMonitor {
  onViolation(listener: (error: WireError) => void): () => void;
}

export interface CheckedApi {
  api: Api;
  contract: ContractMonitor;
}

/** The wrapper every answer has; its `value` is checked against the command's own schema. */
const AnswerShape = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), value: z.unknown() }),
  z.object({ ok: z.literal(false), error: WireError }),
]);

type Path = readonly PropertyKey[];

/** `events[3].payload.text`, as a person reads a field's place. */
export function fieldPath(path: Path): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out;
}

const SHOWN_ISSUES = 3;

/** The `contract_violation` error for `what` (an answer or an event) that failed its schema. */
export function contractViolation(what: string, error: z.ZodError): WireError {
  const issues = error.issues.map((i) => ({
    path: i.path.map((key) => (typeof key === 'symbol' ? String(key) : key)),
    message: i.message,
  }));
  const shown = issues.slice(0, SHOWN_ISSUES).map((i) => `${i.path.length > 0 ? fieldPath(i.path) : 'the value itself'}: ${i.message}`);
  const more = issues.length > SHOWN_ISSUES ? ` (and ${issues.length - SHOWN_ISSUES} more)` : '';
  return {
    code: 'contract_violation',
    message: `${what} does not match the contract: ${shown.join('; ')}${more}`,
    details: { issues },
  };
}

/** The answer as the contract types it, or the violation it is (reported). */
function checkAnswer(name: CommandName, answer: unknown, report: (error: WireError) => void): Result<unknown> {
  const refuse = (error: z.ZodError): Result<never> => {
    const violation = contractViolation(`The answer to ${name}`, error);
    report(violation);
    return { ok: false, error: violation };
  };
  const shape = AnswerShape.safeParse(answer);
  if (!shape.success) return refuse(shape.error);
  if (!shape.data.ok) return shape.data;
  const value = commands[name].res.safeParse(shape.data.value);
  return value.success ? { ok: true, value: value.data } : refuse(value.error);
}

function logViolation(error: WireError): void {
  console.error(`[switchboard] ${error.message}`, error.details?.issues);
}

type RawCommand = (req: unknown) => Promise<unknown>;

/**
 * `raw` checked: each command's answer is parsed with `commands[name].res` (a mismatch becomes
 * a `contract_violation` answer), each event payload with `events[name]` (a mismatch is dropped,
 * so it never reaches the store). Both are logged and reported to the monitor.
 */
export function checkApi(raw: Api, log: (error: WireError) => void = logViolation): CheckedApi {
  const listeners = new Set<(error: WireError) => void>();
  const report = (error: WireError): void => {
    log(error);
    for (const l of [...listeners]) l(error);
  };
  const commandsOf = raw as unknown as Record<CommandName, RawCommand>;
  const api: Record<string, unknown> = {
    on: (event: EventName, listener: (payload: unknown) => void) => {
      const schema: z.ZodType = events[event];
      return raw.on(event, (payload: unknown) => {
        const parsed = schema.safeParse(payload);
        if (parsed.success) listener(parsed.data);
        else report(contractViolation(`The event ${event}`, parsed.error));
      });
    },
    onReconnect: (listener: () => void) => raw.onReconnect(listener),
  };
  for (const name of commandNames) {
    api[name] = async (req: unknown) => checkAnswer(name, await commandsOf[name](req), report);
  }
  return {
    api: api as unknown as Api,
    contract: {
      onViolation(listener) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    },
  };
}
