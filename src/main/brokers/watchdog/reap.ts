import { groupAlive, processesMarkedWith, processStartTime, signalGroup, signalProcessTree } from '../../util/process-info';
import type { WatchedAgent } from './protocol';

/** What the watchdog may signal for one recorded agent. */
export type Target = 'group' | 'process' | 'nothing';

/**
 * The kill decision, made afresh before every signal. A live pid is ours only if it still
 * started when our agent did; a recycled pid also means our group is gone, since a pid is not
 * handed out again while a process group carries it. Once our leader is gone, helpers left in
 * its group keep that group id (and so it is still ours to signal).
 */
export function targetOf(agent: WatchedAgent, startTimeOf: (pid: number) => string | undefined = processStartTime): Target {
  const leadsGroup = agent.pgid === agent.pid;
  const now = startTimeOf(agent.pid);
  if (now === undefined) return leadsGroup ? 'group' : 'nothing';
  if (agent.startTime === null || now !== agent.startTime) return 'nothing';
  return leadsGroup ? 'group' : 'process';
}

export interface ReapOptions {
  /** How long SIGTERM gets before SIGKILL (agents that ignore it must not delay much). */
  graceMs: number;
  /** How long to wait after SIGKILL for everything to be gone, before reporting survivors. */
  settleMs: number;
  startTimeOf?: (pid: number) => string | undefined;
}

export interface ReapResult {
  /** Signals sent (groups, lone agents and marked helpers, both rounds). */
  signalled: number;
  /** Whether anything recorded was still alive after SIGKILL and `settleMs`. */
  survivors: boolean;
}

/**
 * Ends every recorded agent: SIGTERM to each group (or lone agent) that is still ours and to
 * every process carrying one of their BROKER_ENV markers (helpers that left the group), then,
 * after `graceMs`, SIGKILL to whatever is left, decided again.
 */
export async function reap(agents: readonly WatchedAgent[], o: ReapOptions): Promise<ReapResult> {
  const startTimeOf = o.startTimeOf ?? processStartTime;
  const ids = agents.map((a) => a.id);
  const anyAlive = (): boolean =>
    agents.some((a) => {
      const target = targetOf(a, startTimeOf);
      return target === 'group' ? groupAlive(a.pid) : target === 'process';
    }) || processesMarkedWith(ids).size > 0;
  const signalAll = (signal: NodeJS.Signals): number => {
    let n = 0;
    for (const agent of agents) if (signalAgent(agent, targetOf(agent, startTimeOf), signal)) n++;
    for (const pids of processesMarkedWith(ids).values()) for (const pid of pids) if (kill(pid, signal)) n++;
    return n;
  };

  let signalled = signalAll('SIGTERM');
  if (signalled === 0 && !anyAlive()) return { signalled, survivors: false };
  if (!(await waitUntil(() => !anyAlive(), o.graceMs))) {
    signalled += signalAll('SIGKILL');
    return { signalled, survivors: !(await waitUntil(() => !anyAlive(), o.settleMs)) };
  }
  return { signalled, survivors: false };
}

function signalAgent(agent: WatchedAgent, target: Target, signal: NodeJS.Signals): boolean {
  if (target === 'nothing') return false;
  if (target === 'process') return kill(agent.pid, signal);
  if (process.platform === 'win32') {
    // No process groups: the tree under a live, verified pid.
    signalProcessTree(agent.pid, signal);
    return true;
  }
  return signalGroup(agent.pid, signal);
}

function kill(pid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(pid, signal);
    return true;
  } catch {
    return false; // gone meanwhile
  }
}

/** Polls `done` until it holds or `ms` pass: nothing announces another process's death. */
async function waitUntil(done: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (!done()) {
    if (Date.now() >= end) return false;
    await new Promise((r) => setTimeout(r, 20));
  }
  return true;
}
