import type * as acp from '@agentclientprotocol/sdk';
import { realpath } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { isInside } from '../util/inside-folder';
import { acpSdk } from '../util/acp-sdk';

/** JSON-RPC "invalid params": a path the agent may not use is a bad argument of its request. */
export const PATH_REFUSED_CODE = -32602;

/** An agent named a path whose real location is outside every folder its session may use. */
export interface PathRefused extends acp.RequestError {
  readonly path: string;
  readonly realPath: string;
  readonly roots: readonly string[];
}

/** The class is made on the first refusal: the ACP SDK is not read before an agent runs. */
let refusedClass: (new (path: string, realPath: string, roots: readonly string[]) => PathRefused) | undefined;

function pathRefused(path: string, realPath: string, roots: readonly string[]): PathRefused {
  refusedClass ??= class PathRefused extends acpSdk().RequestError {
    constructor(
      readonly path: string,
      readonly realPath: string,
      readonly roots: readonly string[],
    ) {
      super(PATH_REFUSED_CODE, `Refused: ${path} resolves to ${realPath}, outside the session's folders (${roots.join(', ')})`, {
        path,
        realPath,
        roots: [...roots],
      });
    }
  };
  return new refusedClass(path, realPath, roots);
}

export function isPathRefused(err: unknown): err is PathRefused {
  return refusedClass !== undefined && err instanceof refusedClass;
}

/**
 * The real path `path` names: symlinks resolved for the part that exists (the file itself, or
 * its nearest existing ancestor, so a symlinked folder on the way counts), the names that do not
 * exist yet appended as they are (they cannot be links).
 */
async function realOf(abs: string): Promise<string> {
  const missing: string[] = [];
  let at = abs;
  for (;;) {
    try {
      return join(await realpath(at), ...missing.reverse());
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      const parent = dirname(at);
      // ENOTDIR: a file stands where a folder is named; what exists is judged all the same.
      if ((code !== 'ENOENT' && code !== 'ENOTDIR') || parent === at) throw err;
      missing.push(basename(at));
      at = parent;
    }
  }
}

/**
 * Where `path` (absolute, or relative to the session folder `cwd`) really is, if that is inside
 * one of `roots` (the session folder and any folders added to the session), judged by real path
 * on both sides. Anything else is a `PathRefused`. Callers use the returned real path, never the
 * agent's string, so `link/..` tricks resolve to what was checked.
 */
export async function confinedPath(roots: readonly string[], cwd: string, path: string): Promise<string> {
  if (path === '' || path.includes('\0')) throw new (acpSdk().RequestError)(PATH_REFUSED_CODE, `Refused: ${JSON.stringify(path)} is not a usable path`);
  const real = await realOf(resolve(cwd, path));
  const realRoots = await Promise.all(roots.map((r) => realOf(resolve(r))));
  if (realRoots.some((root) => isInside(root, real))) return real;
  throw pathRefused(path, real, roots);
}
