/**
 * `npm run soak` (issue 13): the built `switchboard serve` driven through many sessions and
 * turns while windows attach and leave and the idle reaper closes what nobody watches; the
 * host's memory, open descriptors and active handles/timers sampled throughout. Then the
 * chaos rounds (SIGKILL mid-stream, restart, check) at scale. Exits 1 on a leak beyond the
 * stated thresholds or a broken chaos promise. `--quick` runs a small version in minutes.
 *
 * A leak is judged between two settled points, each after every window left, every session
 * was reaped and every agent process exited: after a warm-up tenth of the sessions, and at
 * the end. Growth between them is what the host kept.
 */
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { startServe, tempDataDir, type ServeProcess } from '../e2e/support/serve';
import { runChaos, type ChaosReport } from '../src/main/test-support/chaos';
import { agentFootprint, killAll } from '../src/main/test-support/processes';
import type { SessionViewT } from '../src/shared/contract';
import { promptTurn } from './lib/host';
import { BenchClient } from './lib/ws-client';
import { parseSoakArgs, SOAK_USAGE, type SoakArgs } from './soak/args';
import { sample, slope, verdict, windowSlopes, type Growth, type Sample, type WindowSlope } from './soak/samples';

/** Every kind of turn the demo agent has that ends by itself: messages, plans, tools, permissions, titles. */
const TURNS = ['hello soak', '/plan', '/flood 50', '/tool Read a file', '/permission Edit a file', '/title Soak'];

interface Run {
  args: SoakArgs;
  serve: ServeProcess;
  control: BenchClient;
  dataDir: string;
  t0: number;
  samples: Sample[];
  turnsDone: number;
  phase: string;
  reaped: number;
  /** Turns answered per session (the timed mode checks each against the store). */
  turnsBySession: Map<string, number>;
}

/** A window: answers every permission request it is shown (allow once), as a person would. */
async function openWindow(run: Run): Promise<BenchClient> {
  const w = await BenchClient.connect(run.serve.url);
  w.on((event, payload) => {
    if (event !== 'permission:requested') return;
    const p = payload as { requestId: string; sessionId: string; options: { optionId: string; kind: string }[] };
    const allow = p.options.find((o) => o.kind === 'allow_once') ?? p.options[0];
    if (allow) void w.call('permissions:answer', { requestId: p.requestId, sessionId: p.sessionId, optionId: allow.optionId }).catch(() => undefined);
  });
  return w;
}

/** One session's life: its turns, its window leaving and another attaching, then closed or left to the reaper. */
async function soakSession(run: Run, n: number, deadline?: number): Promise<void> {
  const { args } = run;
  let w = await openWindow(run);
  const id = randomUUID();
  await w.call('sessions:create', { id });
  await w.call('sessions:switch', { sessionId: id });
  for (let t = 0; t < args.turns; t++) {
    if (t > 0 && t % args.reattachEvery === 0) {
      // Every other session, at its first reattach, stays away until the reaper closed it:
      // the next turn resumes it on a fresh agent session.
      const waitForReaper = n % 2 === 0 && t === args.reattachEvery;
      const ended = waitForReaper ? run.control.next('session:updated', (v: SessionViewT) => v.id === id && v.state === 'ENDED', 60_000) : undefined;
      w.close();
      if (ended) {
        await ended;
        run.reaped++;
      }
      w = await openWindow(run);
      await w.call('sessions:switch', { sessionId: id });
    }
    await promptTurn(w, id, TURNS[(t + n) % TURNS.length]!);
    run.turnsDone++;
    run.turnsBySession.set(id, (run.turnsBySession.get(id) ?? 0) + 1);
    if (deadline !== undefined) {
      if (Date.now() >= deadline) break;
      await delay(args.paceMs);
    }
  }
  // Half are closed by the person, half left for the reaper.
  if (n % 2 === 1) await w.call('sessions:close', { sessionId: id });
  w.close();
}

/** Timed mode: sessions after sessions, `parallel` at a time, until `deadline`. */
async function soakUntil(run: Run, deadline: number): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (Date.now() < deadline) await soakSession(run, next++, deadline);
  };
  await Promise.all(Array.from({ length: run.args.parallel }, worker));
}

/**
 * Nothing lost: every session's stored transcript is gap-free (seqs 1..n, `lastSeq` n), and it
 * holds exactly one `turn_ended` per turn the windows saw answered. Returns what is wrong.
 */
async function checkNothingLost(run: Run): Promise<string[]> {
  const problems: string[] = [];
  const sessions = await run.control.call('sessions:list', {});
  for (const session of sessions) {
    let after = 0;
    let ended = 0;
    for (;;) {
      const page = await run.control.call('transcript:since', { sessionId: session.id, afterSeq: after, limit: 5000 });
      for (const e of page.events) {
        if (e.seq !== after + 1) problems.push(`${session.id}: seq ${e.seq} after ${after}`);
        after = e.seq;
        if (e.kind === 'turn_ended') ended++;
      }
      if (!page.hasMore) break;
    }
    if (after !== session.lastSeq) problems.push(`${session.id}: stored up to ${after}, its lastSeq says ${session.lastSeq}`);
    const turns = run.turnsBySession.get(session.id) ?? 0;
    if (ended !== turns) problems.push(`${session.id}: ${turns} turns answered, ${ended} turn_ended stored`);
  }
  for (const id of run.turnsBySession.keys()) if (!sessions.some((s) => s.id === id)) problems.push(`${id}: gone from the session list`);
  return problems;
}

function printSlopes(slopes: readonly WindowSlope[], label: string): void {
  const span = slopes[0] ? `${slopes[0].samples} samples over ${slopes[0].spanMin.toFixed(0)} min` : 'no samples';
  console.log(`\n${label}: slopes over the last ${span}`);
  for (const s of slopes) {
    const unit = s.figure === 'rssMb' || s.figure === 'heapMb' ? ' MiB' : '';
    console.log(`  ${s.figure.padEnd(8)} ${s.perHour.toFixed(2).padStart(8)}${unit}/h  (rising at most ${s.limit}${unit}/h)  ${s.flat ? (s.perHour < -s.limit ? 'falling' : 'flat') : 'GROWING'}`);
  }
}

async function soakSessions(run: Run, from: number, to: number): Promise<void> {
  let next = from;
  const worker = async (): Promise<void> => {
    while (next < to) await soakSession(run, next++);
  };
  await Promise.all(Array.from({ length: run.args.parallel }, worker));
}

/** Waits until no window but the control one is left, every session is ENDED and no agent runs; then samples. */
async function settle(run: Run, phase: string): Promise<Sample> {
  run.phase = `${phase} (settling)`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    const sessions = await run.control.call('sessions:list', {});
    const info = await run.control.call('host:info', {});
    const live = sessions.filter((s) => s.state !== 'ENDED').length;
    if (live === 0 && info.debug?.clients === 1 && agentFootprint(run.dataDir).length === 0) break;
    if (Date.now() > deadline) throw new Error(`not settled after 120 s: ${live} sessions live, ${info.debug?.clients} windows, ${agentFootprint(run.dataDir).length} agent processes`);
    await delay(250);
  }
  // A few samples once quiet; the last is the settled figure (closing sockets and exiting agents leave for a moment).
  let last: Sample | undefined;
  for (let i = 0; i < 3; i++) {
    await delay(run.args.sampleMs);
    last = await sample(run.control, run.serve.child.pid!, run.t0, phase, run.turnsDone);
    run.samples.push(last);
  }
  return last!;
}

function printSamples(samples: readonly Sample[]): void {
  console.log('\n    t s  phase                       turns   rss MiB  heap MiB  fds  handles  timers');
  const every = Math.max(1, Math.ceil(samples.length / 40));
  samples.forEach((s, i) => {
    if (i % every !== 0 && i !== samples.length - 1 && !s.phase.startsWith('settled')) return;
    console.log(
      `${s.t.toFixed(0).padStart(6)}  ${s.phase.padEnd(26)} ${String(s.turnsDone).padStart(6)} ${s.rssMb.toFixed(1).padStart(9)} ${s.heapMb.toFixed(1).padStart(9)} ${String(s.fds).padStart(4)} ${String(s.handles).padStart(8)} ${String(s.timers).padStart(7)}`,
    );
  });
}

async function main(): Promise<number> {
  let args: SoakArgs;
  try {
    args = parseSoakArgs(process.argv.slice(2));
  } catch (err) {
    console.error((err as Error).message);
    return 2;
  }
  console.log(
    args.hours !== undefined
      ? `soak: ${args.hours} h of sessions of ${args.turns} turns, ${args.parallel} at a time, ${args.paceMs} ms between turns, reaper ${args.idleTimeoutMs} ms idle / ${args.reapIntervalMs} ms; sampled every ${args.sampleMs / 1000} s, slopes over the last ${args.slopeWindowMin} min`
      : `soak: ${args.sessions} sessions × ${args.turns} turns, ${args.parallel} at a time, reaper ${args.idleTimeoutMs} ms idle / ${args.reapIntervalMs} ms; chaos ${args.chaosRounds} rounds × ${args.chaosSessions} sessions, seed ${args.seed}`,
  );
  const dir = tempDataDir();
  const serve = await startServe(
    dir.path,
    ['--idle-timeout-ms', String(args.idleTimeoutMs), '--reap-interval-ms', String(args.reapIntervalMs)],
    // Debug figures in host:info, measured after a full collection.
    { SWITCHBOARD_DEBUG_INFO: '1', NODE_OPTIONS: '--expose-gc' },
  );
  const run: Run = {
    args,
    serve,
    control: await BenchClient.connect(serve.url),
    dataDir: dir.path,
    t0: Date.now(),
    samples: [],
    turnsDone: 0,
    phase: 'start',
    reaped: 0,
    turnsBySession: new Map(),
  };
  let sampling = true;
  const hourly: WindowSlope[][] = [];
  const sampler = (async () => {
    while (sampling) {
      const s = await sample(run.control, serve.child.pid!, run.t0, run.phase, run.turnsDone);
      run.samples.push(s);
      // Timed mode: each full hour, the slopes over the window just behind it.
      if (args.hours !== undefined && s.t >= (hourly.length + 1) * 3600) {
        hourly.push(windowSlopes(run.samples, s.t, args.slopeWindowMin));
        printSlopes(hourly.at(-1)!, `hour ${hourly.length}`);
      }
      await delay(args.sampleMs);
    }
  })();
  let growth: Growth[] = [];
  let heapSlope = 0;
  let slopes: WindowSlope[] = [];
  let lost: string[] = [];
  let chaos: ChaosReport | undefined;
  let failure: string | undefined;
  try {
    if (args.hours !== undefined) {
      run.phase = 'soak';
      const deadline = run.t0 + args.hours * 3_600_000;
      await soakUntil(run, deadline);
      // The window ends with the load: the settling after it is not part of the run.
      const endT = run.samples.at(-1)?.t ?? 0;
      // A short run has no 40 minutes: the slope is then taken over its last two thirds (after a warm-up third).
      const windowMin = Math.min(args.slopeWindowMin, (endT / 60) * (2 / 3));
      slopes = windowSlopes(run.samples.filter((x) => x.phase === 'soak'), endT, windowMin);
      await settle(run, 'settled at the end');
      lost = await checkNothingLost(run);
      const growing = slopes.filter((x) => !x.flat);
      if (growing.length) failure = `growing: ${growing.map((g) => `${g.figure} ${g.perHour.toFixed(2)}/h (limit ${g.limit})`).join(', ')}`;
      if (lost.length) failure = `${failure ? `${failure}; ` : ''}lost: ${lost.slice(0, 5).join('; ')}${lost.length > 5 ? ` (and ${lost.length - 5} more)` : ''}`;
    } else {
      const warm = Math.min(args.sessions, Math.max(args.parallel, Math.ceil(args.sessions / 10)));
      run.phase = 'warm-up';
      await soakSessions(run, 0, warm);
      const baseline = await settle(run, 'settled after warm-up');
      run.phase = 'soak';
      const soakStart = run.samples.length;
      await soakSessions(run, warm, args.sessions);
      const end = await settle(run, 'settled at the end');
      growth = verdict(baseline, end, {
        rssMb: args.maxRssGrowthMb,
        heapMb: args.maxHeapGrowthMb,
        fds: args.maxFdGrowth,
        handles: args.maxHandleGrowth,
        timers: args.maxHandleGrowth,
      });
      // Heap per 1,000 turns while running: flat when nothing is kept per turn or per session.
      heapSlope = slope(run.samples.slice(soakStart).filter((s) => s.phase === 'soak').map((s) => ({ x: s.turnsDone / 1000, y: s.heapMb })));
    }
  } catch (err) {
    failure = `soak: ${String(err)}`;
  } finally {
    sampling = false;
    await sampler.catch(() => undefined);
    run.control.close();
    const code = await serve.stop();
    if (code !== 0 && !failure) failure = `serve exited with ${code} after the soak: ${serve.stderr()}`;
    killAll(agentFootprint(dir.path));
    dir.cleanup();
  }

  if (!failure && args.chaosRounds > 0) {
    const chaosDir = tempDataDir();
    const serves: { pid: number; child: { exitCode: number | null; signalCode: string | null } }[] = [];
    try {
      chaos = await runChaos({
        dataDir: chaosDir.path,
        seed: args.seed,
        rounds: args.chaosRounds,
        sessions: args.chaosSessions,
        perBroker: 3,
        maxEventsBeforeKill: 300,
        floodChunks: 20_000,
        onServe: (s) => serves.push(s),
        onRound: (r) => console.log(`chaos round ${r.round}: killed after ${r.eventsSeen} events (${r.agentsOfDeadHost} agents of the dead host gone), ${r.storedEvents} events stored, restart ${r.restartMs} ms`),
      });
    } catch (err) {
      failure = String(err);
    } finally {
      killAll(serves.filter((s) => s.child.exitCode === null && s.child.signalCode === null).map((s) => s.pid));
      killAll(agentFootprint(chaosDir.path));
      chaosDir.cleanup();
    }
  }

  printSamples(run.samples);
  console.log(`\n${run.turnsDone} turns in ${((Date.now() - run.t0) / 1000).toFixed(0)} s over ${run.turnsBySession.size} sessions; ${run.reaped} sessions reaped while their window was away, then resumed`);
  if (args.hours !== undefined) {
    printSlopes(slopes, `end of the run (${args.hours} h)`);
    console.log(lost.length ? `\nLOST: ${lost.length} problems (first: ${lost[0]})` : `\nnothing lost: ${run.turnsBySession.size} transcripts gap-free, one turn_ended stored per turn answered`);
  } else console.log(`heap slope while soaking: ${heapSlope.toFixed(2)} MiB per 1,000 turns`);
  for (const g of growth) {
    console.log(`${g.figure.padEnd(8)} ${g.baseline.toFixed(1).padStart(8)} → ${g.end.toFixed(1).padStart(8)}  growth ${g.growth.toFixed(1).padStart(7)} (limit ${g.limit})  ${g.leak ? 'LEAK' : 'ok'}`);
  }
  if (chaos) console.log(`chaos: seed ${chaos.seed}, ${chaos.kills} kills, ${chaos.restarts} restarts, every check held`);
  const leaks = growth.filter((g) => g.leak);
  if (leaks.length > 0) failure ??= `leak: ${leaks.map((g) => `${g.figure} grew ${g.growth.toFixed(1)} (limit ${g.limit})`).join(', ')}`;
  if (args.out) writeFileSync(args.out, JSON.stringify({ args, turns: run.turnsDone, reaped: run.reaped, heapSlopeMbPer1000Turns: heapSlope, growth, slopes, hourly, lost, chaos, samples: run.samples, failure }, null, 2));
  if (failure) {
    console.error(`\nFAILED: ${failure}`);
    return 1;
  }
  console.log(args.hours !== undefined ? '\nevery figure flat, nothing lost' : '\nno leak beyond the thresholds; chaos rounds held');
  return 0;
}

if (process.argv.includes('--help') || process.argv.includes('-h')) console.log(SOAK_USAGE);
else process.exitCode = await main();
