import type {
  Api,
  CommandName,
  CommandRequest,
  CommandResponse,
  EventName,
  EventPayload,
  Result,
  EventOf,
  SessionEventT,
  SessionViewT,
} from '../../../shared/contract';
import type { StoreDeps } from '../store/deps';

type Handler<C extends CommandName> = (req: CommandRequest<C>) => Result<CommandResponse<C>> | Promise<Result<CommandResponse<C>>>;

/** An in-memory host: tests script each command and push events by hand. */
export class FakeApi {
  readonly calls: { command: CommandName; req: unknown }[] = [];
  private readonly handlers = new Map<CommandName, Handler<never>>();
  private readonly listeners = new Map<string, Set<(p: unknown) => void>>();
  private readonly reconnectListeners = new Set<() => void>();
  readonly api: Api;

  constructor() {
    const api: Record<string, unknown> = {
      on: (event: string, l: (p: unknown) => void) => {
        const set = this.listeners.get(event) ?? new Set();
        this.listeners.set(event, set);
        set.add(l);
        return () => set.delete(l);
      },
      onReconnect: (l: () => void) => {
        this.reconnectListeners.add(l);
        return () => this.reconnectListeners.delete(l);
      },
    };
    this.api = new Proxy(api, {
      get: (target, prop: string) =>
        prop in target
          ? target[prop]
          : async (req: unknown) => {
              this.calls.push({ command: prop as CommandName, req });
              const h = this.handlers.get(prop as CommandName);
              if (!h) return { ok: false, error: { code: 'unknown_command', message: prop } };
              return h(req as never);
            },
    }) as unknown as Api;
  }

  handle<C extends CommandName>(command: C, handler: Handler<C>): this {
    this.handlers.set(command, handler as unknown as Handler<never>);
    return this;
  }

  emit<E extends EventName>(event: E, payload: EventPayload<E>): void {
    for (const l of this.listeners.get(event) ?? []) l(payload);
  }

  reconnect(): void {
    for (const l of this.reconnectListeners) l();
  }

  callsOf(command: CommandName): unknown[] {
    return this.calls.filter((c) => c.command === command).map((c) => c.req);
  }
}

export function deferred<T>(): { promise: Promise<T>; resolve: (v: T) => void } {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

export const SID = '11111111-1111-4111-8111-111111111111';
export const SID2 = '22222222-2222-4222-8222-222222222222';

export function view(over: Partial<SessionViewT> = {}): SessionViewT {
  return {
    id: SID,
    agentId: 'demo',
    cwd: '/tmp/work',
    title: 'Session one',
    state: 'ACTIVE',
    running: false,
    pendingPermissions: 0,
    pendingQuestions: 0,
    lastSeq: 0,
    createdAt: 1,
    updatedAt: 1,
    lastActivityAt: 1,
    additionalDirs: [],
    ...over,
  };
}

/** A stored event; the overloads keep each kind with its own payload type. */
export function ev(seq: number): SessionEventT;
export function ev<K extends SessionEventT['kind']>(seq: number, kind: K, payload: EventOf<K>['payload'], sessionId?: string): SessionEventT;
export function ev(seq: number, kind: SessionEventT['kind'] = 'agent_message', payload: unknown = { text: `t${seq}` }, sessionId = SID): SessionEventT {
  return { sessionId, seq, kind, payload, at: seq } as SessionEventT;
}

export function range(from: number, to: number, sessionId = SID): SessionEventT[] {
  const out: SessionEventT[] = [];
  for (let s = from; s <= to; s++) out.push(ev(s, 'agent_message', { text: `t${s}` }, sessionId));
  return out;
}

let idCounter = 0;
export function testDeps(fake: FakeApi, over: Partial<StoreDeps> = {}): StoreDeps & { saved: string[] } {
  const saved: string[] = [];
  return {
    api: fake.api,
    newId: () => `00000000-0000-4000-8000-${String(++idCounter).padStart(12, '0')}`,
    lastSession: { get: () => saved[saved.length - 1], set: (id) => void saved.push(id) },
    saved,
    ...over,
  };
}

/** Lets every queued promise continuation run. */
export async function flush(): Promise<void> {
  for (let i = 0; i < 10; i++) await new Promise<void>((r) => setTimeout(r, 0));
}
