import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test as base, type Page } from '@playwright/test';
import { killAll } from '../../src/main/test-support/processes';
import { startServe, type ServeProcess } from '../../e2e/support/serve';
import { newSession, sidebar } from '../../e2e/support/fixtures';
import { agentEntry, isInstalled, readManifest, type PinnedAgent } from './manifest';
import { qwenEnvironment } from './qwen-home';
import { RUN_MARKER_ENV, runProcesses } from './run-processes';
import { startStandInModel, type StandInModel, type StandInScript } from './stand-in-model';

export const manifest = readManifest();
export const pinned = (id: string): PinnedAgent => {
  const agent = manifest.agents.find((a) => a.id === id);
  if (!agent) throw new Error(`e2e-agents/agents.json has no agent ${id}`);
  return agent;
};

/** What the stand-in model makes Qwen Code do: write this file, then say this. */
export const QWEN_TURN = {
  trigger: 'Create notes.txt',
  file: 'notes.txt',
  content: 'Written by Qwen Code through Switchboard, on the stand-in model.\n',
  finalText: 'I wrote notes.txt for you.',
  /** A question the stand-in answers with the tools Qwen offered it (its MCP servers' among them). */
  toolsTrigger: 'Which tools do you have?',
  /** What the stand-in asks Qwen's tool search for: the MCP test server's tools are named after it. */
  toolsQuery: 'switchboard-tools',
} as const;

export interface Interop {
  /** The throwaway HOME every agent sees; also the session folder (the host's default). */
  home: string;
  dataDir: string;
  model: StandInModel;
  /** What the stand-in model makes Qwen do; a test may point `folder` at the session's own (a worktree). */
  script: StandInScript;
  serve: ServeProcess;
  marker: string;
  /** Agent processes (and their helpers) of this run still alive, the host excluded. */
  /** Agents and their helpers of this run (not the host's watchdog, which lives while it does). */
  agentProcesses(): ReturnType<typeof runProcesses>;
  /** Every process of this run but the host: agents, helpers and the host's watchdog. */
  leftovers(): ReturnType<typeof runProcesses>;
  /** Starts a new host on the same data folder and environment (the old one stopped or killed). */
  restart(): Promise<ServeProcess>;
}

/**
 * `interop`: a real `switchboard serve` whose `agents.json` lists every pinned agent, run with a
 * throwaway HOME (no real credentials, no real settings), a unique marker in its environment
 * to find its agents by, and Qwen Code pointed at a stand-in model started for the test.
 */
export const test = base.extend<{ interop: Interop }>({
  // Playwright reads a fixture's dependencies from its destructuring pattern: none here.
  // eslint-disable-next-line no-empty-pattern
  interop: async ({}, use) => {
    const missing = manifest.agents.filter((a) => !isInstalled(a));
    if (missing.length > 0) {
      throw new Error(`not installed: ${missing.map((a) => `${a.package}@${a.version}`).join(', ')}; run \`npm run test:agents\` (it installs them first)`);
    }
    const root = mkdtempSync(join(tmpdir(), 'switchboard-interop-'));
    const home = join(root, 'home');
    const dataDir = join(root, 'data');
    mkdirSync(home);
    mkdirSync(dataDir);
    const script: StandInScript = { ...QWEN_TURN, folder: home };
    const model = await startStandInModel(script);
    const qwenEnv = qwenEnvironment(home, model);
    const agents = manifest.agents.map((a) => agentEntry(a, a.id === 'qwen' ? qwenEnv : {}));
    writeFileSync(join(dataDir, 'agents.json'), `${JSON.stringify({ agents }, null, 2)}\n`);
    const marker = randomUUID();
    const env = { HOME: home, [RUN_MARKER_ENV]: marker };
    const interop: Interop = {
      home,
      dataDir,
      model,
      script,
      serve: await startServe(dataDir, [], env),
      marker,
      agentProcesses: () => runProcesses(marker, [interop.serve.child.pid], false),
      leftovers: () => runProcesses(marker, [interop.serve.child.pid]),
      async restart() {
        await interop.serve.stop();
        interop.serve = await startServe(dataDir, [], env);
        return interop.serve;
      },
    };
    try {
      await use(interop);
    } finally {
      await interop.serve.stop();
      // A test that failed may leave agents behind: never let them outlive the run.
      killAll(runProcesses(marker));
      await model.close();
      rmSync(root, { recursive: true, force: true });
    }
  },
});

export { expect };

/** Picks `agent` in the Agent list and starts a session on it through the window. */
/** A new session on `agent`, chosen in the New session dialog. */
export async function newSessionOn(page: Page, agent: PinnedAgent): Promise<void> {
  await newSession(page, { agent: agent.name });
}

export const currentEntry = (page: Page) => sidebar(page).locator('[aria-current="page"]');

/**
 * The session on `agent` reached the state the window shows once the agent answered
 * `initialize`: live (session/new succeeded), or refused for want of an account, in the
 * agent's own words (never a failure to start the process).
 */
export async function expectHandshake(page: Page, agent: PinnedAgent): Promise<void> {
  await expect(page.locator('.session-header .agent-name')).toHaveText(agent.name);
  if (agent.withoutAccount === 'session') {
    await expect(currentEntry(page)).toContainText('Idle');
    return;
  }
  // A signed-out agent answered the handshake and refused the session: the Sign in panel says so
  // in its words, and the session says it needs a sign-in (not that the agent failed).
  await expect(page.getByRole('region', { name: 'Sign in' })).toContainText(agent.signInError!);
  await expect(currentEntry(page)).toContainText('Needs sign-in');
  await expect(page.locator('main')).not.toContainText(/could not start|exited with code|was killed/i);
}

/** A session on every pinned agent, each in the state the window shows after the handshake. */
export async function sessionOnEveryAgent(page: Page): Promise<void> {
  for (const agent of manifest.agents) {
    await newSessionOn(page, agent);
    await expectHandshake(page, agent);
  }
}
