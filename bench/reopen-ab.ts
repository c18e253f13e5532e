/**
 * `node --import tsx bench/reopen-ab.ts ROUNDS RENDERER_DIR [RENDERER_DIR ...] [--profile=mixed|dense] [--data=DIR]`:
 * the reopening of a finished 1 MB answer (`reopen_PROFILE_1m_ms`) timed for two or more builds
 * of the renderer side by side, in turn, so a change can be judged against the build before it on
 * this machine, whose speed drifts by 10–25% over minutes.
 *
 * The answer is streamed once into a data folder (kept with --data, reused when it is there).
 * Then, each round, for each build in turn: a copy of that folder, `serve` on it with the build
 * (`SWITCHBOARD_RENDERER_DIR`), a window opened on the other session, reloaded, and a click on
 * the answer's session → its last line painted, as `npm run bench` times it (`timeReopen`). Only that first
 * reopening after the host starts is taken: later ones in the same browser read 40–50 ms less
 * (the page's compiled code is cached by then), which is not what the benchmark measures.
 *
 * Build a renderer to compare with `npx electron-vite build` and copy `out/renderer` aside.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MARKDOWN_END } from '../src/agents/demo/markdown-doc';
import { startServe } from '../e2e/support/serve';
import { launchBrowser, newSession, openWindow, sendPrompt, turnOver } from './lib/browser';
import { endPainted, watchEnd } from './lib/page-probes';
import { timeReopen } from './stream-window';
import { median } from './lib/stats';

const option = (name: string): string | undefined => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const [rounds, ...builds] = process.argv.slice(2).filter((a) => !a.startsWith('--'));
if (!rounds || builds.length === 0 || !(Number(rounds) > 0)) {
  console.error('usage: node --import tsx bench/reopen-ab.ts ROUNDS RENDERER_DIR [RENDERER_DIR ...] [--profile=mixed|dense] [--data=DIR]');
  process.exit(2);
}
for (const dir of builds) if (!existsSync(join(dir, 'index.html'))) throw new Error(`${dir} is not a built renderer (no index.html)`);
const profile = option('profile') ?? 'mixed';
const data = option('data') ?? mkdtempSync(join(tmpdir(), 'switchboard-reopen-'));
const idsFile = join(data, 'reopen-ids.json');

const browser = await launchBrowser();
try {
  if (!existsSync(idsFile)) {
    mkdirSync(data, { recursive: true });
    console.error(`streaming /markdown 1024 … ${profile} into ${data}`);
    const serve = await startServe(data);
    try {
      const page = await openWindow(browser, serve.url);
      const other = await newSession(page);
      await watchEnd(page, MARKDOWN_END);
      await sendPrompt(page, `/markdown 2 1000 ${profile}`);
      await endPainted(page, 60_000);
      await turnOver(page);
      const answer = await newSession(page);
      await watchEnd(page, MARKDOWN_END);
      await sendPrompt(page, `/markdown 1024 1000 ${profile} 200`);
      await endPainted(page, 600_000);
      await turnOver(page);
      await page.close();
      writeFileSync(idsFile, JSON.stringify({ answer, other }));
    } finally {
      await serve.stop();
    }
  }
  const ids = JSON.parse(readFileSync(idsFile, 'utf8')) as { answer: string; other: string };
  const times = new Map<string, number[]>(builds.map((b) => [b, []]));
  const copy = `${data}-run`;
  for (let round = 1; round <= Number(rounds); round++) {
    for (const build of builds) {
      rmSync(copy, { recursive: true, force: true });
      cpSync(data, copy, { recursive: true });
      const serve = await startServe(copy, [], { SWITCHBOARD_RENDERER_DIR: build });
      try {
        const page = await openWindow(browser, serve.url);
        const ms = (await timeReopen(page, ids.answer, ids.other)).paintedMs;
        times.get(build)!.push(ms);
        console.error(`round ${round}: ${build} ${ms.toFixed(1)} ms`);
        await page.close();
      } finally {
        await serve.stop();
      }
    }
  }
  rmSync(copy, { recursive: true, force: true });
  for (const [build, ms] of times) {
    const sorted = [...ms].sort((a, b) => a - b);
    console.log(`${build}: median ${median(ms).toFixed(1)} ms, min ${sorted[0]!.toFixed(1)}, max ${sorted.at(-1)!.toFixed(1)} (${ms.length} reopenings: ${ms.map((x) => x.toFixed(0)).join(', ')})`);
  }
  if (!option('data')) rmSync(data, { recursive: true, force: true });
} finally {
  await browser.close();
}
