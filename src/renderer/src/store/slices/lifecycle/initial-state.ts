/** The last sign-in asked from this window: its progress and result, shown in the sign-in panel. */
export interface SignInAttempt {
  sessionId: string;
  methodId: string;
  status: 'running' | 'done' | 'failed';
  /** The host's answer ("Signed in with …") or the agent's error, as sent. */
  message?: string;
}

export interface LifecycleState {
  signIn: SignInAttempt | undefined;
}

export const lifecycleInitialState: LifecycleState = {
  signIn: undefined,
};
