/**
 * Parsers for git's machine-readable output only (`-z`, `--porcelain=v2`, `--raw`, `--numstat`).
 * With `-z` a path is printed byte for byte, NUL-terminated: spaces, Unicode and newlines come
 * back intact, and NUL never occurs inside a UTF-8 sequence, so splitting decoded text is safe.
 */

/** NUL-separated fields; the terminator after the last one does not make an empty field. */
export function splitNul(text: string): string[] {
  if (text === '') return [];
  const parts = text.split('\0');
  if (parts[parts.length - 1] === '') parts.pop();
  return parts;
}

/** Splits off the first `count` space-separated fields; the rest (a path, spaces and all) is the last element. */
function fields(record: string, count: number): string[] | undefined {
  const out: string[] = [];
  let at = 0;
  for (let i = 0; i < count; i++) {
    const space = record.indexOf(' ', at);
    if (space < 0) return undefined;
    out.push(record.slice(at, space));
    at = space + 1;
  }
  out.push(record.slice(at));
  return out;
}

// ── git status --porcelain=v2 -z [--branch] ──────────────────────────────────────────────

export interface StatusEntry {
  /** `changed` (ordinary), `renamed` (or copied, in the index), `unmerged`, `untracked`, `ignored`. */
  kind: 'changed' | 'renamed' | 'unmerged' | 'untracked' | 'ignored';
  /** Index and worktree status letters (`.M`, `A.`, `UU`); `??`/`!!` for untracked/ignored. */
  xy: string;
  path: string;
  /** The path before a rename. */
  origPath?: string;
  /** The entry is a submodule (`S...` in the sub field). */
  submodule: boolean;
}

export interface StatusBranch {
  /** `undefined` on an unborn branch (`(initial)`). */
  oid: string | undefined;
  /** `undefined` when HEAD is detached. */
  head: string | undefined;
  upstream: string | undefined;
  ahead: number | undefined;
  behind: number | undefined;
}

export interface ParsedStatus {
  branch: StatusBranch;
  entries: StatusEntry[];
}

export function parseStatusV2(text: string): ParsedStatus {
  const branch: StatusBranch = { oid: undefined, head: undefined, upstream: undefined, ahead: undefined, behind: undefined };
  const entries: StatusEntry[] = [];
  const records = splitNul(text);
  for (let i = 0; i < records.length; i++) {
    const record = records[i]!;
    const kind = record[0];
    if (kind === '#') {
      const [, key, value] = fields(record, 2) ?? [];
      if (key === 'branch.oid') branch.oid = value === '(initial)' ? undefined : value;
      else if (key === 'branch.head') branch.head = value === '(detached)' ? undefined : value;
      else if (key === 'branch.upstream') branch.upstream = value;
      else if (key === 'branch.ab') {
        const m = /^\+(\d+) -(\d+)$/.exec(value ?? '');
        if (m) [branch.ahead, branch.behind] = [Number(m[1]), Number(m[2])];
      }
    } else if (kind === '1') {
      const f = fields(record, 8);
      if (f) entries.push({ kind: 'changed', xy: f[1]!, path: f[8]!, submodule: f[2]![0] === 'S' });
    } else if (kind === '2') {
      // The original path follows as its own NUL-terminated field.
      const f = fields(record, 9);
      const orig = records[++i];
      if (f) entries.push({ kind: 'renamed', xy: f[1]!, path: f[9]!, origPath: orig, submodule: f[2]![0] === 'S' });
    } else if (kind === 'u') {
      const f = fields(record, 10);
      if (f) entries.push({ kind: 'unmerged', xy: f[1]!, path: f[10]!, submodule: f[2]![0] === 'S' });
    } else if (kind === '?') {
      entries.push({ kind: 'untracked', xy: '??', path: record.slice(2), submodule: false });
    } else if (kind === '!') {
      entries.push({ kind: 'ignored', xy: '!!', path: record.slice(2), submodule: false });
    }
  }
  return { branch, entries };
}

// ── git diff --raw --numstat -z [-M] ─────────────────────────────────────────────────────

export interface DiffEntry {
  /** git's status letter: A, D, M, R, C, T (type change), U (unmerged). */
  status: string;
  path: string;
  /** The source path of a rename or copy. */
  from?: string;
  srcMode: string;
  dstMode: string;
  /** Object ids (abbreviated unless `--no-abbrev`); all zeros for "none" or "not hashed yet". */
  srcSha: string;
  dstSha: string;
  /** Line counts; `undefined` for a binary file. */
  added: number | undefined;
  removed: number | undefined;
  binary: boolean;
}

/**
 * `--raw` and `--numstat` together: the raw records come first (status letters and modes), then
 * the numstat records (line counts, `-` for binary); they are joined by path.
 */
export function parseRawNumstat(text: string): DiffEntry[] {
  const tokens = splitNul(text);
  const entries: DiffEntry[] = [];
  let i = 0;
  while (i < tokens.length && tokens[i]!.startsWith(':')) {
    const head = tokens[i++]!.slice(1).split(' ');
    const [srcMode = '', dstMode = '', srcSha = '', dstSha = '', statusField = ''] = head;
    const status = statusField[0] ?? '?';
    const common = { status, srcMode, dstMode, srcSha, dstSha, added: undefined, removed: undefined, binary: false };
    if (status === 'R' || status === 'C') {
      const from = tokens[i++]!;
      entries.push({ ...common, from, path: tokens[i++]! });
    } else {
      entries.push({ ...common, path: tokens[i++]! });
    }
  }
  const byPath = new Map<string, DiffEntry>();
  for (const e of entries) byPath.set(e.path, e);
  while (i < tokens.length) {
    const record = tokens[i++]!;
    const m = /^(\d+|-)\t(\d+|-)\t([\s\S]*)$/.exec(record);
    if (!m) continue;
    let path = m[3]!;
    if (path === '') {
      i++; // the source path of a rename
      path = tokens[i++] ?? '';
    }
    const entry = byPath.get(path);
    if (!entry) continue;
    entry.binary = m[1] === '-';
    entry.added = entry.binary ? undefined : Number(m[1]);
    entry.removed = entry.binary ? undefined : Number(m[2]);
  }
  return entries;
}

// ── git worktree list --porcelain -z ─────────────────────────────────────────────────────

export interface WorktreeRecord {
  path: string;
  /** `undefined` for a bare main repository or an unborn branch. */
  head: string | undefined;
  /** Full ref name (`refs/heads/x`); `undefined` when detached. */
  branch: string | undefined;
  bare: boolean;
  detached: boolean;
  /** Locked, with the reason when one was given (`''` otherwise). */
  locked: string | undefined;
  /** git would prune it (its folder is gone), with git's reason. */
  prunable: string | undefined;
}

/**
 * `-z` output (`nul`, git 2.36+), or the line-based output of older gits (`\n`), where a folder
 * name holding a line break cannot be told apart.
 */
export function parseWorktreeList(text: string, separator: '\0' | '\n' = '\0'): WorktreeRecord[] {
  const out: WorktreeRecord[] = [];
  let current: WorktreeRecord | undefined;
  // Records are separated by an empty field (two separators in a row).
  for (const field of text.split(separator)) {
    if (field === '') {
      if (current) out.push(current);
      current = undefined;
      continue;
    }
    const space = field.indexOf(' ');
    const key = space < 0 ? field : field.slice(0, space);
    const value = space < 0 ? '' : field.slice(space + 1);
    if (key === 'worktree') {
      if (current) out.push(current);
      current = { path: value, head: undefined, branch: undefined, bare: false, detached: false, locked: undefined, prunable: undefined };
      continue;
    }
    if (!current) continue;
    if (key === 'HEAD') current.head = /^0+$/.test(value) ? undefined : value;
    else if (key === 'branch') current.branch = value;
    else if (key === 'bare') current.bare = true;
    else if (key === 'detached') current.detached = true;
    else if (key === 'locked') current.locked = value;
    else if (key === 'prunable') current.prunable = value;
  }
  if (current) out.push(current);
  return out;
}
