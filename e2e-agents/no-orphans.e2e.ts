import { openApp, sidebar } from '../e2e/support/fixtures';
import { killAll, waitUntil } from '../src/main/test-support/processes';
import { isWatchdog, listing } from './support/run-processes';
import { expect, manifest, sessionOnEveryAgent, test, type Interop } from './support/interop';

/** Polls until no agent process of this run is left; the message lists any that are. */
async function expectNoAgentProcesses(interop: Interop, withinMs: number): Promise<void> {
  await waitUntil(() => interop.agentProcesses().length === 0, 'no agent process left', withinMs, 100).catch((err: Error) => {
    throw new Error(`${err.message}; still running:\n${listing(interop.agentProcesses())}`);
  });
}

test.describe('no agent process outlives its session or its host', () => {
  test('closing every session leaves no agent process', async ({ page, interop }) => {
    await openApp(page, interop.serve.url);
    await sessionOnEveryAgent(page);
    expect(interop.agentProcesses().length).toBeGreaterThan(0);
    const entries = sidebar(page).getByRole('link');
    await expect(entries).toHaveCount(manifest.agents.length);
    for (let i = 0; i < manifest.agents.length; i++) {
      await entries.nth(i).click();
      await expect(entries.nth(i)).toHaveAttribute('aria-current', 'page');
      // Today a session whose agent refused session/new cannot be closed (issue 11 makes every
      // session closable); its agent must be gone anyway, which the count below checks.
      const close = page.getByRole('button', { name: 'Close session' });
      if (await close.isEnabled()) await close.click();
    }
    await expectNoAgentProcesses(interop, 15_000);
  });

  test('quitting the host (SIGTERM) leaves no agent process', async ({ page, interop }) => {
    await openApp(page, interop.serve.url);
    await sessionOnEveryAgent(page);
    expect(interop.agentProcesses().length).toBeGreaterThan(0);
    const code = await interop.serve.stop('SIGTERM');
    expect(code, `serve should exit cleanly; its stderr:\n${interop.serve.stderr()}`).toBe(0);
    await expectNoAgentProcesses(interop, 5_000);
  });

  // The host's watchdog outlives a SIGKILLed host just long enough to kill its agents' process
  // groups and marked helpers (ADR 0012): Zed's Claude adapter 0.16 and the `claude` CLI under it
  // ignore the end of their input, so nothing else would end them before the next start.
  test('killing the host (SIGKILL) leaves no agent process, and no watchdog, within 3 s', async ({ page, interop }) => {
    await openApp(page, interop.serve.url);
    await sessionOnEveryAgent(page);
    expect(interop.agentProcesses().length).toBeGreaterThan(0);
    await interop.serve.stop('SIGKILL');
    // Issue 11's measure: 0 agent processes 3 s after `kill -9` of the host.
    await waitUntil(() => interop.leftovers().length === 0, 'nothing of the killed host left', 3_000, 100).catch((err: Error) => {
      throw new Error(`${err.message}; still running:\n${listing(interop.leftovers())}`);
    });
  });

  test('after the host was killed, the next host on the same data folder ends what it left', async ({ page, interop }) => {
    await openApp(page, interop.serve.url);
    await sessionOnEveryAgent(page);
    const before = interop.agentProcesses();
    expect(before.length).toBeGreaterThan(0);
    // The second line of defence on its own: the watchdog and its host are killed together (in
    // one synchronous step, so the host can't start a new watchdog), and only the sweep is left.
    killAll(interop.leftovers().filter(isWatchdog));
    await interop.serve.stop('SIGKILL');
    await interop.restart();
    await expectNoAgentProcesses(interop, 15_000);
  });
});
