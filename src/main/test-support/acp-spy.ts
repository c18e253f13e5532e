import type * as acp from '@agentclientprotocol/sdk';
import { vi } from 'vitest';
import { Broker } from '../brokers/broker';
import type { BrokerPool } from '../brokers/broker-pool';
import type { SessionEventT } from '../../shared/contract';

type Method = acp.AgentRequestMethod;

/** Watches every ACP request the host sends (all brokers). Undone by `vi.restoreAllMocks()`. */
export interface AcpSpy {
  /** Requests of `method` sent so far. */
  count(method: Method): number;
  /** Resolves with the params of the next request of `method` sent from now on. */
  next(method: Method): Promise<unknown>;
  /** Runs `fn` as each request of `method` is about to be sent. */
  onSend(method: Method, fn: (broker: Broker, params: Record<string, unknown>) => void): void;
  /** Requests of `method` fail with `error` and never reach the agent. */
  fail(method: Method, error: Error): void;
}

export function spyAcp(): AcpSpy {
  const original = Broker.prototype.request;
  const sent: Method[] = [];
  const waiters: { method: Method; resolve(params: unknown): void }[] = [];
  const hooks: { method: Method; fn(broker: Broker, params: Record<string, unknown>): void }[] = [];
  const failures = new Map<Method, Error>();
  vi.spyOn(Broker.prototype, 'request').mockImplementation(function (this: Broker, method: Method, params: unknown, timeoutMs?: number) {
    sent.push(method);
    for (const hook of hooks) if (hook.method === method) hook.fn(this, params as Record<string, unknown>);
    for (const waiter of waiters.filter((w) => w.method === method)) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve(params);
    }
    const failure = failures.get(method);
    if (failure) return Promise.reject(failure);
    return (original as (m: Method, p: unknown, t?: number) => Promise<unknown>).call(this, method, params, timeoutMs);
  } as typeof original);
  return {
    count: (method) => sent.filter((m) => m === method).length,
    next: (method) => new Promise((resolve) => waiters.push({ method, resolve })),
    onSend: (method, fn) => void hooks.push({ method, fn }),
    fail: (method, error) => void failures.set(method, error),
  };
}

/** Makes every broker the pool hands out report `capabilities` (an agent without resume, say). */
export function overrideCapabilities(pool: BrokerPool, capabilities: acp.AgentCapabilities): void {
  const acquire = pool.acquire.bind(pool);
  vi.spyOn(pool, 'acquire').mockImplementation(async (...args: Parameters<BrokerPool['acquire']>) => {
    const broker = await acquire(...args);
    broker.capabilities = capabilities;
    return broker;
  });
}

/**
 * Every prompt (user_message) has exactly one recorded end (turn_ended with its client
 * message id), and no turn_started is left open: nothing is left "running".
 */
export function unansweredPrompts(events: readonly SessionEventT[]): string[] {
  const problems: string[] = [];
  const prompts = events.filter((e) => e.kind === 'user_message').map((e) => String(e.payload.clientMessageId));
  for (const id of prompts) {
    const ends = events.filter((e) => e.kind === 'turn_ended' && e.payload.clientMessageId === id).length;
    const starts = events.filter((e) => e.kind === 'turn_started' && e.payload.clientMessageId === id).length;
    if (ends !== 1) problems.push(`${id}: ${ends} ends`);
    if (starts > 1) problems.push(`${id}: ${starts} starts`);
  }
  return problems;
}

export function deferred<T = void>(): { promise: Promise<T>; resolve(value: T): void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}
