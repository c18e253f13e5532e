import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { McpImportReport } from '../../../shared/mcp';
import { tempDir } from '../../test-support/temp-dir';
import { importFiles, importToSave, importView, scanImports, stripJsonComments, type ImportPlaces } from './mcp-import';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

function home(): { home: string; write(path: string, content: unknown): string; places(projects?: string[]): ImportPlaces } {
  const dir = tempDir();
  cleanups.push(dir.cleanup);
  return {
    home: dir.path,
    write: (path, content) => {
      const file = join(dir.path, path);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
      return file;
    },
    places: (projects = []) => ({ home: dir.path, platform: 'linux', env: {}, projects: projects.map((p) => join(dir.path, p)) }),
  };
}

describe('importFiles: where each tool keeps its servers', () => {
  it('follows each OS for Claude Desktop, and the home folder for Claude Code and Gemini CLI', () => {
    const files = (platform: NodeJS.Platform, env: ImportPlaces['env'] = {}, homeDir = '/home/ann') => importFiles({ home: homeDir, platform, env }).map((f) => f.file);
    expect(files('linux')).toEqual(['/home/ann/.config/Claude/claude_desktop_config.json', '/home/ann/.claude.json', '/home/ann/.gemini/settings.json']);
    expect(files('linux', { XDG_CONFIG_HOME: '/cfg' })[0]).toBe('/cfg/Claude/claude_desktop_config.json');
    expect(files('darwin', {}, '/Users/ann')[0]).toBe('/Users/ann/Library/Application Support/Claude/claude_desktop_config.json');
    expect(files('win32', { APPDATA: 'C:\\Users\\ann\\AppData\\Roaming' }, 'C:\\Users\\ann')).toEqual([
      'C:\\Users\\ann\\AppData\\Roaming\\Claude\\claude_desktop_config.json',
      'C:\\Users\\ann\\.claude.json',
      'C:\\Users\\ann\\.gemini\\settings.json',
    ]);
    expect(files('win32', {}, 'C:\\Users\\ann')[0]).toBe('C:\\Users\\ann\\AppData\\Roaming\\Claude\\claude_desktop_config.json');
  });

  it("adds each project's .mcp.json and .gemini/settings.json once", () => {
    const files = importFiles({ home: '/h', platform: 'linux', env: {}, projects: ['/w/app', '/w/app'] }).slice(3);
    expect(files).toEqual([
      { source: 'claude-code', file: '/w/app/.mcp.json', scope: 'project', project: '/w/app' },
      { source: 'gemini-cli', file: '/w/app/.gemini/settings.json', scope: 'project', project: '/w/app' },
    ]);
  });
});

describe('scanImports', () => {
  it('finds the servers of Claude Desktop, Claude Code (user, local and project) and Gemini CLI, with their source files', async () => {
    const h = home();
    const desktop = h.write('.config/Claude/claude_desktop_config.json', {
      mcpServers: { filesystem: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/home/ann/docs'] } },
    });
    const claude = h.write('.claude.json', {
      numStartups: 12,
      mcpServers: { sentry: { type: 'http', url: 'https://mcp.sentry.dev/mcp', headers: { Authorization: 'Bearer sntrys_abc' } } },
      projects: {
        '/w/app': { mcpServers: { db: { type: 'stdio', command: 'uvx', args: ['mcp-server-sqlite'], env: { DB_PATH: '/w/app/db.sqlite' } } } },
        '/w/other': { allowedTools: [] },
      },
    });
    const shared = h.write('app/.mcp.json', { mcpServers: { events: { type: 'sse', url: 'https://example.com/sse' } } });
    const gemini = h.write(
      '.gemini/settings.json',
      `{
        // Gemini CLI allows comments
        "theme": "Dracula",
        "mcpServers": {
          "git": { "command": "uvx", "args": ["mcp-server-git"], "cwd": "./repo", "timeout": 5000 }, /* stdio */
          "github": { "httpUrl": "https://api.githubcopilot.com/mcp/", "headers": { "Authorization": "ghp_1234567890abcdefABCDEF" } },
          "stream": { "url": "http://localhost:8080/sse" }
        }
      }`,
    );
    const scan = await scanImports(h.places(['app']));
    expect(scan.problems).toEqual([]);
    expect(scan.searched).toEqual([desktop, claude, join(h.home, '.gemini/settings.json'), shared, join(h.home, 'app/.gemini/settings.json')]);
    expect(scan.found.map((f) => [f.source, f.scope, f.project, f.server.name, f.server.type, f.file])).toEqual([
      ['claude-desktop', 'user', undefined, 'filesystem', 'stdio', desktop],
      ['claude-code', 'user', undefined, 'sentry', 'http', claude],
      ['claude-code', 'local', '/w/app', 'db', 'stdio', claude],
      ['gemini-cli', 'user', undefined, 'git', 'stdio', gemini],
      ['gemini-cli', 'user', undefined, 'github', 'http', gemini],
      ['gemini-cli', 'user', undefined, 'stream', 'sse', gemini],
      ['claude-code', 'project', join(h.home, 'app'), 'events', 'sse', shared],
    ]);
    expect(scan.found[0]?.server).toEqual({ type: 'stdio', name: 'filesystem', command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/home/ann/docs'], env: [], agentIds: [] });
    expect(scan.found[2]?.server).toMatchObject({ env: [{ name: 'DB_PATH', value: '/w/app/db.sqlite', secret: false }] });
    expect(scan.found[3]?.warnings).toEqual(['Not carried over (ACP cannot pass them to agents): cwd, timeout.']);
    expect(scan.found[4]?.server).toMatchObject({ url: 'https://api.githubcopilot.com/mcp/', headers: [{ name: 'Authorization', secret: true }] });
  });

  it('shows the window no secret value, and hands the host the values when the person adds one', async () => {
    const h = home();
    h.write('.claude.json', {
      mcpServers: {
        notion: { command: 'npx', args: ['-y', '@notionhq/notion-mcp-server'], env: { NOTION_TOKEN: 'ntn_secret_value', LOG_LEVEL: 'info' } },
        api: { type: 'http', url: 'https://api.example.com/mcp', headers: { Authorization: 'Bearer abc.def', 'X-Region': 'eu' } },
      },
    });
    const scan = await scanImports(h.places());
    const view = McpImportReport.parse(importView(scan));
    expect(JSON.stringify(view)).not.toMatch(/ntn_secret_value|abc\.def/);
    expect(view.candidates[0]?.server).toMatchObject({
      env: [
        { name: 'NOTION_TOKEN', secret: true, set: true },
        { name: 'LOG_LEVEL', secret: false, value: 'info', set: true },
      ],
    });
    expect(view.candidates[0]?.server.type === 'stdio' && view.candidates[0].server.env[0]).not.toHaveProperty('value');
    const chosen = scan.found.find((f) => f.key === view.candidates[0]?.key);
    expect(chosen && importToSave(chosen, ['gemini'], ['Notion', 'notion (2)'])).toMatchObject({
      name: 'notion (3)',
      agentIds: ['gemini'],
      env: [{ name: 'NOTION_TOKEN', secret: true, value: 'ntn_secret_value' }, { name: 'LOG_LEVEL', secret: false, value: 'info' }],
    });
  });

  it('warns about ${VAR} references, which other tools expand and Switchboard does not', async () => {
    const h = home();
    h.write('app/.mcp.json', { mcpServers: { api: { type: 'http', url: 'https://${API_HOST}/mcp', headers: { Authorization: 'Bearer ${API_KEY:-none}' } } } });
    h.write('.gemini/settings.json', { mcpServers: { s: { command: 'srv', env: { TOKEN: '$MY_TOKEN' }, disabled: true } } });
    const scan = await scanImports(h.places(['app']));
    expect(scan.problems).toEqual([]);
    expect(scan.found.map((f) => f.warnings)).toEqual([
      ['It is turned off there.', 'Refers to $MY_TOKEN, which Gemini CLI fills in from its environment; Switchboard passes it as written: replace it with the value.'],
      ['Refers to $API_HOST, $API_KEY, which Claude fills in from its environment; Switchboard passes it as written: replace it with the value.'],
    ]);
  });

  it('reports files it cannot read as configuration, and still reads the others', async () => {
    const h = home();
    const desktop = h.write('.config/Claude/claude_desktop_config.json', '{ "mcpServers": { "a": ');
    const claude = h.write('.claude.json', '[1, 2]');
    const gemini = h.write('.gemini/settings.json', { mcpServers: ['not', 'an', 'object'] });
    const shared = h.write('app/.mcp.json', { mcpServers: { ok: { command: 'srv' } } });
    mkdirSync(join(h.home, 'app/.gemini/settings.json'), { recursive: true });
    const scan = await scanImports(h.places(['app']));
    expect(scan.problems.map((p) => [p.file, p.message.replace(/:.*/, '')])).toEqual([
      [desktop, 'not valid JSON'],
      [claude, 'not a JSON object'],
      [gemini, 'mcpServers is not an object of servers'],
      [join(h.home, 'app/.gemini/settings.json'), 'not a file'],
    ]);
    expect(scan.found.map((f) => [f.server.name, f.file])).toEqual([['ok', shared]]);
  });

  it('reports each server it cannot take, naming it, and keeps the rest of the file', async () => {
    const h = home();
    const file = h.write('.claude.json', {
      mcpServers: {
        good: { command: 'srv' },
        noCommand: { args: ['x'] },
        badArgs: { command: 'srv', args: 'x' },
        badEnv: { command: 'srv', env: { A: 1 } },
        badName: { command: 'srv', env: { 'NOT-POSIX': 'x' } },
        weird: { type: 'websocket', url: 'wss://x' },
        ftp: { type: 'http', url: 'ftp://example.com' },
        notObject: 'srv',
      },
    });
    const scan = await scanImports(h.places());
    expect(scan.found.map((f) => f.server.name)).toEqual(['good']);
    expect(scan.problems).toEqual([
      { file, message: 'mcpServers["noCommand"]: has no command or url' },
      { file, message: 'mcpServers["badArgs"]: args is not a list of text' },
      { file, message: 'mcpServers["badEnv"]: env is not an object of text values' },
      { file, message: 'mcpServers["badName"]: env.0.name: letters, digits and underscore, not starting with a digit' },
      { file, message: 'mcpServers["weird"]: its type "websocket" is not stdio, http or sse' },
      { file, message: 'mcpServers["ftp"]: url: an http:// or https:// address' },
      { file, message: 'mcpServers["notObject"]: not an object' },
    ]);
  });

  it('does not read a file larger than the limit', async () => {
    const h = home();
    const file = h.write('.claude.json', { mcpServers: { a: { command: 'x' } }, padding: 'x'.repeat(4096) });
    const scan = await scanImports(h.places(), 1024);
    expect(scan.found).toEqual([]);
    expect(scan.problems).toEqual([{ file, message: 'larger than 0 MB; not read' }]);
  });

  it('finds nothing, and no problem, in a home with no such files', async () => {
    const scan = await scanImports(home().places(['missing-project']));
    expect(scan.found).toEqual([]);
    expect(scan.problems).toEqual([]);
    expect(scan.searched).toHaveLength(5);
  });
});

describe('stripJsonComments', () => {
  it('removes line and block comments but not comment-like text in strings', () => {
    const text = '{"a": "http://x//y", // c\n "b": "/* no */" /* yes */, "c": "q\\"//"}';
    expect(JSON.parse(stripJsonComments(text))).toEqual({ a: 'http://x//y', b: '/* no */', c: 'q"//' });
  });
});
