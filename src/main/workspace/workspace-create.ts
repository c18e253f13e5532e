import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import type { CommandParams, WorkspaceProbeT } from '../../shared/contract';
import { AppError } from '../../shared/errors';
import {
  canonicalPath,
  checkBranchName,
  claimWorktree,
  createWorktree,
  defaultWorktreePath,
  deleteBranch,
  discardPreparedWorktree,
  forgetWorktree,
  isGitError,
  probeFolder,
  requireState,
  slugify,
  suggestBranchName,
  type CreatedWorktree,
  type RepositoryFacts,
} from './git';
import { checkFolder } from './folders';
import type { PreparedPool } from './prepared-pool';
import type { SetupCommands } from './setup-commands';
import type { WorkspaceCore } from './workspace-core';

export interface OpenRequest {
  /** The folder the person chose (checked: absolute, an existing folder). */
  folder: string;
  /** `Separate worktree`: a worktree each on a new branch from this name. */
  worktree?: { branch: string };
  /** The sessions to open: the one asked for first, then `alsoRunOn`'s (a worktree each). */
  sessions: readonly { id: string; agentId: string }[];
}

export interface OpenedWorkspace {
  sessionId: string;
  /** Where the session works: its `cwd`. */
  cwd: string;
  /** Stores the workspace row (right after the session's own row, in the same step) and starts the setup command. */
  record(): void;
}

export interface OpenedWorkspaces {
  sessions: OpenedWorkspace[];
  /** Takes back what was made when the sessions could not be created: worktrees, branches, the group. */
  abandon(): Promise<void>;
}

/**
 * Where new sessions work (the New session dialog's probe, then `sessions:create`): a worktree
 * each on a new branch from the checkout's HEAD, the repository folder shared, or the folder as
 * it is outside any repository. Worktrees made ahead (`PreparedPool`) are claimed first.
 */
export class WorkspaceCreator {
  constructor(
    private readonly core: WorkspaceCore,
    private readonly pool: PreparedPool,
    private readonly setup: SetupCommands,
  ) {}

  async probe(request: CommandParams<'workspace:probe'>): Promise<WorkspaceProbeT> {
    const { o } = this.core;
    const checked = checkFolder(request.path);
    if (!checked.ok) return { kind: 'not_repository' };
    let facts: RepositoryFacts;
    try {
      const probe = await probeFolder(this.core.git, checked.path);
      if (probe.kind !== 'repository') return { kind: 'not_repository' };
      facts = probe.facts;
    } catch (err) {
      if (isGitError(err, 'git_missing') || isGitError(err, 'too_old')) return { kind: 'no_git', message: err.message };
      throw isGitError(err) ? err.toAppError() : err;
    }
    const remembered = o.store.workspaces.repository(facts.commonDir);
    const worktreeDefault = remembered ? remembered.worktree_default === 1 : true;
    let worktree: Extract<WorkspaceProbeT, { kind: 'repository' }>['worktree'] = { ok: true };
    try {
      requireState(facts, 'make a worktree', { branch: true, commit: true, noSubmodules: true });
    } catch (err) {
      if (!isGitError(err)) throw err;
      const problem = err.code === 'detached_head' || err.code === 'unborn_head' || err.code === 'operation_in_progress' || err.code === 'submodules' ? err.code : undefined;
      if (!problem) throw err.toAppError();
      worktree = { ok: false, problem, message: err.message };
    }
    let suggestedBranch: string | undefined;
    if (worktree.ok) {
      const shortId = (request.sessionId ?? randomUUID()).slice(0, 8);
      suggestedBranch = await this.core.gitCall(suggestBranchName(this.core.git, facts.topLevel, { title: request.title ?? '', shortId }));
      if (request.prepare) this.pool.prepare(facts.commonDir, facts.topLevel, o.worktreeRoot());
    }
    return {
      kind: 'repository',
      topLevel: facts.topLevel,
      ...(facts.branch !== undefined ? { branch: facts.branch } : {}),
      ...(facts.head !== undefined ? { head: facts.head } : {}),
      worktree,
      ...(suggestedBranch ? { suggestedBranch } : {}),
      worktreeDefault,
      ...(remembered?.setup_command ? { setupCommand: remembered.setup_command } : {}),
      preparing: this.pool.has(facts.commonDir),
    };
  }

  /**
   * The folder as it is, at once, when no `.git` is in it or above it (so git would find no
   * repository) and no worktree is asked for: a session there is created in one step, as before
   * workspaces existed. Undefined when git must be asked (`open`).
   */
  openPlain(request: OpenRequest): OpenedWorkspaces | undefined {
    const [first] = request.sessions;
    if (!first || request.worktree || request.sessions.length > 1 || insideGitCheckout(request.folder)) return undefined;
    return plain(request.folder, first.id);
  }

  async open(request: OpenRequest): Promise<OpenedWorkspaces> {
    const [first] = request.sessions;
    if (!first) throw new AppError('invalid_request', 'No session to open a workspace for.');
    if (request.sessions.length > 1 && !request.worktree) {
      throw new AppError('invalid_request', '"Also run on" needs "Separate worktree": each agent works in a worktree of its own.');
    }
    let facts: RepositoryFacts | undefined;
    try {
      const probe = await probeFolder(this.core.git, request.folder);
      if (probe.kind === 'repository') facts = probe.facts;
    } catch (err) {
      // Without a usable git a folder works as it always did, unless a worktree was asked for.
      if (!isGitError(err) || request.worktree) throw isGitError(err) ? err.toAppError() : err;
      this.core.o.logger.warn('git cannot read the folder; the session works in it without checkpoints', { folder: request.folder, error: err.message });
    }
    if (!facts) {
      if (request.worktree) throw new AppError('invalid_request', `${request.folder} is not in a git repository: a separate worktree needs one.`);
      return plain(request.folder, first.id);
    }
    this.remember(facts, request.worktree !== undefined);
    if (!request.worktree) return this.shared(request.folder, facts, first.id);
    return this.worktrees(request, facts, request.worktree.branch);
  }

  /** The box's last choice for this repository (the next dialog starts from it). */
  private remember(facts: RepositoryFacts, worktree: boolean): void {
    const { workspaces } = this.core.o.store;
    const known = workspaces.repository(facts.commonDir);
    workspaces.saveRepository(
      { common_dir: facts.commonDir, top_level: known?.top_level ?? facts.topLevel, worktree_default: worktree ? 1 : 0, setup_command: known?.setup_command ?? null },
      this.core.now(),
    );
  }

  private shared(folder: string, facts: RepositoryFacts, sessionId: string): OpenedWorkspaces {
    const record = (): void =>
      this.core.o.store.workspaces.insert(
        {
          session_id: sessionId,
          kind: 'shared',
          folder,
          repo_top: facts.topLevel,
          common_dir: facts.commonDir,
          worktree_path: null,
          branch: null,
          base_branch: facts.branch ?? null,
          base_commit: facts.head ?? null,
          group_id: null,
        },
        this.core.now(),
      );
    return { sessions: [{ sessionId, cwd: folder, record }], abandon: () => Promise.resolve() };
  }

  private async worktrees(request: OpenRequest, facts: RepositoryFacts, branch: string): Promise<OpenedWorkspaces> {
    const { o } = this.core;
    const git = this.core.git;
    const root = o.worktreeRoot();
    const names = await this.branchNames(facts.topLevel, branch, request.sessions.map((s) => s.agentId));
    const made: CreatedWorktree[] = [];
    const abandon = async (): Promise<void> => {
      for (const wt of made.splice(0)) {
        await forgetWorktree(git, wt.repo, wt.path);
        await deleteBranch(git, wt.repo, wt.branch).catch((err: unknown) => o.logger.warn('removing the branch of a worktree taken back failed', { branch: wt.branch, error: String(err) }));
      }
    };
    try {
      for (const [i, name] of names.entries()) {
        const path = freePath(defaultWorktreePath(root, facts.topLevel, name));
        made.push(i === 0 ? await this.claimOrCreate(facts, request.folder, name, path, root) : await createWorktree(git, { repoDir: request.folder, branch: name, path }));
      }
    } catch (err) {
      await abandon().catch((undoErr: unknown) => o.logger.error('taking back half-made worktrees failed', { error: String(undoErr) }));
      throw isGitError(err) ? err.toAppError() : err;
    }
    const within = subfolder(facts.topLevel, request.folder);
    const setupCommand = o.store.workspaces.repository(facts.commonDir)?.setup_command ?? undefined;
    const groupId = request.sessions.length > 1 ? randomUUID() : undefined;
    const sessions = request.sessions.map((s, i): OpenedWorkspace => {
      const wt = made[i]!;
      const cwd = within ? join(wt.path, within) : wt.path;
      return {
        sessionId: s.id,
        cwd: existsSync(cwd) ? cwd : wt.path,
        record: () => {
          if (groupId && i === 0) o.store.workspaces.addGroup(groupId, this.core.now());
          o.store.workspaces.insert(
            {
              session_id: s.id,
              kind: 'worktree',
              folder: request.folder,
              repo_top: wt.repo,
              common_dir: wt.commonDir,
              worktree_path: wt.path,
              branch: wt.branch,
              base_branch: wt.baseBranch,
              base_commit: wt.baseCommit,
              group_id: groupId ?? null,
            },
            this.core.now(),
          );
          made.splice(made.indexOf(wt), 1);
          if (setupCommand) this.setup.start(s.id, setupCommand, wt.path);
        },
      };
    });
    return { sessions, abandon };
  }

  /** The prepared worktree of this repository, claimed; else one made now. */
  private async claimOrCreate(facts: RepositoryFacts, folder: string, branch: string, path: string, root: string): Promise<CreatedWorktree> {
    const git = this.core.git;
    const prepared = await this.pool.take(facts.commonDir, root);
    if (!prepared) return createWorktree(git, { repoDir: folder, branch, path });
    try {
      return await claimWorktree(git, { prepared, repoDir: folder, branch, path });
    } catch (err) {
      // A claim refused before it began leaves the prepared worktree: it was taken from the pool, so it goes.
      await discardPreparedWorktree(git, prepared).catch((e: unknown) => this.core.o.logger.warn('removing a prepared worktree failed', { path: prepared.path, error: String(e) }));
      throw err;
    }
  }

  /**
   * The branch of each session: the name asked for, or with `alsoRunOn` that name and each
   * agent's (`fix-login-claude`, `fix-login-gemini`, numbered when an agent is there twice or a
   * name is taken). The name asked for is checked as given: a bad or taken one is refused.
   */
  private async branchNames(repo: string, branch: string, agents: readonly string[]): Promise<string[]> {
    const git = this.core.git;
    const asked = await this.core.gitCall(checkBranchName(git, repo, branch));
    if (!asked.ok) throw new AppError(asked.problem === 'invalid' ? 'invalid_request' : 'already_exists', asked.message, { git: { problem: asked.problem === 'invalid' ? 'invalid_branch' : 'branch_taken' } });
    if (agents.length === 1) return [branch];
    const names: string[] = [];
    for (const agent of agents) {
      const stem = `${branch}-${slugify(agent, 30) || 'agent'}`;
      let chosen: string | undefined;
      for (let n = 1; n < 100 && chosen === undefined; n++) {
        const name = n === 1 ? stem : `${stem}-${n}`;
        if (!names.includes(name) && (await this.core.gitCall(checkBranchName(git, repo, name))).ok) chosen = name;
      }
      if (chosen === undefined) throw new AppError('already_exists', `No free branch name found for ${agent} from "${branch}".`, { git: { problem: 'branch_taken' } });
      names.push(chosen);
    }
    return names;
  }
}

function plain(folder: string, sessionId: string): OpenedWorkspaces {
  return { sessions: [{ sessionId, cwd: folder, record: () => {} }], abandon: () => Promise.resolve() };
}

/** A `.git` (folder or file) in `folder` or a folder above it: where git would look for a repository. */
function insideGitCheckout(folder: string): boolean {
  for (let dir = resolve(folder); ; dir = dirname(dir)) {
    if (existsSync(join(dir, '.git'))) return true;
    if (dirname(dir) === dir) return false;
  }
}

/** `path`, or `path-2`, `path-3`… if a folder is there already (two branches may slug alike). */
function freePath(path: string): string {
  if (!existsSync(path)) return path;
  for (let n = 2; ; n++) if (!existsSync(`${path}-${n}`)) return `${path}-${n}`;
}

/** Where `folder` sits inside the checkout `top` (`''` at its top): the session works in the same place in its worktree. */
function subfolder(top: string, folder: string): string {
  const rel = relative(top, canonicalPath(folder));
  return rel === '' || rel.startsWith('..') || isAbsolute(rel) ? '' : rel;
}
