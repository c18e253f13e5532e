import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CommandRequest, SessionViewT } from '../../shared/contract';
import type { HostOptions } from '../host/session-host';
import { gitSandbox, type GitSandbox } from './git-repos';
import { startHarness, type Harness, type TestWindow } from './host-harness';

/**
 * A real host (real demo agent) whose git works only in a sandbox (its own HOME and config),
 * with repositories made in temp folders: issue 19's host tests.
 */
export interface GitHost {
  sb: GitSandbox;
  h: Harness;
  w: TestWindow;
  cleanup(): Promise<void>;
}

export async function startGitHost(options: Partial<HostOptions> = {}): Promise<GitHost> {
  const sb = gitSandbox();
  const h = await startHarness({ gitEnv: sb.env, setupEnv: sb.env, ...options });
  const w = h.window();
  return {
    sb,
    h,
    w,
    async cleanup() {
      await h.cleanup();
      sb.cleanup();
    },
  };
}

/** The worktrees git lists for the repository at `repo`, its main checkout left out. */
export function linkedWorktrees(sb: GitSandbox, repo: string): string[] {
  return sb
    .sh(repo, 'worktree', 'list', '--porcelain')
    .split('\n')
    .filter((line) => line.startsWith('worktree '))
    .map((line) => line.slice('worktree '.length))
    .slice(1);
}

/** Creates a session `w` watches and waits until its agent is live. */
export async function openSession(w: TestWindow, request: CommandRequest<'sessions:create'>): Promise<SessionViewT> {
  const view = await w.call('sessions:create', request);
  await w.call('sessions:switch', { sessionId: view.id });
  await w.waitFor('session:updated', (v) => v.id === view.id && v.state === 'ACTIVE');
  return view;
}

/** Has the demo agent write `text` to `path` (relative to its folder) through `fs/write_text_file`; resolves at the turn's end. */
export async function agentWrites(w: TestWindow, sessionId: string, path: string, text: string): Promise<void> {
  const end = await w.prompt(sessionId, `/write ${path} ${text}`);
  if (end.kind !== 'turn_ended' || end.payload.stopReason !== 'end_turn') throw new Error(`the write turn ended ${JSON.stringify(end.payload)}`);
}

export function readText(dir: string, path: string): string {
  return readFileSync(join(dir, path), 'utf8');
}

/** Waits for the checkpoint taken before the turn of `clientMessageId` (it may be recorded just after a quick turn ends). */
export function checkpointed(w: TestWindow, sessionId: string, clientMessageId: string): Promise<unknown> {
  return w.waitFor('session:event', (e) => e.sessionId === sessionId && e.kind === 'checkpoint' && e.payload.clientMessageId === clientMessageId);
}
