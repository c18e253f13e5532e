/**
 * One queue per checkout (keyed by its top folder): git operations on one checkout run one
 * after another (a restore never runs while a Changes refresh reads, two checkpoints never share
 * a moment), while different checkouts, and different worktrees of one repository, run side by
 * side (ADR 0020: each has its own index; git locks refs one by one). Nothing is kept for a
 * checkout with nothing queued.
 */
export class CheckoutQueue {
  private readonly queues = new Map<string, { tail: Promise<void>; depth: number }>();

  /** Runs `work` after everything queued before it on `checkout`; its result or failure is the caller's. */
  run<T>(checkout: string, work: () => Promise<T>): Promise<T> {
    const queue = this.queues.get(checkout) ?? { tail: Promise.resolve(), depth: 0 };
    queue.depth++;
    const result = queue.tail.then(work);
    const settle = (): void => {
      queue.depth--;
      if (queue.depth === 0 && this.queues.get(checkout) === queue) this.queues.delete(checkout);
    };
    queue.tail = result.then(settle, settle);
    this.queues.set(checkout, queue);
    return result;
  }

  /** Operations queued or running on `checkout`. */
  depth(checkout: string): number {
    return this.queues.get(checkout)?.depth ?? 0;
  }

  /** Resolves once everything queued so far on every checkout is done (quit waits for it). */
  async idle(): Promise<void> {
    while (this.queues.size > 0) await Promise.all([...this.queues.values()].map((q) => q.tail));
  }
}
