/**
 * `switchboard serve`: the session host in plain Node, serving the renderer to a browser over
 * the same contract. Never imports Electron.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isAppError } from '../shared/errors';
import { runDataCommand } from './cli/run-data-command';
import { exposureWarning } from './cli/exposure';
import { parseArgs, UsageError, USAGE } from './cli/parse-args';
import { SessionHost } from './host/session-host';
import { startHeadlessServer } from './transport/ws-server';
import { createLogger } from './util/log';

function rendererDir(): string {
  if (process.env.SWITCHBOARD_RENDERER_DIR) return process.env.SWITCHBOARD_RENDERER_DIR;
  const here = dirname(fileURLToPath(import.meta.url));
  // Built: out/main/cli.js → out/renderer. From source: src/main/cli.ts → out/renderer.
  const candidates = [join(here, '../renderer'), join(here, '../../out/renderer')];
  return candidates.find((dir) => existsSync(join(dir, 'index.html'))) ?? candidates[0]!;
}

/** Runs the CLI; resolves with the process exit code. */
export async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs(argv);
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`switchboard: ${err.message}\n\n${USAGE}`);
      return 2;
    }
    throw err;
  }
  if (parsed.command === 'help') {
    process.stdout.write(USAGE);
    return 0;
  }
  if (parsed.command !== 'serve') return runDataCommand(parsed);
  const o = parsed.options;
  const log = createLogger(o.logLevel, 'serve');
  const dir = rendererDir();
  if (!existsSync(join(dir, 'index.html'))) {
    process.stderr.write(`switchboard: the window is not built (${dir} is missing); run \`npm run build\` first\n`);
    return 1;
  }

  let host: SessionHost;
  try {
    // SWITCHBOARD_DEBUG_INFO=1: host:info carries memory and handle counts (npm run soak).
    host = await SessionHost.start({ dataDir: o.dataDir, headless: true, settings: o.settings, log, debugInfo: process.env.SWITCHBOARD_DEBUG_INFO === '1' });
  } catch (err) {
    process.stderr.write(`switchboard: ${isAppError(err) ? err.message : String(err)}\n`);
    // 3: the data folder or its database is the problem (full, unwritable, damaged, newer).
    return isAppError(err) && err.code === 'storage_failed' ? 3 : 1;
  }
  let server;
  try {
    server = await startHeadlessServer({ host, rendererDir: dir, hostname: o.host, port: o.port, token: o.token, log });
  } catch (err) {
    await host.shutdown();
    process.stderr.write(`switchboard: cannot listen on ${o.host}:${o.port}: ${(err as Error).message}\n`);
    return 1;
  }
  // The ready line is the one place the token is printed; the warning goes beside it (in the
  // same write) and to stderr, so neither a script reading stdout nor a person watching the
  // log misses it.
  const exposed = exposureWarning(o.host);
  if (exposed) process.stderr.write(`switchboard: ${exposed}\n`);
  process.stdout.write(`Switchboard ready: ${server.url}\n${exposed ? `${exposed}\n` : ''}`);

  return new Promise<number>((resolve) => {
    let stopping = false;
    const stop = (signal: NodeJS.Signals): void => {
      if (stopping) {
        process.stderr.write(`switchboard: ${signal} again, exiting now\n`);
        host.pool.killAll();
        process.exit(1);
      }
      stopping = true;
      log.info('shutting down', { signal });
      void (async () => {
        // Agents first: a slow socket close must never leave them running.
        await Promise.all([server.close(), host.shutdown()]);
        resolve(0);
      })();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

const invokedDirectly = process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1];
if (invokedDirectly) {
  void main(process.argv.slice(2)).then((code) => process.exit(code));
}
