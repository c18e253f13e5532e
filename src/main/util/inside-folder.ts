import { realpathSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';

/**
 * The real path of `path` (relative to `folder`, or absolute) if it exists and its real path —
 * symlinks resolved — stays inside the real path of `folder`; undefined otherwise. Judged by
 * path segments, so a name that merely starts with dots (`..foo`) is inside.
 */
export function realPathInside(folder: string, path: string): string | undefined {
  let root: string;
  let real: string;
  try {
    root = realpathSync(folder);
    real = realpathSync(resolve(root, path));
  } catch {
    return undefined;
  }
  return isInside(root, real) ? real : undefined;
}

/** `child` is `root` or below it (both absolute, already real). */
export function isInside(root: string, child: string): boolean {
  const rel = relative(root, child);
  return rel === '' || (!isAbsolute(rel) && rel !== '..' && !rel.startsWith(`..${sep}`));
}
