/**
 * The chaos rounds of issue 13: sessions streaming across several agent processes of a real
 * `switchboard serve`, a window recording every event it receives, the host SIGKILLed at a
 * seeded random point and restarted on the same data dir. After every restart the driver
 * checks what a person would lose if the host died: events the window saw, seq order, agent
 * processes left behind, the database file, sessions that no longer answer.
 *
 * Used by `src/main/chaos.test.ts` (a few rounds in `npm test`) and `bench/soak.ts` (many).
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { SessionEventT } from '../../shared/contract';
import { isLive, listProcesses, waitUntil } from './processes';
import { seededRandom } from './seeded-random';
import { startServe, WsClient, type ServeProcess } from './serve-process';

export interface ChaosOptions {
  dataDir: string;
  seed: number;
  rounds: number;
  sessions: number;
  /** Sessions sharing one agent process: fewer than `sessions`, so several processes stream. */
  perBroker: number;
  /** The kill comes once the window has received between 1 and this many events of the round. */
  maxEventsBeforeKill: number;
  /** Flood size (chunks per `/flood`). */
  floodChunks: number;
  /** Called with each round's figures (the soak prints them). */
  onRound?: (round: RoundReport) => void;
  /** Every serve started, so a caller's cleanup can kill what an aborted run left. */
  onServe?: (serve: ServeProcess) => void;
}

export interface RoundReport {
  round: number;
  /** Events of this round the window had received when the host was killed. */
  eventsSeen: number;
  killAfterEvents: number;
  /** Agent processes of the dead host (all verified gone). */
  agentsOfDeadHost: number;
  /** Events stored in all, over every session, after the restart. */
  storedEvents: number;
  restartMs: number;
}

export interface ChaosReport {
  seed: number;
  kills: number;
  restarts: number;
  rounds: RoundReport[];
}

export class ChaosFailure extends Error {
  constructor(seed: number, round: number, what: string) {
    super(`chaos (seed ${seed}, round ${round}): ${what}`);
  }
}

type Recorded = Pick<SessionEventT, 'sessionId' | 'seq' | 'kind' | 'payload'>;

const TURNS = ['flood', 'slow', 'permission'] as const;

/** Runs `rounds` kill-and-restart rounds; throws a `ChaosFailure` naming the seed on the first broken promise. */
export async function runChaos(o: ChaosOptions): Promise<ChaosReport> {
  const random = seededRandom(o.seed);
  // Its own stream: answers are drawn on a timer, so sharing one would make the kill points depend on timing.
  const answerRandom = seededRandom(o.seed ^ 0x9e3779b9);
  const report: ChaosReport = { seed: o.seed, kills: 0, restarts: 0, rounds: [] };
  const sessionIds: string[] = [];
  let serve = start(o);
  let client = await WsClient.connect(await serve.ready);
  try {
    for (let i = 0; i < o.sessions; i++) sessionIds.push((await client.call('sessions:create', { cwd: o.dataDir })).id);
    for (let round = 1; round <= o.rounds; round++) {
      const fail = (what: string): never => {
        throw new ChaosFailure(o.seed, round, what);
      };
      const seenBefore = client.events.length;
      for (const id of sessionIds) await client.call('sessions:switch', { sessionId: id });
      // Answer some permission requests as they arrive, leave others pending: both must survive the kill.
      const stopAnswering = client.onEvent(() => answerSome(client, answerRandom));
      for (const id of sessionIds) {
        const turn = TURNS[Math.floor(random() * TURNS.length)]!;
        const text = turn === 'flood' ? `/flood ${o.floodChunks}` : turn === 'slow' ? '/slow 2' : '/permission';
        await client.call('prompt:send', { sessionId: id, clientMessageId: randomUUID(), text });
      }
      const killAfterEvents = 1 + Math.floor(random() * o.maxEventsBeforeKill);
      // The kill point is an event count, not a delay: reproducible from the seed on any machine.
      await client
        .waitFor('session:event', () => sessionEventsSince(client, seenBefore) >= killAfterEvents || allTurnsEnded(client, seenBefore, sessionIds), 30_000)
        .catch(() => undefined);
      stopAnswering();
      const agents = agentProcessesOf(o.dataDir);
      serve.child.kill('SIGKILL');
      await serve.exited;
      report.kills++;
      const received = recordedEvents(client);
      const eventsSeen = sessionEventsSince(client, seenBefore);
      client.close();

      const restartedAt = Date.now();
      serve = start(o);
      client = await WsClient.connect(await serve.ready);
      report.restarts++;
      const restartMs = Date.now() - restartedAt;

      // The dead host's watchdog (or, failing it, the new host's sweep) ends every one of its agents.
      await waitUntil(() => agents.every((p) => !isLive(p.pid)) && groupsAlive(agents).length === 0, 'the dead host’s agents to be gone', 5_000).catch(() =>
        fail(`agent processes of the dead host still alive: ${JSON.stringify(groupsAlive(agents))}`),
      );
      const storedEvents = checkStore(o.dataDir, received, sessionIds, fail);
      // Every session answers its next prompt (resumed by the new host).
      await Promise.all(sessionIds.map((id) => answersPrompt(client, id).catch((err: unknown) => fail(`session ${id} did not answer: ${String(err)}`))));
      const r: RoundReport = { round, eventsSeen, killAfterEvents, agentsOfDeadHost: agents.length, storedEvents, restartMs };
      report.rounds.push(r);
      o.onRound?.(r);
    }
    return report;
  } finally {
    client.close();
    if (serve.child.exitCode === null && serve.child.signalCode === null) {
      serve.child.kill('SIGTERM');
      await serve.exited;
    }
  }
}

function start(o: ChaosOptions): ServeProcess {
  const serve = startServe(['serve', '--port', '0', '--data-dir', o.dataDir, '--max-sessions-per-broker', String(o.perBroker), '--log-level', 'error']);
  o.onServe?.(serve);
  return serve;
}

function recordedEvents(client: WsClient): Recorded[] {
  return client.events.filter((e) => e.event === 'session:event').map((e) => e.payload as Recorded);
}

function sessionEventsSince(client: WsClient, from: number): number {
  let n = 0;
  for (let i = from; i < client.events.length; i++) if (client.events[i]!.event === 'session:event') n++;
  return n;
}

function allTurnsEnded(client: WsClient, from: number, sessionIds: readonly string[]): boolean {
  const ended = new Set<string>();
  for (const e of client.events.slice(from)) {
    const p = e.payload as Recorded;
    if (e.event === 'session:event' && p.kind === 'turn_ended') ended.add(p.sessionId);
  }
  return sessionIds.every((id) => ended.has(id));
}

/** Called after each event: a permission request just received is answered (allow) half the time. */
function answerSome(client: WsClient, random: () => number): void {
  const last = client.events.at(-1);
  if (last?.event !== 'permission:requested') return;
  if (random() < 0.5) return;
  const p = last.payload as { requestId: string; sessionId: string; options: { optionId: string; kind: string }[] };
  const allow = p.options.find((opt) => opt.kind === 'allow_once') ?? p.options[0];
  // The host may already be dead (the kill races the answer): a lost answer is part of the chaos.
  if (allow) void client.call('permissions:answer', { requestId: p.requestId, sessionId: p.sessionId, optionId: allow.optionId }).catch(() => undefined);
}

interface AgentProc {
  pid: number;
  pgid: number;
}

/** The demo agents serving this data dir right now (their command line names it). */
function agentProcessesOf(dataDir: string): AgentProc[] {
  return listProcesses()
    .filter((p) => p.cmdline.includes('demo-agent') && p.cmdline.includes(dataDir))
    .map((p) => ({ pid: p.pid, pgid: p.pgid }));
}

/** Live members of the dead agents' process groups (helpers included). */
function groupsAlive(agents: readonly AgentProc[]): number[] {
  const groups = new Set(agents.map((a) => a.pgid));
  return listProcesses()
    .filter((p) => groups.has(p.pgid))
    .map((p) => p.pid);
}

/** Checks the database after a restart; returns how many events it holds. */
function checkStore(dataDir: string, received: readonly Recorded[], sessionIds: readonly string[], fail: (what: string) => never): number {
  const db = new Database(join(dataDir, 'switchboard.db'), { readonly: true });
  try {
    const integrity = db.pragma('integrity_check', { simple: true });
    if (integrity !== 'ok') fail(`integrity_check says ${String(integrity)}`);
    const get = db.prepare<[string, number], { kind: string; payload: string }>(`SELECT kind, payload FROM events WHERE session_id = ? AND seq = ?`);
    for (const e of received) {
      const row = get.get(e.sessionId, e.seq);
      if (!row) fail(`event ${e.sessionId}#${e.seq} (${e.kind}) the window received is not stored`);
      if (row.kind !== e.kind) fail(`event ${e.sessionId}#${e.seq} is stored as ${row.kind}, the window received ${e.kind}`);
      if (JSON.stringify(JSON.parse(row.payload)) !== JSON.stringify(e.payload)) fail(`event ${e.sessionId}#${e.seq} is stored with another payload than the window received`);
    }
    let total = 0;
    for (const id of sessionIds) {
      const seqs = db.prepare<[string], { seq: number }>(`SELECT seq FROM events WHERE session_id = ? ORDER BY seq`).all(id).map((r) => r.seq);
      seqs.forEach((seq, i) => {
        if (seq !== i + 1) fail(`session ${id}: seq ${i + 1} is missing (found ${seq})`);
      });
      const last = db.prepare<[string], { last_seq: number }>(`SELECT last_seq FROM sessions WHERE id = ?`).get(id)?.last_seq;
      if (last !== seqs.length) fail(`session ${id}: last_seq ${String(last)} but ${seqs.length} events stored`);
      total += seqs.length;
    }
    return total;
  } finally {
    db.close();
  }
}

async function answersPrompt(client: WsClient, sessionId: string): Promise<void> {
  await client.call('sessions:switch', { sessionId });
  const clientMessageId = randomUUID();
  await client.call('prompt:send', { sessionId, clientMessageId, text: 'are you there?' });
  const ended = (await client.waitFor(
    'session:event',
    (e) => e.sessionId === sessionId && e.kind === 'turn_ended' && (e.payload as { clientMessageId?: string }).clientMessageId === clientMessageId,
    30_000,
  )) as Recorded;
  const stop = (ended.payload as { stopReason: string }).stopReason;
  if (stop !== 'end_turn') throw new Error(`its turn ended ${stop}`);
}
