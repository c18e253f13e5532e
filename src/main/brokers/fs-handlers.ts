import { rootsOf, type ClientRequestHandlers, type RequestScope, type ScopeLookup } from './client-handlers';
import { confinedPath, isPathRefused } from './confine';
import { fileError, MAX_DIFF_BYTES, readText, writeAtomically } from './text-files';
import { acpSdk } from '../util/acp-sdk';

/**
 * `fs/read_text_file` and `fs/write_text_file`, confined by real path to the session's folders.
 * Switchboard has no editor, so there are no unsaved buffers to read back: the disk is the truth.
 */
export function fsHandlers(scopeOf: ScopeLookup): ClientRequestHandlers {
  return {
    capabilities: { fs: { readTextFile: true, writeTextFile: true } },
    register: (app) =>
      app
        .onRequest(acpSdk().methods.client.fs.readTextFile, async ({ params }) => {
          const scope = scopeFor(scopeOf, params.sessionId);
          const path = await confined(scope, params.path, 'read');
          try {
            return { content: await readText(path, params.line, params.limit) };
          } catch (err) {
            throw fileError(err, params.path);
          }
        })
        .onRequest(acpSdk().methods.client.fs.writeTextFile, async ({ params }) => {
          const scope = scopeFor(scopeOf, params.sessionId);
          // The turn's checkpoint must hold the file as it was before this write.
          await scope.beforeWrite?.();
          const path = await confined(scope, params.path, 'write');
          let written;
          try {
            written = await writeAtomically(path, params.content);
          } catch (err) {
            throw fileError(err, params.path);
          }
          const newSize = Buffer.byteLength(params.content, 'utf8');
          // The diff is kept only when both sides are small enough to store and show.
          const diffable = newSize <= MAX_DIFF_BYTES && (!written.existed || written.previous !== undefined);
          scope.record?.({
            kind: 'file_written',
            payload: {
              path,
              created: !written.existed,
              bytes: newSize,
              ...(diffable ? { diff: { type: 'diff' as const, path, oldText: written.previous ?? null, newText: params.content } } : {}),
            },
          });
          return {};
        }),
  };
}

/** The session a request names; a session nobody holds is ACP's session-not-found. */
export function scopeFor(scopeOf: ScopeLookup, acpSessionId: string): RequestScope {
  const scope = scopeOf(acpSessionId);
  if (!scope) throw acpSdk().RequestError.sessionNotFound(acpSessionId);
  return scope;
}

/**
 * The real path the agent may use for `what`; a refusal is also told to the person in the
 * transcript, since the agent may not say why its action failed.
 */
export async function confined(scope: RequestScope, path: string, what: 'read' | 'write' | 'terminal'): Promise<string> {
  try {
    return await confinedPath(rootsOf(scope), scope.cwd, path);
  } catch (err) {
    if (isPathRefused(err)) {
      const action = what === 'terminal' ? 'run a command in' : what;
      scope.record?.({
        kind: 'notice',
        payload: { kind: 'path_refused', text: `The agent tried to ${action} ${path}, which is outside this session's folders (it resolves to ${err.realPath}). Refused.` },
      });
    }
    throw err;
  }
}
