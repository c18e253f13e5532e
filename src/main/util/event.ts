/**
 * Change announced by the owner of the state (the shape VS Code's base library made familiar):
 * the owner keeps a private `Emitter<T>` and exposes its `event` as a public
 * `readonly onDidX: Event<T>`; a listener subscribes and gets a `Disposable` that unsubscribes.
 * Callers never tell anyone: whoever changes the state fires, so no write can forget.
 */
import type { Disposable } from './lifecycle';
import { toDisposable } from './lifecycle';

/** Subscribes `listener`; the returned `Disposable` unsubscribes it. */
export type Event<T> = (listener: (value: T) => void) => Disposable;

export interface EmitterOptions {
  /**
   * A listener that throws must not stop the others nor the write that fired: it is reported
   * here (default: rethrown on a later tick, so it still surfaces as an uncaught error).
   */
  onListenerError?: (err: unknown) => void;
}

export class Emitter<T> implements Disposable {
  private listeners: ((value: T) => void)[] = [];
  private disposed = false;

  constructor(private readonly options: EmitterOptions = {}) {}

  /** The subscription function the owner exposes. */
  readonly event: Event<T> = (listener) => {
    if (this.disposed) return toDisposable(() => {});
    // Copy-on-write: a fire in progress keeps iterating the array it started with.
    this.listeners = [...this.listeners, listener];
    return toDisposable(() => {
      this.listeners = this.listeners.filter((l) => l !== listener);
    });
  };

  get hasListeners(): boolean {
    return this.listeners.length > 0;
  }

  fire(value: T): void {
    for (const listener of this.listeners) {
      try {
        listener(value);
      } catch (err) {
        if (this.options.onListenerError) this.options.onListenerError(err);
        else queueMicrotask(() => {
          throw err;
        });
      }
    }
  }

  dispose(): void {
    this.disposed = true;
    this.listeners = [];
  }
}

/** Several disposables disposed together, once; one added after disposal is disposed at once. */
export class DisposableStore implements Disposable {
  private readonly items = new Set<Disposable>();
  private disposed = false;

  add<D extends Disposable>(item: D): D {
    if (this.disposed) item.dispose();
    else this.items.add(item);
    return item;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    const items = [...this.items];
    this.items.clear();
    let failure: unknown;
    for (const item of items) {
      try {
        item.dispose();
      } catch (err) {
        failure ??= err;
      }
    }
    if (failure !== undefined) throw failure;
  }
}

/** An event that fires whenever any of `events` fires. */
export function anyOf<T>(...events: Event<T>[]): Event<T> {
  return (listener) => {
    const store = new DisposableStore();
    for (const event of events) store.add(event(listener));
    return store;
  };
}
