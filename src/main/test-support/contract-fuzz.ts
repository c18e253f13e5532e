/**
 * Requests for every command of the contract, generated from the command table: the command's
 * own fields with right, wrong and hostile values, random JSON, unknown command names. Both
 * transports' fuzz tests (WebSocket, Electron IPC) use it.
 */
import fc from 'fast-check';
import { commandNames, commands } from '../../shared/contract';

/** The field names a command's request schema declares (none for a non-object schema). */
export function requestFields(command: string): string[] {
  if (!Object.hasOwn(commands, command)) return [];
  const schema = commands[command as keyof typeof commands].req as { shape?: Record<string, unknown> };
  return schema.shape ? Object.keys(schema.shape) : [];
}

export interface RequestPools {
  /** Session ids that exist in the host under test (so some requests reach a handler). */
  sessionIds: readonly string[];
  /** A folder the host may use as a session's working folder. */
  workDir: string;
}

/** Prompts the demo agent acts on (permission requests, tool calls, a hang, a crash). */
const DEMO_PROMPTS = ['/permission', '/tool', '/plan', '/hang', '/crash', '/title fuzzed', '/history', '/ext', '/slow 1', 'hello'];

const numbers = fc.oneof(fc.integer(), fc.constantFrom(0, -1, 1, 1.5, -0, 1e308, -1e308, 2 ** 53, 2 ** 31, 199, 200, 1000, 1001, 5000, 5001));

/** One value for field `key`: mostly plausible, often the wrong type, sometimes hostile. */
function fieldValue(key: string, pools: RequestPools): fc.Arbitrary<unknown> {
  const plausible: fc.Arbitrary<unknown>[] = [fc.uuid(), fc.constantFrom('', 'x', 'demo', 'no-such-agent', 'demo-login')];
  if (pools.sessionIds.length > 0) plausible.push(fc.constantFrom(...pools.sessionIds));
  if (key === 'text') plausible.push(fc.constantFrom(...DEMO_PROMPTS));
  if (key === 'cwd' || key === 'defaultCwd') plausible.push(fc.constantFrom(pools.workDir, '/nonexistent/switchboard-fuzz', 'relative', '..'));
  // Never a real program: `agents:save` followed by `agents:test` would run it.
  const strings = key === 'command' ? fc.constantFrom('/nonexistent/switchboard-fuzz-agent', ' ', 'switchboard-no-such-program') : fc.string({ maxLength: 40 });
  return fc.oneof(
    { weight: 4, arbitrary: fc.oneof(...plausible) },
    { weight: 2, arbitrary: strings },
    { weight: 2, arbitrary: numbers },
    { weight: 1, arbitrary: fc.boolean() },
    { weight: 1, arbitrary: fc.constant(null) },
    { weight: 1, arbitrary: fc.array(fc.oneof(fc.string({ maxLength: 8 }), fc.record({ name: fc.string({ maxLength: 8 }), value: fc.string({ maxLength: 8 }), secret: fc.boolean() })), { maxLength: 3 }) },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
    { weight: 1, arbitrary: fc.constantFrom('\u0000', '\ud800', 'é'.repeat(5000), '../../../../etc/passwd', '__proto__') },
  );
}

/** A value of the right type for field `key`, as a window would send it (often naming real things). */
function plausibleValue(key: string, pools: RequestPools): fc.Arbitrary<unknown> {
  const sessionId = pools.sessionIds.length > 0 ? fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...pools.sessionIds) }, fc.uuid()) : fc.uuid();
  const byKey: Record<string, fc.Arbitrary<unknown>> = {
    sessionId,
    fromSessionId: sessionId,
    id: fc.oneof(sessionId, fc.constantFrom('fuzz-agent', 'demo')),
    clientMessageId: fc.uuid(),
    text: fc.oneof(fc.constantFrom(...DEMO_PROMPTS), fc.string({ minLength: 1, maxLength: 40 })),
    agentId: fc.constantFrom('demo', 'fuzz-agent', 'no-such-agent'),
    defaultAgentId: fc.constantFrom('demo', 'fuzz-agent', 'no-such-agent'),
    cwd: fc.constantFrom(pools.workDir, '/nonexistent/switchboard-fuzz'),
    defaultCwd: fc.constant(pools.workDir),
    limit: fc.integer({ min: 1, max: 1000 }),
    beforeSeq: fc.integer({ min: 1, max: 50 }),
    afterSeq: fc.integer({ min: 0, max: 50 }),
    requestId: fc.constantFrom('1', '0', 'perm-1', 'x'),
    optionId: fc.constantFrom('allow', 'allow_once', 'reject', 'reject_once', 'x'),
    ruleId: fc.constantFrom('1', 'rule-1', 'x'),
    methodId: fc.constantFrom('demo-login', 'demo-api-key', 'demo-terminal-login', 'x'),
    value: fc.constantFrom('fuzz-secret', 'x'),
    name: fc.constantFrom('Fuzz agent', ' '),
    command: fc.constantFrom('/nonexistent/switchboard-fuzz-agent'),
    args: fc.array(fc.string({ maxLength: 8 }), { maxLength: 3 }),
    env: fc.array(fc.record({ name: fc.constantFrom('FUZZ_A', 'FUZZ_B', '1BAD'), value: fc.string({ maxLength: 8 }), secret: fc.boolean() }), { maxLength: 2 }),
    idleTimeoutMs: fc.constantFrom(0, 60_000, 3_600_000),
    reapIntervalMs: fc.constantFrom(0, 1_000, 60_000),
    permissionTimeoutMs: fc.constantFrom(0, 1_000, 60_000),
    maxSessionsPerBroker: fc.integer({ min: 1, max: 8 }),
  };
  return byKey[key] ?? fc.oneof(fc.boolean(), fc.string({ maxLength: 8 }), fc.nat(100));
}

/** A field's schema accepts a missing value. */
function optional(command: string, key: string): boolean {
  const schema = commands[command as keyof typeof commands].req as unknown as { shape: Record<string, { safeParse(v: unknown): { success: boolean } }> };
  return schema.shape[key]?.safeParse(undefined).success ?? true;
}

/**
 * A payload for `command`: mostly well typed (every required field, some optional ones, values
 * that name real sessions and agents) so requests reach the handlers; else its own fields with
 * wrong and hostile values and keys it does not know; else any JSON at all.
 */
export function payloadFor(command: string, pools: RequestPools): fc.Arbitrary<unknown> {
  const own = requestFields(command);
  const required = own.filter((k) => !optional(command, k));
  const wellTyped = fc
    .subarray(own.filter((k) => !required.includes(k)))
    .chain((extra) => {
      const keys = [...required, ...extra];
      return fc.tuple(...keys.map((k) => plausibleValue(k, pools))).map((values) => fromEntries(keys, values));
    });
  const keys = [...own, 'extra', '__proto__', 'constructor'];
  const wrong = fc
    .uniqueArray(fc.constantFrom(...keys), { maxLength: keys.length })
    .chain((chosen) => fc.tuple(...chosen.map((k) => fieldValue(k, pools))).map((values) => fromEntries(chosen, values)));
  return fc.oneof(
    { weight: 5, arbitrary: wellTyped },
    { weight: 4, arbitrary: wrong },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );
}

/** An object with own properties for every key, `__proto__` included (as JSON.parse makes it). */
function fromEntries(keys: readonly string[], values: readonly unknown[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  keys.forEach((k, i) => Object.defineProperty(out, k, { value: values[i], enumerable: true, writable: true, configurable: true }));
  return out;
}

/** A command name: every one of the contract's, and names that are not commands. */
export const commandName = fc.oneof(
  { weight: 10, arbitrary: fc.constantFrom(...commandNames) },
  { weight: 1, arbitrary: fc.constantFrom('', 'host:infox', '__proto__', 'constructor', 'toString', 'hasOwnProperty', 'sessions:', 'x'.repeat(300)) },
);

/** A command and a payload for it. */
export function contractRequest(pools: RequestPools): fc.Arbitrary<{ command: string; payload: unknown }> {
  return commandName.chain((command) => payloadFor(command, pools).map((payload) => ({ command, payload })));
}
