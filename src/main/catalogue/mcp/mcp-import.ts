/**
 * `Import` in Settings → MCP servers: the servers a person already configured for other
 * tools, found and shown, never added on their own. Read from
 *
 * - Claude Desktop: `claude_desktop_config.json` (`mcpServers`), in the app's folder per OS;
 * - Claude Code: `~/.claude.json` (`mcpServers` at the top: the person's own; under
 *   `projects[<folder>].mcpServers`: one project's, kept in the person's file) and a project's
 *   shared `.mcp.json`;
 * - Gemini CLI: `~/.gemini/settings.json` and a project's `.gemini/settings.json`
 *   (`mcpServers`: `command`/`args`/`env`/`cwd`, `url` for SSE, `httpUrl` for HTTP, `headers`).
 *
 * A file that is missing is not a problem; one that exists but cannot be read as that tool's
 * configuration is reported and the others still are read. Values that look like credentials
 * are marked secret, so the window shows their names only (see `looksSecret`).
 */
import { readFile, stat } from 'node:fs/promises';
import { posix, win32 } from 'node:path';
import {
  looksSecret,
  SaveMcpServer,
  type McpImportCandidateT,
  type McpImportReportT,
  type McpImportSourceT,
  type McpVarViewT,
  type SaveMcpServerInput,
  type SaveMcpServerT,
} from '../../../shared/mcp';

/** Where to look: the person's home and this OS's conventions, and the project folders known. */
export interface ImportPlaces {
  home: string;
  platform: NodeJS.Platform;
  /** `APPDATA` (Windows) and `XDG_CONFIG_HOME` (Linux), when set. */
  env: { APPDATA?: string | undefined; XDG_CONFIG_HOME?: string | undefined };
  /** Project folders to look in for `.mcp.json` and `.gemini/settings.json` (recent folders). */
  projects?: readonly string[];
}

export type ImportFile = { source: McpImportSourceT; file: string; scope: 'user' | 'project'; project?: string };

/** A server found, with its values (secrets too): stays in the host; windows get `importView`. */
export type ImportedServer = Omit<McpImportCandidateT, 'server'> & { server: SaveMcpServerT };

export type ImportScan = {
  found: ImportedServer[];
  problems: McpImportReportT['problems'];
  searched: string[];
};

/** Files bigger than this are not configurations (Claude Code's own file can reach megabytes, not hundreds). */
export const IMPORT_MAX_BYTES = 64 * 1024 * 1024;
const MAX_SERVERS_PER_FILE = 500;

/** The files each tool keeps its MCP servers in, on this OS. */
export function importFiles(places: ImportPlaces): ImportFile[] {
  const path = places.platform === 'win32' ? win32 : posix;
  const home = places.home;
  const desktopDir =
    places.platform === 'darwin'
      ? path.join(home, 'Library', 'Application Support', 'Claude')
      : places.platform === 'win32'
        ? path.join(places.env.APPDATA || path.join(home, 'AppData', 'Roaming'), 'Claude')
        : path.join(places.env.XDG_CONFIG_HOME || path.join(home, '.config'), 'Claude');
  const files: ImportFile[] = [
    { source: 'claude-desktop', file: path.join(desktopDir, 'claude_desktop_config.json'), scope: 'user' },
    { source: 'claude-code', file: path.join(home, '.claude.json'), scope: 'user' },
    { source: 'gemini-cli', file: path.join(home, '.gemini', 'settings.json'), scope: 'user' },
  ];
  for (const project of new Set(places.projects ?? [])) {
    files.push({ source: 'claude-code', file: path.join(project, '.mcp.json'), scope: 'project', project });
    files.push({ source: 'gemini-cli', file: path.join(project, '.gemini', 'settings.json'), scope: 'project', project });
  }
  return files;
}

/** Reads every file of `importFiles` that exists; adds nothing anywhere. */
export async function scanImports(places: ImportPlaces, maxBytes = IMPORT_MAX_BYTES): Promise<ImportScan> {
  const scan: ImportScan = { found: [], problems: [], searched: [] };
  for (const where of importFiles(places)) {
    scan.searched.push(where.file);
    const text = await readSmallFile(where.file, maxBytes, scan.problems);
    if (text === undefined) continue;
    let json: unknown;
    try {
      json = JSON.parse(where.source === 'gemini-cli' ? stripJsonComments(text) : text);
    } catch (error) {
      scan.problems.push({ file: where.file, message: `not valid JSON: ${(error as Error).message}` });
      continue;
    }
    if (!isObj(json)) {
      scan.problems.push({ file: where.file, message: 'not a JSON object' });
      continue;
    }
    readServers(json.mcpServers, { ...where, scope: where.scope }, 'mcpServers', scan);
    // Claude Code keeps each project's own servers in the person's file, under its folder.
    if (where.source === 'claude-code' && where.scope === 'user' && isObj(json.projects)) {
      for (const [project, entry] of Object.entries(json.projects)) {
        if (isObj(entry) && entry.mcpServers !== undefined) readServers(entry.mcpServers, { ...where, scope: 'local', project }, `projects["${project}"].mcpServers`, scan);
      }
    }
  }
  return scan;
}

/** What the window is shown: the same servers with every secret value left out. */
export function importView(scan: ImportScan): McpImportReportT {
  return {
    candidates: scan.found.map((c) => ({ ...c, server: draftView(c.server) })),
    problems: scan.problems,
    searched: scan.searched,
  };
}

/**
 * The server to save for a chosen candidate: turned on for `agentIds`, renamed `name (2)`,
 * `name (3)`… when the name is taken (names are unique regardless of case).
 */
export function importToSave(candidate: ImportedServer, agentIds: readonly string[], takenNames: Iterable<string>): SaveMcpServerT {
  const taken = new Set([...takenNames].map((n) => n.toLowerCase()));
  let name = candidate.server.name;
  for (let n = 2; taken.has(name.toLowerCase()); n++) name = `${candidate.server.name} (${n})`;
  return SaveMcpServer.parse({ ...candidate.server, name, agentIds: [...agentIds] });
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

async function readSmallFile(file: string, maxBytes: number, problems: ImportScan['problems']): Promise<string | undefined> {
  try {
    const info = await stat(file);
    if (!info.isFile()) {
      problems.push({ file, message: 'not a file' });
      return undefined;
    }
    if (info.size > maxBytes) {
      problems.push({ file, message: `larger than ${Math.round(maxBytes / 1024 / 1024)} MB; not read` });
      return undefined;
    }
    return await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    problems.push({ file, message: `could not be read (${code ?? (error as Error).message})` });
    return undefined;
  }
}

function readServers(raw: unknown, where: Omit<ImportFile, 'scope'> & { scope: ImportedServer['scope'] }, at: string, scan: ImportScan): void {
  if (raw === undefined) return;
  if (!isObj(raw)) {
    scan.problems.push({ file: where.file, message: `${at} is not an object of servers` });
    return;
  }
  const entries = Object.entries(raw);
  if (entries.length > MAX_SERVERS_PER_FILE) scan.problems.push({ file: where.file, message: `${at} lists ${entries.length} servers; the first ${MAX_SERVERS_PER_FILE} are shown` });
  for (const [name, entry] of entries.slice(0, MAX_SERVERS_PER_FILE)) {
    const parsed = parseEntry(name, entry, where.source);
    if ('problem' in parsed) {
      scan.problems.push({ file: where.file, message: `${at}["${name}"]: ${parsed.problem}` });
      continue;
    }
    const checked = SaveMcpServer.safeParse(parsed.server);
    if (!checked.success) {
      const issue = checked.error.issues[0];
      scan.problems.push({ file: where.file, message: `${at}["${name}"]: ${issue ? `${issue.path.join('.') || 'server'}: ${issue.message}` : 'not a server Switchboard can run'}` });
      continue;
    }
    scan.found.push({
      key: JSON.stringify([where.source, where.file, where.project ?? null, name]),
      source: where.source,
      file: where.file,
      scope: where.scope,
      ...(where.project === undefined ? {} : { project: where.project }),
      server: checked.data,
      warnings: parsed.warnings,
    });
  }
}

/** Settings other tools have that an ACP `McpServer` cannot carry. */
const NOT_CARRIED = ['cwd', 'timeout', 'trust', 'includeTools', 'excludeTools', 'oauth', 'authProviderType', 'description'] as const;

function parseEntry(name: string, raw: unknown, source: McpImportSourceT): { server: SaveMcpServerInput; warnings: string[] } | { problem: string } {
  if (!isObj(raw)) return { problem: 'not an object' };
  const warnings: string[] = [];
  const type = inferType(raw, source);
  if (typeof type === 'object') return type;
  const strings = (key: string, value: unknown): string[] | { problem: string } =>
    value === undefined ? [] : Array.isArray(value) && value.every((v) => typeof v === 'string') ? (value as string[]) : { problem: `${key} is not a list of text` };
  const pairs = (key: string, value: unknown): { name: string; value: string }[] | { problem: string } => {
    if (value === undefined) return [];
    if (!isObj(value) || !Object.values(value).every((v) => typeof v === 'string')) return { problem: `${key} is not an object of text values` };
    return Object.entries(value as Record<string, string>).map(([n, v]) => ({ name: n, value: v }));
  };

  const carried = NOT_CARRIED.filter((k) => raw[k] !== undefined);
  if (carried.length > 0) warnings.push(`Not carried over (ACP cannot pass ${carried.length > 1 ? 'them' : 'it'} to agents): ${carried.join(', ')}.`);
  if (raw.disabled === true) warnings.push('It is turned off there.');

  let server: SaveMcpServerInput;
  let texts: string[];
  if (type === 'stdio') {
    if (typeof raw.command !== 'string') return { problem: 'has no command' };
    const args = strings('args', raw.args);
    const env = pairs('env', raw.env);
    if (!Array.isArray(args)) return args;
    if (!Array.isArray(env)) return env;
    server = { type, name, command: raw.command, args, env: env.map((e) => ({ ...e, secret: looksSecret(e.name, e.value) })) };
    texts = [raw.command, ...args, ...env.map((e) => e.value)];
  } else {
    const url = source === 'gemini-cli' && typeof raw.httpUrl === 'string' ? raw.httpUrl : raw.url;
    if (typeof url !== 'string') return { problem: 'has no URL' };
    const headers = pairs('headers', raw.headers);
    if (!Array.isArray(headers)) return headers;
    server = { type, name, url, headers: headers.map((h) => ({ ...h, secret: looksSecret(h.name, h.value) })) };
    texts = [url, ...headers.map((h) => h.value)];
  }
  const references = [...new Set(texts.flatMap((t) => [...t.matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-[^}]*)?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1] ?? m[2] ?? '')))];
  if (references.length > 0) {
    warnings.push(`Refers to ${references.map((r) => `$${r}`).join(', ')}, which ${source === 'gemini-cli' ? 'Gemini CLI' : 'Claude'} fills in from its environment; Switchboard passes it as written: replace it with the value.`);
  }
  return { server, warnings };
}

function inferType(raw: Obj, source: McpImportSourceT): 'stdio' | 'http' | 'sse' | { problem: string } {
  if (source === 'gemini-cli') {
    if (typeof raw.httpUrl === 'string') return 'http';
    if (typeof raw.url === 'string') return raw.type === 'http' ? 'http' : 'sse';
    if (raw.command !== undefined) return 'stdio';
    return { problem: 'has no command, url or httpUrl' };
  }
  switch (raw.type) {
    case 'stdio':
    case 'http':
    case 'sse':
      return raw.type;
    case 'streamable-http':
      return 'http';
    case undefined:
      // Claude's files name remote servers by `type`; an untyped one with a URL is HTTP.
      return raw.command !== undefined ? 'stdio' : typeof raw.url === 'string' ? 'http' : { problem: 'has no command or url' };
    default:
      return { problem: `its type ${JSON.stringify(raw.type)} is not stdio, http or sse` };
  }
}

function draftView(server: SaveMcpServerT): McpImportCandidateT['server'] {
  const view = (v: { name: string; secret: boolean; value?: string | undefined }): McpVarViewT =>
    v.secret ? { name: v.name, secret: true, set: v.value !== undefined } : { name: v.name, secret: false, value: v.value ?? '', set: true };
  return server.type === 'stdio'
    ? { type: 'stdio', name: server.name, agentIds: server.agentIds, command: server.command, args: server.args, env: server.env.map(view) }
    : { type: server.type, name: server.name, agentIds: server.agentIds, url: server.url, headers: server.headers.map(view) };
}

/** Gemini CLI's settings may carry line and block comments; strings are left as they are. */
export function stripJsonComments(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      const start = i;
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
      out += text.slice(start, i + 1);
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
      out += '\n';
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 1;
      out += ' ';
    } else out += c;
  }
  return out;
}
