/**
 * `node --import tsx bench/profile.ts SCENARIO [ARGS]`: CPU profiles of the figures that miss,
 * to see where the time goes. Prints the top functions by self and total time and where the
 * .cpuprofile files are (open them in Chrome DevTools' Performance panel).
 *
 *   stream PROFILE KB [CHARS] [--after] [--trace]
 *                                        the page while `/markdown KB 200 PROFILE` streams (and
 *                                        while the finished answer is reopened, with --after;
 *                                        style/layout/paint from a Chrome trace of both, with --trace),
 *                                        on a renderer built unminified so names are readable
 *   ingest SESSIONS [TOTAL] [REPS] [--agents]
 *                                        the host (`serve` under node --cpu-prof) while TOTAL
 *                                        events (default 100,000) flood SESSIONS sessions at once,
 *                                        REPS times in a row (default 1), and the CPU each process
 *                                        used; --agents profiles the agent processes too
 *   backfill                             the host while it indexes the backfill archive
 *   git                                  the host while a worktree session of a 10,000-file
 *                                        repository takes checkpointed turns, is reviewed,
 *                                        committed, merged and restored (host_loop_*_git)
 *   open                                 the page loading on the 10,000-session archive
 *   first-text [DATA_DIR]                the page, Enter → first text, 9 new sessions in a row (on
 *                                        DATA_DIR as it is, if given)
 *   ready                                `serve` from spawn to its ready line
 *   first-text-path [N]                  Enter → the agent's first text handled by the page, hop
 *                                        by hop across the page, the host and the agent (N new
 *                                        sessions, default 12), on one wall clock
 *
 * --pin (ingest, backfill): while measured, the host's threads run on core 0 and every other
 * process of the run (agents, watchdog, this client) on core 1. A sampling profile counts the
 * time a process waited for a core as time in whatever it was running (a `writev` that woke the
 * client, a commit), so with 14 processes on 2 cores the host's profile was mostly that waiting;
 * pinned, its samples are its own work (and the figures are not the benchmark's).
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import react from '@vitejs/plugin-react';
import { build } from 'vite';
import { memoisedMicromarkExtensions } from '../scripts/vite-micromark';
import { archive, copyArchive } from './lib/archive';
import { launchBrowser, newSession, openWindow, sendPrompt } from './lib/browser';
import { HOPS, hopsOf, readIoTrace, type PageMarks } from './lib/first-text-path';
import { stalls, summarise, type CpuProfile, type Window } from './lib/cpu-profile';
import { traceLines } from './lib/trace';
import { liveSession, promptTurn } from './lib/host';
import { armProbe, probeMs } from './lib/page-probes';
import { cpuByProcess, pinHost } from './lib/processes';
import { gitFixture } from './lib/git-fixture';
import { gitWork, worktreeSession } from './metrics/host-loop';
import { startProbedServe } from './lib/probed-serve';
import { BenchClient } from './lib/ws-client';
import { startServe, tempDataDir } from '../e2e/support/serve';
import { measureStream, startProfiler } from './stream-window';
import type { MarkdownProfile } from '../src/agents/demo/markdown-turn';
import type { SearchProgressT } from '../src/shared/contract';
import { writeFileSync } from 'node:fs';

const root = resolve(import.meta.dirname, '..');
const out = mkdtempSync(join(tmpdir(), 'switchboard-profile-'));
const read = (file: string): CpuProfile => JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
const print = (title: string, file: string, filter?: Parameters<typeof summarise>[2], window?: Window): void => {
  console.log(`\n== ${title}\n${summarise(read(file), 30, filter, window).join('\n')}\nfile: ${file}`);
};

/** The renderer built like `npm run build` but unminified, into a temp dir `serve` is pointed at. */
async function unminifiedRenderer(): Promise<string> {
  const dir = join(out, 'renderer');
  await build({
    configFile: false,
    root: join(root, 'src/renderer'),
    plugins: [react(), memoisedMicromarkExtensions(root)],
    logLevel: 'warn',
    build: { outDir: dir, emptyOutDir: true, minify: false, rolldownOptions: { input: join(root, 'src/renderer/index.html') } },
  });
  return dir;
}

/** The host's own profile is written when it exits. */
const hostProfile = (dir: string): string => join(dir, readdirSync(dir).find((f) => f.endsWith('.cpuprofile'))!);

/** Runs `work` and prints the CPU each process of the host's tree (and this one) used meanwhile. */
async function cpuDuring<T>(hostPid: number, work: () => Promise<T>): Promise<T> {
  if (process.argv.includes('--pin')) pinHost(hostPid);
  const before = cpuByProcess(hostPid);
  const self = process.cpuUsage();
  const start = performance.now();
  const result = await work();
  const wall = (performance.now() - start) / 1000;
  const after = cpuByProcess(hostPid);
  const mine = process.cpuUsage(self);
  console.log(`CPU during it (${wall.toFixed(2)} s wall, 2 cores = ${(2 * wall).toFixed(2)} CPU s):`);
  for (const [pid, a] of after) {
    const used = a.seconds - (before.get(pid)?.seconds ?? 0);
    if (used >= 0.01) console.log(`  ${used.toFixed(2).padStart(6)} s  ${pid === hostPid ? 'host' : 'child'} ${pid} ${a.name}`);
  }
  console.log(`  ${((mine.user + mine.system) / 1e6).toFixed(2).padStart(6)} s  this benchmark client`);
  return result;
}

/** The clock of V8's CPU profiles and of bench/lib/gap-probe.mjs (CLOCK_MONOTONIC, µs), shared by every process. */
const monotonicUs = (): number => Number(process.hrtime.bigint() / 1000n);

async function profileHost(dataDir: string, work: (client: BenchClient, measure: <T>(fn: () => Promise<T>) => Promise<T>) => Promise<string>, env: NodeJS.ProcessEnv = {}): Promise<void> {
  const profDir = join(out, `host-${Date.now()}`);
  const gapFile = join(out, `gaps-${Date.now()}.json`);
  const measured = { start: 0, end: Number.POSITIVE_INFINITY };
  const gapProbe = pathToFileURL(join(import.meta.dirname, 'lib/gap-probe.mjs')).href;
  const serve = await startProbedServe(dataDir, [], ['--cpu-prof', `--cpu-prof-dir=${profDir}`, '--cpu-prof-interval=250', '--import', gapProbe], { ...env, SWITCHBOARD_GAP_FILE: gapFile });
  const client = await BenchClient.connect(serve.url);
  try {
    await serve.loop.reset();
    const what = await work(client, async (fn) => {
      measured.start = monotonicUs();
      try {
        return await cpuDuring(serve.child.pid!, fn);
      } finally {
        measured.end = monotonicUs();
      }
    });
    const loop = await serve.loop.read();
    // Beside the profile, for comparing two runs' measured parts (bench/profile-diff.ts).
    mkdirSync(profDir, { recursive: true });
    writeFileSync(join(profDir, 'measured.json'), JSON.stringify({ ...measured, label: what }));
    console.log(`${what}; host loop p99 ${loop.p99.toFixed(1)} ms, max ${loop.max.toFixed(1)} ms`);
  } finally {
    client.close();
    await serve.stop();
  }
  print('host (serve), whole process life', hostProfile(profDir), (f) => !f.where.startsWith('node:') && f.where !== ':0');
  print('host (serve), while measured', hostProfile(profDir), (f) => !f.where.startsWith('node:') && f.where !== ':0', [measured.start, measured.end]);
  // The stalls of the measured part only (start-up and shutdown stall too, and are not the question).
  const gaps = (JSON.parse(readFileSync(gapFile, 'utf8')) as [number, number][]).filter(([a]) => a >= measured.start && a <= measured.end);
  console.log(`\n== the longest of ${gaps.length} loop stalls over 8 ms while measured\n${stalls(read(hostProfile(profDir)), gaps).join('\n')}`);
  if (agentProfiles) {
    delete process.env.NODE_OPTIONS;
    if (!existsSync(agentProfiles)) throw new Error('no agent process wrote a profile');
    const files = readdirSync(agentProfiles).map((f) => join(agentProfiles, f));
    // The busiest agent process (the first one holds the most sessions).
    const busiest = files.map((f) => ({ f, busy: summarise(read(f), 1)[0]! })).sort((a, b) => Number(/([\d.]+) s busy/.exec(b.busy)?.[1]) - Number(/([\d.]+) s busy/.exec(a.busy)?.[1]))[0];
    if (busiest) print(`busiest of ${files.length} agent and watchdog processes, whole life`, busiest.f, (f) => !f.where.startsWith('node:') && f.where !== ':0');
  }
}

/** With --agents, every process the host starts (agents, watchdog) writes a CPU profile here. */
const agentProfiles = process.argv.includes('--agents') ? join(out, 'agents') : undefined;
if (agentProfiles) {
  process.env.NODE_OPTIONS = `--import=${pathToFileURL(join(import.meta.dirname, 'lib/cpu-prof-preload.mjs')).href}`;
  process.env.SWITCHBOARD_CPU_PROF_DIR = agentProfiles;
}

const [scenario, ...rest] = process.argv.slice(2).filter((a) => !a.startsWith('--'));
switch (scenario) {
  case 'stream': {
    const [profile = 'dense', kb = '100', chars] = rest;
    const env = { SWITCHBOARD_RENDERER_DIR: await unminifiedRenderer() };
    const streamFile = join(out, 'stream.cpuprofile');
    const traceFile = process.argv.includes('--trace') ? join(out, 'stream.trace.json') : undefined;
    const reopenFile = join(out, 'reopen.cpuprofile');
    const after = process.argv.includes('--after');
    const reopenTraceFile = after && traceFile ? join(out, 'reopen.trace.json') : undefined;
    const r = await measureStream(
      { profile: profile as MarkdownProfile, kb: Number(kb), rate: 200, chars: chars ? Number(chars) : undefined },
      { env, cpuProfile: streamFile, ...(traceFile ? { trace: traceFile } : {}), ...(after ? { after, reopenProfile: reopenFile } : {}), ...(reopenTraceFile ? { reopenTrace: reopenTraceFile } : {}), log: (m) => console.error(m) },
    );
    console.log(JSON.stringify(r));
    print(`page during /markdown ${kb} 200 ${profile}${chars ? ` ${chars}` : ''}`, streamFile);
    if (traceFile) console.log(`\n${traceLines(traceFile).join('\n')}\nfile: ${traceFile}`);
    if (after) print('page while the finished answer is reopened', reopenFile);
    if (reopenTraceFile) console.log(`\n${traceLines(reopenTraceFile).join('\n')}\nfile: ${reopenTraceFile}`);
    break;
  }
  case 'ingest': {
    const sessions = Number(rest[0] ?? 10);
    const total = Number(rest[1] ?? 100_000);
    const dir = tempDataDir();
    try {
      await profileHost(dir.path, async (client, measure) => {
        const ids: string[] = [];
        for (let i = 0; i < sessions; i++) ids.push(await liveSession(client));
        const each = Math.ceil(total / sessions);
        await Promise.all(ids.map((id) => promptTurn(client, id, `/flood ${Math.ceil(each / 4)}`)));
        const reps = Number(rest[2] ?? 1);
        const start = performance.now();
        await measure(async () => {
          for (let rep = 0; rep < reps; rep++) await Promise.all(ids.map((id) => promptTurn(client, id, `/flood ${each}`)));
        });
        const ms = (performance.now() - start) / reps;
        return `/flood ${each} in each of ${sessions} sessions, ${reps} times: ${ms.toFixed(0)} ms each, ${Math.round(((each * sessions) / ms) * 1000)} events/s (the profile covers start-up, session starts and a warm-up flood too)`;
      });
    } finally {
      dir.cleanup();
    }
    break;
  }
  case 'backfill': {
    const data = archive({ name: 'backfill-2000x500', sessions: 2_000, eventsPerSession: 500, backfill: true }, (m) => console.error(m));
    const copy = copyArchive(data);
    try {
      await profileHost(copy.path, async (client, measure) => {
        const start = performance.now();
        await measure(() => client.next('search:progress', (p: SearchProgressT) => p.done, 600_000));
        return `backfill of ${data.events} events: ${((performance.now() - start) / 1000).toFixed(1)} s`;
      });
    } finally {
      copy.cleanup();
    }
    break;
  }
  case 'git': {
    const fx = gitFixture(10_000, (m) => console.error(m));
    const dir = tempDataDir();
    try {
      await profileHost(
        dir.path,
        async (client, measure) => {
          const session = await worktreeSession(client, fx);
          return (await measure(() => gitWork(client, fx, session, 6))).detail;
        },
        fx.env,
      );
    } finally {
      dir.cleanup();
      fx.reset();
    }
    break;
  }
  case 'open': {
    const data = archive({ name: '10000x500', sessions: 10_000, eventsPerSession: 500, backfill: false }, (m) => console.error(m));
    // The browser first: one that cannot start leaves no host behind.
    const browser = await launchBrowser();
    const serve = await startServe(data.dataDir, [], { SWITCHBOARD_RENDERER_DIR: await unminifiedRenderer() });
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      await page.goto(serve.url);
      await page.locator('nav[aria-label="Sessions"] [data-session-id]').first().waitFor();
      const stop = await startProfiler(page);
      await page.reload();
      await page.locator('nav[aria-label="Sessions"] [data-session-id]').first().waitFor();
      await page.waitForTimeout(300);
      const file = join(out, 'open.cpuprofile');
      writeFileSync(file, JSON.stringify(await stop()));
      print('page loading on 10,000 sessions (reload → first entry + 300 ms)', file);
    } finally {
      await browser.close();
      await serve.stop();
    }
    break;
  }
  case 'first-text': {
    const browser = await launchBrowser();
    // A data folder given (say the big-db archive's) is used as it is: sessions made here stay in it.
    const given = rest[0];
    const dir = given ? { path: given, cleanup: () => {} } : tempDataDir();
    const serve = await startServe(dir.path, [], { SWITCHBOARD_RENDERER_DIR: await unminifiedRenderer() });
    try {
      const page = await openWindow(browser, serve.url);
      await newSession(page);
      const file = join(out, 'first-text.cpuprofile');
      const times: number[] = [];
      let stop: (() => Promise<unknown>) | undefined;
      for (let i = 0; i < 11; i++) {
        await newSession(page);
        if (i === 2) stop = await startProfiler(page);
        await armProbe(page, 'keydown', 'History: ');
        await sendPrompt(page, '/history');
        times.push(await probeMs(page));
      }
      writeFileSync(file, JSON.stringify(await stop!()));
      console.log(`Enter → first text: ${times.map((t) => t.toFixed(0)).join(', ')} ms`);
      print('page over 9 × (New session, /history, first text)', file);
    } finally {
      await browser.close();
      await serve.stop();
      dir.cleanup();
    }
    break;
  }
  case 'first-text-path': {
    const turns = Number(rest[0] ?? 12);
    const ioDir = join(out, 'io');
    mkdirSync(ioDir);
    const dir = tempDataDir();
    const serve = await startServe(dir.path, [], { NODE_OPTIONS: `--import ${pathToFileURL(join(root, 'bench/lib/io-trace.mjs')).href}`, SWITCHBOARD_IO_TRACE_DIR: ioDir });
    const browser = await launchBrowser();
    try {
      // The page's marks: the Enter, the prompt's send and the agent's text reaching its handler.
      // (No named functions inside: the bundler would wrap them in a helper the page lacks.)
      const page = await openWindow(browser, serve.url, () => {
        const w = window as unknown as { marks: { enter: number; sent?: number; textHandled?: number } | undefined };
        const socket = WebSocket.prototype;
        const send = socket.send;
        socket.send = function (this: WebSocket, data: string) {
          if (w.marks && w.marks.sent === undefined && data.includes('"prompt:send"')) w.marks.sent = performance.timeOrigin + performance.now();
          return send.call(this, data);
        };
        const listen = socket.addEventListener;
        Object.defineProperty(socket, 'onmessage', {
          set(this: WebSocket, handler: (e: MessageEvent) => void) {
            listen.call(this, 'message', (e: Event) => {
              const data = String((e as MessageEvent).data);
              if (w.marks && w.marks.textHandled === undefined && data.includes('"kind":"agent_message"')) w.marks.textHandled = performance.timeOrigin + performance.now();
              handler.call(this, e as MessageEvent);
            });
          },
        });
        document.addEventListener('keydown', (e) => e.key === 'Enter' && (w.marks = { enter: performance.timeOrigin + performance.now() }), { capture: true });
      });
      await newSession(page);
      const marks: PageMarks[] = [];
      for (let i = 0; i < turns + 2; i++) {
        await newSession(page);
        await page.waitForTimeout(300);
        await sendPrompt(page, '/history');
        await page.getByText('History: 0').last().waitFor();
        await page.waitForTimeout(100);
        const m = await page.evaluate(() => (window as unknown as { marks: PageMarks }).marks);
        if (i >= 2) marks.push(m);
      }
      const lines = readIoTrace(ioDir, serve.child.pid!);
      const all: Record<string, number>[] = [];
      for (const [i, m] of marks.entries()) {
        const hops = hopsOf(m, lines);
        if (typeof hops === 'string') console.log(`turn ${i + 1}: ${hops}`);
        else all.push(hops);
      }
      const med = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
      console.log(`\n${all.length} of ${marks.length} turns, /history in a new session; median and range of each hop (ms):`);
      for (const hop of HOPS) {
        const xs = all.map((h) => h[hop]!);
        console.log(`${med(xs).toFixed(1).padStart(7)}  (${Math.min(...xs).toFixed(1)}–${Math.max(...xs).toFixed(1)})  ${hop}`);
      }
      const totals = marks.map((m) => m.textHandled - m.enter);
      console.log(`${med(totals).toFixed(1).padStart(7)}  (${Math.min(...totals).toFixed(1)}–${Math.max(...totals).toFixed(1)})  Enter → text handled by the page (its paint is the next frame)`);
      console.log(`io traces: ${ioDir}`);
    } finally {
      await browser.close();
      await serve.stop();
      dir.cleanup();
    }
    break;
  }
  case 'ready': {
    // serve from spawn to its ready line; the profile stops at exit, so the shutdown is in it too.
    const dir = tempDataDir();
    try {
      await startServe(dir.path).then((s) => s.stop());
      const profDir = join(out, 'ready');
      const start = performance.now();
      const serve = await startProbedServe(dir.path, [], ['--cpu-prof', `--cpu-prof-dir=${profDir}`, '--cpu-prof-interval=100']);
      console.log(`ready after ${(performance.now() - start).toFixed(0)} ms (profiled)`);
      await serve.stop();
      print('serve start-up (and shutdown)', hostProfile(profDir));
    } finally {
      dir.cleanup();
    }
    break;
  }
  default:
    console.error('usage: node --import tsx bench/profile.ts stream|ingest|backfill|open|first-text|first-text-path|ready [ARGS] (see the top of bench/profile.ts)');
    process.exitCode = 2;
}
console.error(`profiles in ${out}`);
process.exit(process.exitCode ?? 0);
