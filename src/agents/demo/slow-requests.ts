/**
 * Requests the client cancels, and requests that take long enough for a client to give up.
 *
 * `--slow METHOD=MS[,METHOD=MS…]` (tests; also `SWITCHBOARD_DEMO_SLOW`): the agent waits `MS`
 * before it answers METHOD (`initialize`, `authenticate`, `session/new`, `session/load`,
 * `session/resume`, `session/fork`, `session/list`, `session/close`), like agents that start
 * slowly or wait on a network. A client that stops waiting should send `$/cancel_request`; the
 * wait then ends at once and the request answers -32800. Except `session/close`: once begun it
 * finishes (the session is gone after MS, cancelled or not), as agents do that do not stop a
 * close halfway (`closeSlowly`).
 *
 * A slow request says so on stderr as it begins to wait (`demo-agent: answering METHOD in MS
 * ms`), so a test knows the request arrived. Every request the client cancels with `$/cancel_request`, slow or not, is reported on stderr
 * (`demo-agent: cancelled METHOD ($/cancel_request)`) whatever the log level, so the Agent log
 * and tests see that the cancel arrived. A closed connection aborts the same signals with
 * another reason and is not reported.
 */
import * as acp from '@agentclientprotocol/sdk';
import { delay } from './abortable';

export const SLOW_ENV = 'SWITCHBOARD_DEMO_SLOW';
export const SLOW_METHODS = ['initialize', 'authenticate', 'session/new', 'session/load', 'session/resume', 'session/fork', 'session/list', 'session/close'] as const;
/** The line written as a slow request begins to wait. */
export const slowLine = (method: string, ms: number): string => `demo-agent: answering ${method} in ${ms} ms`;
/** The line written for each cancelled request. */
export const cancelledLine = (method: string): string => `demo-agent: cancelled ${method} ($/cancel_request)`;

/** Parses `METHOD=MS,…`; an unknown method or a bad number is an error (a test's typo must not pass silently). */
export function parseSlow(value: string | undefined): ReadonlyMap<string, number> {
  const slow = new Map<string, number>();
  for (const part of (value ?? '').split(',').map((p) => p.trim()).filter(Boolean)) {
    const at = part.lastIndexOf('=');
    const method = part.slice(0, at);
    const ms = Number(part.slice(at + 1));
    if (at <= 0 || !(SLOW_METHODS as readonly string[]).includes(method)) throw new Error(`--slow: unknown method in "${part}" (one of ${SLOW_METHODS.join(', ')})`);
    if (!Number.isInteger(ms) || ms < 0) throw new Error(`--slow: "${part}" needs a whole number of milliseconds`);
    slow.set(method, ms);
  }
  return slow;
}

/** True when `signal` was aborted by the client's `$/cancel_request` (not by a closed connection). */
export function cancelledByClient(signal: AbortSignal): boolean {
  return signal.aborted && signal.reason instanceof acp.RequestError && signal.reason.code === -32800;
}

/** Reports on stderr when the client cancels the request `method` whose handler got `signal`. */
export function reportCancel(method: string, signal: AbortSignal, write: (line: string) => void): void {
  const report = (): void => {
    if (cancelledByClient(signal)) write(cancelledLine(method));
  };
  if (signal.aborted) report();
  else signal.addEventListener('abort', report, { once: true });
}

/**
 * Waits as `--slow` asks before answering `method`; a request the client cancels meanwhile
 * answers -32800 (`RequestError.requestCancelled`). Reports the cancel either way.
 */
export async function answerSlowly(slow: ReadonlyMap<string, number>, method: string, signal: AbortSignal, write: (line: string) => void): Promise<void> {
  reportCancel(method, signal, write);
  const ms = slow.get(method);
  if (ms) {
    write(slowLine(method, ms));
    await delay(ms, signal);
  }
  if (signal.aborted) throw acp.RequestError.requestCancelled({ method });
}

/**
 * Waits as `--slow session/close=MS` asks, and does not stop for a `$/cancel_request`: the
 * close it precedes still happens (reported as any cancel is).
 */
export async function closeSlowly(slow: ReadonlyMap<string, number>, signal: AbortSignal, write: (line: string) => void): Promise<void> {
  reportCancel('session/close', signal, write);
  const ms = slow.get('session/close');
  if (!ms) return;
  write(slowLine('session/close', ms));
  await new Promise((resolve) => setTimeout(resolve, ms));
}
