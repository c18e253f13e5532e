/**
 * The host's lifecycle vocabulary, after VS Code's: a part that holds resources (timers,
 * processes, files, handles) is `Disposable`, and `dispose()` is idempotent, so quit and error
 * paths may both call it. Events are `onDid…` (it happened) / `onWill…` (it is about to), and
 * subscribing returns a `Disposable` that unsubscribes.
 */
export interface Disposable {
  dispose(): void;
}

/** A `Disposable` that runs `fn` once, however often it is disposed. */
export function toDisposable(fn: () => void): Disposable {
  let done = false;
  return {
    dispose: () => {
      if (done) return;
      done = true;
      fn();
    },
  };
}
