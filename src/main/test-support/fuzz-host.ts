/**
 * One real `switchboard serve` per fuzz file, reused across cases, with a window (`observer`)
 * that stays connected the whole time: after each case the process must be alive and that
 * window must still get answers.
 */
import { tempDir } from './temp-dir';
import { agentFootprint, killAll } from './processes';
import { startServe, WsClient, type ServeProcess } from './serve-process';

export interface FuzzHost {
  page: URL;
  serve: ServeProcess;
  dataDir: string;
  /** A window connected before the first case; it must be served after every case. */
  observer: WsClient;
  /** Throws (with the host's stderr) if the host exited or stopped answering the observer. */
  healthy(): Promise<void>;
  stop(): Promise<void>;
}

const ANSWER_WITHIN_MS = 10_000;

export async function startFuzzHost(env: NodeJS.ProcessEnv = {}): Promise<FuzzHost> {
  const dir = tempDir('switchboard-fuzz-');
  const serve = startServe(['serve', '--port', '0', '--data-dir', dir.path], env);
  const page = await serve.ready;
  const observer = await WsClient.connect(page);
  const died = serve.exited.then((e) => {
    throw new Error(`the host exited (code ${e.code}, signal ${e.signal}):\n${serve.stderr().slice(-4000)}`);
  });
  died.catch(() => {});
  return {
    page,
    serve,
    dataDir: dir.path,
    observer,
    async healthy() {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`the observer got no answer to host:info within ${ANSWER_WITHIN_MS} ms`)), ANSWER_WITHIN_MS);
      });
      try {
        await Promise.race([observer.call('host:info', {}), died, late]);
      } finally {
        clearTimeout(timer);
      }
    },
    async stop() {
      observer.close();
      if (serve.child.exitCode === null && serve.child.signalCode === null) {
        serve.child.kill('SIGTERM');
        await serve.exited;
      }
      killAll(agentFootprint(dir.path));
      dir.cleanup();
    },
  };
}
