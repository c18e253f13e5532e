import { randomUUID } from 'node:crypto';
import type { EventName, EventPayload } from '../../shared/contract';
import type { Watchers } from '../sessions/watchers';
import type { ClientSink } from './host-port';

/**
 * The windows connected to the host (Electron windows, browser tabs), by client id, and the
 * three ways an event reaches them: to one window, to every window, to the windows watching
 * a session.
 */
export class Clients {
  private readonly sinks = new Map<string, ClientSink>();
  /** Runs before any frame leaves for a window (the session views still pending go first). */
  private beforeSend: () => void = () => {};

  constructor(private readonly watchers: Watchers) {}

  /** `hook` runs before every frame this sends (a command's answer is not one: `SessionHost.dispatch` flushes before it). */
  setBeforeSend(hook: () => void): void {
    this.beforeSend = hook;
  }

  add(sink: ClientSink): string {
    const id = randomUUID();
    this.sinks.set(id, sink);
    return id;
  }

  remove(clientId: string): void {
    this.sinks.delete(clientId);
  }

  has(clientId: string): boolean {
    return this.sinks.has(clientId);
  }

  get size(): number {
    return this.sinks.size;
  }

  /** The window's label for the transcript ("window 2"). */
  label(clientId: string): string {
    return this.sinks.get(clientId)?.label ?? 'a window';
  }

  send<E extends EventName>(clientId: string, event: E, payload: EventPayload<E>): void {
    this.beforeSend();
    this.sinks.get(clientId)?.send(event, payload);
  }

  broadcast<E extends EventName>(event: E, payload: EventPayload<E>): void {
    this.beforeSend();
    for (const sink of this.sinks.values()) sink.send(event, payload);
  }

  toWatchers<E extends EventName>(sessionId: string, event: E, payload: EventPayload<E>): void {
    this.beforeSend();
    for (const clientId of this.watchers.clientsOf(sessionId)) this.sinks.get(clientId)?.send(event, payload);
  }
}
