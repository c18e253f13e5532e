import * as acp from '@agentclientprotocol/sdk';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import type { ClientRequestHandlers, ScopeLookup } from './client-handlers';

/** `fs/read_text_file` and `fs/write_text_file`, confined to the session's working folder. */
export function fsHandlers(scopeOf: ScopeLookup): ClientRequestHandlers {
  return {
    capabilities: { fs: { readTextFile: true, writeTextFile: true } },
    register: (app) =>
      app
        .onRequest(acp.methods.client.fs.readTextFile, async ({ params }) => {
          const path = insideSessionFolder(scopeOf, params.sessionId, params.path);
          const text = await readFile(path, 'utf8');
          if (params.line == null && params.limit == null) return { content: text };
          const lines = text.split('\n');
          const start = Math.max(0, (params.line ?? 1) - 1);
          return { content: lines.slice(start, params.limit == null ? undefined : start + params.limit).join('\n') };
        })
        .onRequest(acp.methods.client.fs.writeTextFile, async ({ params }) => {
          const path = insideSessionFolder(scopeOf, params.sessionId, params.path);
          await mkdir(dirname(path), { recursive: true });
          await writeFile(path, params.content, 'utf8');
          return {};
        }),
  };
}

/** The absolute path of `path` if it stays inside the session's folder; else an ACP error. */
export function insideSessionFolder(scopeOf: ScopeLookup, acpSessionId: string, path: string): string {
  const scope = scopeOf(acpSessionId);
  if (!scope) throw acp.RequestError.sessionNotFound(acpSessionId);
  const abs = resolve(scope.cwd, path);
  const rel = relative(scope.cwd, abs);
  if (rel.startsWith('..') || isAbsolute(rel)) {
    throw acp.RequestError.invalidParams(undefined, `${path} is outside the session folder ${scope.cwd}`);
  }
  return abs;
}
