import type { Migration } from './index';

/**
 * Workspaces (issue 19). `workspaces`: a session's git worktree (its folder, branch, the branch
 * and commit it was made from) or the repository folder it shares, with the repository it
 * belongs to (`repo_top`: the checkout the person chose, where merges run; `common_dir`: git's
 * shared folder, one per repository whatever the worktree). `checkpoints`: the commit recorded
 * on `refs/switchboard/<session>/<id>` before each turn (`client_message_id`) and before each
 * restore, revert, discard or archive. `repositories`: per repository (by `common_dir`) the
 * `Separate worktree` box's last choice and the setup command. `session_groups`: sessions
 * started together on one task, and whether their first prompt went out.
 */
export const m0015: Migration = {
  version: 15,
  name: 'workspaces',
  up(db) {
    db.exec(`
      CREATE TABLE session_groups (
        id               TEXT PRIMARY KEY,
        created_at       INTEGER NOT NULL,
        first_prompt_at  INTEGER
      );
      CREATE TABLE workspaces (
        session_id     TEXT PRIMARY KEY REFERENCES sessions (id) ON DELETE CASCADE,
        kind           TEXT NOT NULL CHECK (kind IN ('worktree', 'shared')),
        folder         TEXT NOT NULL,
        repo_top       TEXT NOT NULL,
        common_dir     TEXT NOT NULL,
        worktree_path  TEXT,
        branch         TEXT,
        base_branch    TEXT,
        base_commit    TEXT,
        group_id       TEXT REFERENCES session_groups (id) ON DELETE SET NULL,
        missing_at     INTEGER,
        removed_at     INTEGER,
        setup_command  TEXT,
        setup_state    TEXT CHECK (setup_state IN ('running', 'succeeded', 'failed')),
        setup_exit     INTEGER,
        created_at     INTEGER NOT NULL,
        updated_at     INTEGER NOT NULL,
        CHECK (kind = 'shared' OR (worktree_path IS NOT NULL AND branch IS NOT NULL AND base_branch IS NOT NULL AND base_commit IS NOT NULL))
      );
      CREATE INDEX workspaces_common_dir ON workspaces (common_dir);
      CREATE INDEX workspaces_group ON workspaces (group_id) WHERE group_id IS NOT NULL;
      CREATE TABLE checkpoints (
        session_id         TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
        checkpoint_id      TEXT NOT NULL,
        reason             TEXT NOT NULL CHECK (reason IN ('turn', 'restore', 'revert', 'discard', 'archive', 'delete')),
        client_message_id  TEXT,
        ref                TEXT NOT NULL,
        commit_id          TEXT NOT NULL,
        at                 INTEGER NOT NULL,
        PRIMARY KEY (session_id, checkpoint_id)
      );
      CREATE TABLE repositories (
        common_dir        TEXT PRIMARY KEY,
        top_level         TEXT NOT NULL,
        worktree_default  INTEGER NOT NULL DEFAULT 1 CHECK (worktree_default IN (0, 1)),
        setup_command     TEXT,
        updated_at        INTEGER NOT NULL
      );
    `);
  },
};
