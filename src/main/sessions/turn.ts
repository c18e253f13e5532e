/**
 * `running` until Stop (`cancelling`: the agent was asked to cancel and its answer is still
 * awaited) or a close (`closed`: the close recorded the turn's end; nobody else may).
 */
export type TurnState = 'running' | 'cancelling' | 'closed';

/**
 * One prompt turn in flight. Its state only moves forward (running → cancelling → closed) and
 * only through these methods; `abandoned` resolves when the host stops waiting for the agent.
 */
export class Turn {
  /** Resolves once the host stops waiting for the agent's answer (Stop ignored, or a close). */
  readonly abandoned: Promise<'abandoned'>;
  private current: TurnState = 'running';
  private resolveAbandoned!: (value: 'abandoned') => void;
  private readonly stopWaiting = new AbortController();

  /**
   * @param startedAt when the prompt began its turn (host time): from the moment it left the
   *   queue, so the time its agent took to start counts.
   */
  constructor(
    readonly clientMessageId: string,
    readonly startedAt = 0,
  ) {
    this.abandoned = new Promise((resolve) => (this.resolveAbandoned = resolve));
  }

  get state(): TurnState {
    return this.current;
  }

  /** Stop or close asked the agent to cancel: an error now ends the turn `cancelled`. */
  get cancelled(): boolean {
    return this.current !== 'running';
  }

  /** A close ended this turn and recorded its end. */
  get closed(): boolean {
    return this.current === 'closed';
  }

  /** Stop was pressed. */
  cancel(): void {
    if (this.current === 'running') this.current = 'cancelling';
  }

  /** A close ended the turn (and recorded it): stop waiting for the agent at once. */
  closeByHost(): void {
    this.current = 'closed';
    this.abandon();
  }

  /** Aborts once the host stops waiting: the prompt request is then cancelled on the wire too. */
  get signal(): AbortSignal {
    return this.stopWaiting.signal;
  }

  /** Stops waiting for an agent that ignored `session/cancel`. Idempotent. */
  abandon(): void {
    this.resolveAbandoned('abandoned');
    this.stopWaiting.abort();
  }
}
