/**
 * How long the host's event loop is blocked (Node's `monitorEventLoopDelay` inside the built
 * `serve`, read through bench/lib/loop-probe.mjs; the probe proves itself with a deliberate
 * block first). In the Electron app this loop also moves windows and answers menus.
 *
 * host_loop_*_flood — while the demo agent floods 100,000 events split over 10 sessions at
 * once (two agent processes), stored and streamed to a client of the window's WebSocket;
 * host_loop_*_backfill — while the host indexes an archive written before search existed
 * (bench/lib/archive.ts), from its ready line until the backfill reports done;
 * host_loop_*_git — while a worktree session of a 10,000-file repository works as a person
 * reviews and merges it: GIT_TURNS turns, each after 100 files changed in the worktree (80
 * edited, 20 new) and each checkpointed before it, then the Changes list and a diff of each
 * kind, a commit, Merge into the base, a checkpoint restored and that restore undone.
 *
 * Figures are the histogram's samples: the interval between two runs of a 1 ms timer, so an
 * idle loop reads about 1 ms; p99 and the maximum are reported as they are.
 */
import { randomUUID } from 'node:crypto';
import type { SearchProgressT, SessionEventT, SessionViewT } from '../../src/shared/contract';
import { archive, copyArchive } from '../lib/archive';
import { change100, gitFixture, type GitFixture } from '../lib/git-fixture';
import { liveSession, promptTurn, startHost } from '../lib/host';
import type { LoopFigures } from '../lib/probed-serve';
import { fmt, timed } from '../lib/stats';
import type { BenchContext, BenchGroup, Metric } from '../lib/types';
import type { BenchClient } from '../lib/ws-client';

const P99_TARGET = 10;
const MAX_TARGET = 50;

const describe = (f: LoopFigures): string => `p50 ${fmt(f.p50)} ms, mean ${fmt(f.mean)} ms over ${f.count.toLocaleString('en')} samples`;

async function duringFlood(ctx: BenchContext): Promise<{ figures: LoopFigures; detail: string }> {
  const total = ctx.quick ? 20_000 : 100_000;
  const sessions = 10;
  const host = await startHost([], undefined, { loopProbe: true });
  try {
    const ids: string[] = [];
    for (let i = 0; i < sessions; i++) ids.push(await liveSession(host.client));
    const each = total / sessions;
    await Promise.all(ids.map((id) => promptTurn(host.client, id, `/flood ${each / 4}`)));
    await host.loop!.reset();
    const ms = await timed(() => Promise.all(ids.map((id) => promptTurn(host.client, id, `/flood ${each}`))));
    const figures = await host.loop!.read();
    ctx.progress(`host loop during a ${total} event flood over ${sessions} sessions: p99 ${fmt(figures.p99)} ms, max ${fmt(figures.max)} ms`);
    return { figures, detail: `/flood ${each} in each of ${sessions} sessions at once (${Math.round((total / ms) * 1000).toLocaleString('en')} events/s); ${describe(figures)}` };
  } finally {
    await host.stop();
  }
}

async function duringBackfill(ctx: BenchContext): Promise<{ figures: LoopFigures; detail: string }> {
  const sessions = ctx.quick ? 200 : 2_000;
  const data = archive({ name: `backfill-${sessions}x500`, sessions, eventsPerSession: 500, backfill: true }, ctx.progress);
  const copy = copyArchive(data);
  try {
    const host = await startHost([], copy.path, { loopProbe: true });
    try {
      await host.loop!.reset();
      const started = performance.now();
      let last: SearchProgressT | undefined;
      const done = new Promise<void>((resolve) =>
        host.client.on((event, payload) => {
          if (event !== 'search:progress') return;
          last = payload as SearchProgressT;
          if (last.done) resolve();
        }),
      );
      // A backfill that finished before the client was there leaves no progress event to wait for.
      const info = await host.client.call('host:info', {});
      if (!info.searchIndexing && last === undefined) throw new Error('the archive started no search backfill (or it ended before a client could watch it)');
      await done;
      const ms = performance.now() - started;
      const figures = await host.loop!.read();
      ctx.progress(`host loop during search backfill of ${data.events} events: p99 ${fmt(figures.p99)} ms, max ${fmt(figures.max)} ms (${(ms / 1000).toFixed(1)} s)`);
      return {
        figures,
        detail: `${data.events.toLocaleString('en')} events in ${data.sessions.toLocaleString('en')} sessions (${Math.round(data.bytes / 2 ** 20)} MiB of payloads) indexed in ${(ms / 1000).toFixed(1)} s; ${describe(figures)}`,
      };
    } finally {
      await host.stop();
    }
  } finally {
    copy.cleanup();
  }
}

/** Turns of the git phase, each checkpointed before it. */
const GIT_TURNS = 6;

/** A worktree session of `fx.repo` (on a host started with `fx.env`), live. */
export async function worktreeSession(client: BenchClient, fx: GitFixture): Promise<{ sessionId: string; worktree: string }> {
  const sessionId = randomUUID();
  const active = client.next('session:updated', (v: SessionViewT) => v.id === sessionId && v.state === 'ACTIVE', 60_000);
  const view = await client.call('sessions:create', { id: sessionId, cwd: fx.repo, worktree: { branch: 'bench-loop' } });
  await client.call('sessions:switch', { sessionId });
  await active;
  const worktree = view.workspace?.path;
  if (view.workspace?.kind !== 'worktree' || !worktree) throw new Error(`the session is not in a worktree of its own (${JSON.stringify(view.workspace)})`);
  return { sessionId, worktree };
}

/** The git phase's work in that session: its turns, review, commit, Merge, a restore and its undo. */
export async function gitWork(client: BenchClient, fx: GitFixture, { sessionId, worktree }: { sessionId: string; worktree: string }, turns: number): Promise<{ ms: number; detail: string }> {
  const started = performance.now();
  const checkpoints: string[] = [];
  for (let turn = 1; turn <= turns; turn++) {
    change100(fx, worktree, turn);
    const clientMessageId = randomUUID();
    const checkpointed = client.next('session:event', (e: SessionEventT) => e.sessionId === sessionId && e.kind === 'checkpoint' && e.payload.clientMessageId === clientMessageId, 60_000);
    const ended = client.next('session:event', (e: SessionEventT) => e.sessionId === sessionId && e.kind === 'turn_ended' && e.payload.clientMessageId === clientMessageId, 60_000);
    await client.call('prompt:send', { sessionId, clientMessageId, text: `/write notes.txt turn ${turn}` });
    await Promise.all([checkpointed, ended]);
    checkpoints.push(clientMessageId);
  }
  const changes = await client.call('changes:list', { sessionId });
  const edited = changes.files.find((f) => !f.untracked && f.status === 'modified');
  const added = changes.files.find((f) => f.untracked);
  if (!edited || !added) throw new Error(`the Changes list has no edited or no new file (${changes.total} files)`);
  for (const file of [edited, added]) await client.call('changes:diff', { sessionId, path: file.path, untracked: file.untracked });
  await client.call('changes:commit', { sessionId, message: "bench: the turns' changes" });
  await client.call('workspace:merge', { sessionId });
  const restored = await client.call('checkpoints:restore', { sessionId, checkpointId: checkpoints[0]! });
  await client.call('checkpoints:restore', { sessionId, checkpointId: restored.undo });
  const ms = performance.now() - started;
  return {
    ms,
    detail: `a worktree of ${fx.files.toLocaleString('en')} files: ${turns} turns after 100 files changed, each checkpointed; Changes (${changes.total} files) and 2 diffs, commit, Merge, a restore of ${restored.written.length + restored.removed.length} files and its undo, in ${(ms / 1000).toFixed(1)} s`,
  };
}

async function duringGit(ctx: BenchContext): Promise<{ figures: LoopFigures; detail: string }> {
  const fx = gitFixture(ctx.quick ? 1_000 : 10_000, ctx.progress);
  // git in the host runs with the fixture's config only, as every git figure does.
  const host = await startHost([], undefined, { loopProbe: true, env: fx.env });
  try {
    const session = await worktreeSession(host.client, fx);
    await host.loop!.reset();
    const { ms, detail } = await gitWork(host.client, fx, session, ctx.quick ? 3 : GIT_TURNS);
    const figures = await host.loop!.read();
    ctx.progress(`host loop during checkpoints, Changes and Merge: p99 ${fmt(figures.p99)} ms, max ${fmt(figures.max)} ms (${(ms / 1000).toFixed(1)} s)`);
    return { figures, detail: `${detail}; ${describe(figures)}` };
  } finally {
    await host.stop();
    fx.reset();
  }
}

export const hostLoop: BenchGroup = {
  names: ['host_loop_p99_ms_flood', 'host_loop_max_ms_flood', 'host_loop_p99_ms_backfill', 'host_loop_max_ms_backfill', 'host_loop_p99_ms_git', 'host_loop_max_ms_git'],

  async run(ctx: BenchContext): Promise<Metric[]> {
    const metrics: Metric[] = [];
    for (const [phase, measure] of [
      ['flood', duringFlood],
      ['backfill', duringBackfill],
      ['git', duringGit],
    ] as const) {
      if (!ctx.wants(`host_loop_p99_ms_${phase}`) && !ctx.wants(`host_loop_max_ms_${phase}`)) continue;
      const { figures, detail } = await measure(ctx);
      metrics.push(
        { name: `host_loop_p99_ms_${phase}`, value: figures.p99, unit: 'ms', target: P99_TARGET, better: 'lower', detail },
        { name: `host_loop_max_ms_${phase}`, value: figures.max, unit: 'ms', target: MAX_TARGET, better: 'lower', detail: `max of the same histogram (${fmt(figures.p99)} ms p99)` },
      );
    }
    return metrics;
  },
};
