// @ts-check
/**
 * The helper process of `git-exec.ts` (ADR 0033): reads one request a line on stdin, runs it
 * with `execFile` (never a shell) and writes what its callback got as one line on stdout, in
 * the order the calls end. When its stdin closes (the host is gone) it stops what it runs and
 * exits. Plain JavaScript with no imports of the app's, so Node runs it as it is, from source
 * too: through tsx it took a second or more to start in tests, which a host quitting early
 * then waited for. Its lines are the `RunnerRequest` / `RunnerReply` of `git-exec.ts`.
 */
import { execFile } from 'node:child_process';
import { createInterface } from 'node:readline';

/** @type {Set<import('node:child_process').ChildProcess>} */
const running = new Set();

/** @param {import('./git-exec').RunnerRequest} request */
function run(request) {
  /** @type {string | undefined} */
  let stdinError;
  const child = execFile(
    request.file,
    request.args,
    { cwd: request.cwd, env: request.env, timeout: request.timeoutMs, maxBuffer: request.maxBytes, encoding: 'buffer', windowsHide: true },
    (err, stdout, stderr) => {
      running.delete(child);
      /** @type {import('./git-exec').RunnerReply} */
      const reply = {
        id: request.id,
        stdout: (stdout ?? Buffer.alloc(0)).toString('base64'),
        stderr: (stderr ?? Buffer.alloc(0)).toString('base64'),
        ...(err ? { error: { message: err.message, code: err.code, signal: err.signal, killed: err.killed, syscall: /** @type {NodeJS.ErrnoException} */ (err).syscall } } : {}),
        ...(stdinError ? { stdinError } : {}),
      };
      process.stdout.write(`${JSON.stringify(reply)}\n`);
    },
  );
  running.add(child);
  child.stdin?.on('error', (err) => {
    stdinError = String(err);
  });
  const stdin = request.stdinText ?? (request.stdinBase64 !== undefined ? Buffer.from(request.stdinBase64, 'base64') : undefined);
  child.stdin?.end(stdin);
}

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
lines.on('line', (line) => {
  if (line.trim() !== '') run(JSON.parse(line));
});
lines.on('close', () => {
  for (const child of running) child.kill('SIGKILL');
  process.exit(0);
});
// The host went away mid-write: nobody reads the answers any more.
process.stdout.on('error', () => process.exit(0));
