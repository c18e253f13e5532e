/**
 * The watchdog process: one per host, started by `Watchdog` (watchdog.ts). It learns about each
 * agent the host spawns on its stdin (protocol.ts) and sits idle. When the host is gone however
 * it died (quit, crash, SIGKILL, the OOM killer), the kernel closes that pipe: the watchdog
 * then kills every agent still recorded, with their helpers, and exits. A clean quit forgets
 * every agent first, so the watchdog finds nothing to kill and exits at once.
 *
 *   node out/main/watchdog.js --host-pid PID [--host-start TIME]
 *
 * Logs (only when it acts) go to stderr, which the host points at `<data dir>/logs/watchdog.log`.
 */
import { createInterface } from 'node:readline';
import { isAlive, isSameProcess } from '../../util/process-info';
import { decodeMessage, type WatchedAgent } from './protocol';
import { reap } from './reap';

/** SIGTERM's grace before SIGKILL: short, the issue wants every agent gone 3 s after kill -9. */
const GRACE_MS = 500;
const SETTLE_MS = 2_000;
/** How often to look whether the host still exists, in case the pipe never closes. */
const HOST_CHECK_MS = 1_000;

const argv = process.argv.slice(2);
const arg = (name: string): string | undefined => {
  const at = argv.indexOf(name);
  return at === -1 ? undefined : argv[at + 1];
};
const hostPid = Number(arg('--host-pid'));
const hostStart = arg('--host-start');

const agents = new Map<string, WatchedAgent>();
let finishing = false;

function log(msg: string, fields: Record<string, unknown> = {}): void {
  process.stderr.write(JSON.stringify({ t: new Date().toISOString(), level: 'warn', component: 'watchdog', msg, hostPid, ...fields }) + '\n');
}

async function finish(reason: string): Promise<void> {
  if (finishing) return;
  finishing = true;
  const left = [...agents.values()];
  if (left.length > 0) {
    const result = await reap(left, { graceMs: GRACE_MS, settleMs: SETTLE_MS });
    log('host gone: killed the agents it left', { reason, agents: left.map((a) => a.pid), ...result });
  }
  process.exit(0);
}

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
lines.on('line', (line) => {
  const message = decodeMessage(line);
  if (!message) return;
  if (message.op === 'track') {
    agents.set(message.id, { id: message.id, pid: message.pid, startTime: message.startTime, pgid: message.pgid });
  } else {
    agents.delete(message.id);
  }
});
// The host's end of the pipe closed: it exited or was killed (the kernel closes it either way).
lines.on('close', () => void finish('pipe closed'));

// Belt and braces: should a process that outlived the host still hold the pipe open (a leaked
// descriptor), the host's pid no longer naming the host ends the wait all the same.
// Off Linux a start time costs a `ps` run, so only a live pid is checked there.
const hostGone = (): boolean => !isAlive(hostPid) || (process.platform === 'linux' && !!hostStart && !isSameProcess(hostPid, hostStart));
if (Number.isInteger(hostPid) && hostPid > 0) {
  setInterval(() => {
    if (hostGone()) void finish('host exited');
  }, HOST_CHECK_MS);
}
