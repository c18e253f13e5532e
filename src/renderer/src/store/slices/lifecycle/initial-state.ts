/** The last sign-in asked from this window: its progress and result, shown in the sign-in panel. */
interface SignInAttempt {
  sessionId: string;
  methodId: string;
  status: 'running' | 'done' | 'failed';
  /** The host's answer ("Signed in with …") or the agent's error, as sent. */
  message?: string;
}

export interface LifecycleState {
  signIn: SignInAttempt | undefined;
  /** The session whose name is being edited in the header (Rename), if any. */
  renamingSessionId: string | undefined;
  /** The session whose Delete waits for the person's confirmation, if any. */
  deleteAskedFor: string | undefined;
  /** The session whose `Export…` asks which format, if any. */
  exportAskedFor: string | undefined;
  /**
   * The sessions the sidebar shows, top to bottom, as shown (filtered, collapsed groups left
   * out, held still under the pointer): what session 1–9 and next/previous go by.
   */
  sidebarVisible: readonly string[];
}

export const lifecycleInitialState: LifecycleState = {
  signIn: undefined,
  renamingSessionId: undefined,
  deleteAskedFor: undefined,
  exportAskedFor: undefined,
  sidebarVisible: [],
};
