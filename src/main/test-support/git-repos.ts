import { execFileSync } from 'node:child_process';
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * Real git repositories for tests, in a temp folder, with a git that reads no global or system
 * config (its HOME and GIT_CONFIG_GLOBAL are the sandbox's), so nothing on the machine changes
 * the outcome and no test writes outside the sandbox.
 */
/** File names git quotes or splits in its human output; through -z each must come back byte for byte. */
export const AWKWARD_NAMES = ['sp ace.txt', 'ünïcødé 名前.txt', 'new\nline.txt', 'tab\there.txt', 'quote"s.txt', 'back\\slash.txt', ':colon.txt', '*star?.txt', '-dash.txt', 'dir with space/inner file.txt'];

export interface GitSandbox {
  /** The sandbox folder (real path). */
  root: string;
  /** The environment for the Git runner under test and for `sh`. */
  env: NodeJS.ProcessEnv;
  /** Runs git synchronously in `cwd`; its stdout. Throws on failure. */
  sh(cwd: string, ...args: string[]): string;
  /** A new repository `root/name` on branch `main`, with `files` committed (none: an unborn branch). */
  repo(name: string, files?: Record<string, string>): string;
  /** Writes files (folders made as needed) under `dir`. */
  write(dir: string, files: Record<string, string>): void;
  cleanup(): void;
}

export function gitSandbox(): GitSandbox {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'switchboard-git-')));
  const home = join(root, '.home');
  mkdirSync(home);
  const globalConfig = join(home, '.gitconfig');
  writeFileSync(globalConfig, '');
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, XDG_CONFIG_HOME: home, GIT_CONFIG_GLOBAL: globalConfig, GIT_CONFIG_NOSYSTEM: '1' };
  for (const name of ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE', 'GIT_AUTHOR_DATE', 'GIT_COMMITTER_DATE']) delete env[name];
  const sh = (cwd: string, ...args: string[]): string => execFileSync('git', args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const write = (dir: string, files: Record<string, string>): void => {
    for (const [path, content] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), content);
    }
  };
  return {
    root,
    env,
    sh,
    write,
    repo(name, files) {
      const dir = join(root, name);
      mkdirSync(dir, { recursive: true });
      sh(dir, 'init', '-q', '-b', 'main');
      sh(dir, 'config', 'user.name', 'Test Person');
      sh(dir, 'config', 'user.email', 'person@example.com');
      if (files) {
        write(dir, files);
        sh(dir, 'add', '-A');
        sh(dir, 'commit', '-q', '-m', 'first');
      }
      return dir;
    },
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}

export interface CheckoutSnapshot {
  head: string;
  status: string;
  stash: string;
  /** Every file under the checkout but `.git`, with its content (a symlink as `-> target`). */
  files: Record<string, string>;
  /** The checkout's index file, as bytes (base64). */
  index: string;
}

/** Everything a person could notice about a checkout: HEAD, status, stash, files, index bytes. */
export function snapshotCheckout(sb: GitSandbox, dir: string): CheckoutSnapshot {
  const indexPath = sb.sh(dir, 'rev-parse', '--path-format=absolute', '--git-path', 'index').trim();
  let index = '';
  try {
    index = readFileSync(indexPath).toString('base64');
  } catch {
    index = '(none)';
  }
  let head = '(unborn)';
  try {
    head = sb.sh(dir, 'rev-parse', '-q', '--verify', 'HEAD^{commit}').trim();
  } catch {
    // no commit yet: '(unborn)' says so
  }
  return {
    head,
    status: sb.sh(dir, 'status', '--porcelain=v2', '-z', '--branch', '--untracked-files=all', '--ignored'),
    stash: sb.sh(dir, 'stash', 'list'),
    files: readTree(dir),
    index,
  };
}

export function readTree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string): void => {
    for (const name of readdirSync(join(dir, rel)).sort()) {
      if (rel === '' && name === '.git') continue;
      const path = rel === '' ? name : `${rel}/${name}`;
      const st = lstatSync(join(dir, path));
      if (st.isSymbolicLink()) out[path] = `-> ${readlinkSync(join(dir, path))}`;
      else if (st.isDirectory()) walk(path);
      else out[path] = readFileSync(join(dir, path), 'utf8');
    }
  };
  walk('');
  return out;
}
