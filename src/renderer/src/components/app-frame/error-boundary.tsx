import { Component, type ErrorInfo, type ReactNode } from 'react';

interface Props {
  children: ReactNode;
  /** What failed, for the message (e.g. "this session"). */
  what?: string;
}

interface State {
  error: Error | undefined;
}

/** A render error shows a message and a way out, never a blank window. */
export class ErrorBoundary extends Component<Props, State> {
  override state: State = { error: undefined };

  static getDerivedStateFromError(error: unknown): State {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error('[switchboard] render failed', error, info.componentStack);
  }

  override render(): ReactNode {
    const { error } = this.state;
    if (!error) return this.props.children;
    return (
      <div className="crash" role="alert">
        <h2>Something went wrong showing {this.props.what ?? 'the window'}.</h2>
        <pre className="crash-message">{error.message}</pre>
        <button type="button" className="button-primary" onClick={() => window.location.reload()}>
          Reload
        </button>
      </div>
    );
  }
}
