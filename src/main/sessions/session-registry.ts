import { AppError } from '../../shared/errors';
import { Emitter, type Event } from '../util/event';
import type { LiveSession } from './live-session';

/**
 * The live sessions, by Switchboard session id, and one work queue per session so a second
 * prompt while a session starts waits for it (never starting a second agent session).
 * Nothing here outlives the live session: no per-session memory for sessions at rest.
 */
export class SessionRegistry {
  private readonly live = new Map<string, LiveSession>();
  private readonly queues = new Map<string, { tail: Promise<void>; depth: number }>();
  private readonly didChange = new Emitter<string>();
  /** A session became live or stopped being live (its view's running and capabilities follow). */
  readonly onDidChange: Event<string> = this.didChange.event;

  add(session: LiveSession): void {
    if (this.live.has(session.id)) throw new AppError('already_exists', `Session ${session.id} is already live`);
    this.live.set(session.id, session);
    this.didChange.fire(session.id);
  }

  get(id: string): LiveSession | undefined {
    return this.live.get(id);
  }

  has(id: string): boolean {
    return this.live.has(id);
  }

  /** Removes `session` if it is still the live one for its id. */
  remove(session: LiveSession): boolean {
    if (this.live.get(session.id) !== session) return false;
    this.live.delete(session.id);
    this.didChange.fire(session.id);
    return true;
  }

  all(): LiveSession[] {
    return [...this.live.values()];
  }

  get size(): number {
    return this.live.size;
  }

  /** Runs `work` after everything queued before it for this session. */
  enqueue<T>(id: string, work: () => Promise<T>): Promise<T> {
    const queue = this.queues.get(id) ?? { tail: Promise.resolve(), depth: 0 };
    queue.depth++;
    const result = queue.tail.then(work);
    queue.tail = result.then(
      () => this.settle(id, queue),
      () => this.settle(id, queue),
    );
    this.queues.set(id, queue);
    return result;
  }

  /** Work queued or running for a session (prompts waiting count as busy). */
  queued(id: string): number {
    return this.queues.get(id)?.depth ?? 0;
  }

  private settle(id: string, queue: { depth: number }): void {
    queue.depth--;
    if (queue.depth === 0 && this.queues.get(id) === queue) this.queues.delete(id);
  }
}
