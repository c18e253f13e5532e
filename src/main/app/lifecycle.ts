/**
 * Quitting: however it starts (last window closed, Quit, Cmd+Q, SIGINT/SIGTERM), the host shuts
 * down first — turns cancelled, partial output kept, no agent process left — then the app exits.
 * The shutdown is capped so a stuck agent can never keep the app from quitting.
 */
import type { Logger } from '../util/log';

export const SHUTDOWN_CAP_MS = 5000;

/** Electron's `app`, as far as quitting goes. */
export interface QuitApp {
  on(event: 'before-quit', listener: (event: { preventDefault(): void }) => void): unknown;
  quit(): void;
  exit(exitCode?: number): void;
}

export interface QuitOptions {
  app: QuitApp;
  /** Stops the host (and anything else that must end before exit). Idempotent. */
  shutdown(): Promise<void>;
  log: Logger;
  capMs?: number;
  signals?: readonly NodeJS.Signals[];
  proc?: Pick<NodeJS.Process, 'on'>;
}

export type QuitPhase = 'running' | 'stopping' | 'stopped';

/** Installs the quit sequence; returns the current phase for logs and tests. */
export function installQuitHandling(options: QuitOptions): () => QuitPhase {
  const { app, log } = options;
  const capMs = options.capMs ?? SHUTDOWN_CAP_MS;
  let phase: QuitPhase = 'running';

  const stop = async (): Promise<number> => {
    let timer: NodeJS.Timeout | undefined;
    const cap = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), capMs);
    });
    try {
      const outcome = await Promise.race([options.shutdown().then(() => 'done' as const), cap]);
      if (outcome === 'timeout') {
        log.error('shutdown did not finish in time; exiting anyway', { capMs });
        return 1;
      }
      return 0;
    } catch (err) {
      log.error('shutdown failed', { error: String(err) });
      return 1;
    } finally {
      clearTimeout(timer);
    }
  };

  app.on('before-quit', (event) => {
    // app.exit() below does not emit before-quit again; this guards a second Quit meanwhile.
    event.preventDefault();
    if (phase !== 'running') return;
    phase = 'stopping';
    log.info('quitting: shutting the host down');
    void stop().then((code) => {
      phase = 'stopped';
      app.exit(code);
    });
  });

  // A repeated signal is ignored rather than forcing an exit: a terminal's Ctrl+C reaches both
  // `npm start` (which forwards it) and Electron, and the cap above already bounds the wait.
  const proc = options.proc ?? process;
  for (const signal of options.signals ?? (['SIGINT', 'SIGTERM'] as const)) {
    proc.on(signal, () => {
      log.info('signal received: quitting', { signal });
      app.quit();
    });
  }
  return () => phase;
}
