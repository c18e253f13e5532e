import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SaveMcpServer, type SaveMcpServerInput } from '../../../shared/mcp';
// The catalogue's SecretStore: the real vault, so its shape and its file are what is tested.
import { plainBox, SecretStore } from '../secret-box';
import { openDatabase, type Db } from '../../store/db';
import { captureLogger, type LogEntry } from '../../test-support/capture-logger';
import { FakeClock } from '../../test-support/fake-clock';
import { tempDir } from '../../test-support/temp-dir';
import { McpServerCatalogue, secretOwner } from './mcp-servers';
import { McpServersRepo } from '../../store/mcp-servers.repo';
import { sessionMcpServers } from './session-mcp-servers';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).reverse().forEach((c) => c()));

interface Fixture {
  catalogue: McpServerCatalogue;
  db: Db;
  dir: string;
  secrets: SecretStore;
  logs: LogEntry[];
  clock: FakeClock;
  /** A new catalogue on the same files, as after a restart. */
  reopen(): McpServerCatalogue;
}

function fixture(): Fixture {
  const dir = tempDir();
  const db = openDatabase(join(dir.path, 'switchboard.db'));
  cleanups.push(dir.cleanup, () => db.close());
  const logs: LogEntry[] = [];
  const log = captureLogger(logs);
  const clock = new FakeClock();
  let n = 0;
  const make = (): { catalogue: McpServerCatalogue; secrets: SecretStore } => {
    const secrets = new SecretStore(join(dir.path, 'secrets.json'), plainBox, log);
    return { secrets, catalogue: new McpServerCatalogue({ repo: new McpServersRepo(db), secrets, clock, log, newId: () => `srv${++n}` }) };
  };
  const { catalogue, secrets } = make();
  return { catalogue, db, dir: dir.path, secrets, logs, clock, reopen: () => make().catalogue };
}

const save = (f: Fixture, input: SaveMcpServerInput) => f.catalogue.save(SaveMcpServer.parse(input));

const GITHUB: SaveMcpServerInput = {
  type: 'stdio',
  name: 'github',
  command: 'npx',
  args: ['-y', '@modelcontextprotocol/server-github'],
  env: [
    { name: 'GITHUB_PERSONAL_ACCESS_TOKEN', secret: true, value: 'ghp_topsecret123' },
    { name: 'GITHUB_HOST', value: 'github.example.com' },
  ],
  agentIds: ['gemini', 'demo'],
};

const DOCS: SaveMcpServerInput = {
  type: 'http',
  name: 'docs',
  url: 'https://mcp.example.com/mcp?key=abc',
  headers: [
    { name: 'Authorization', secret: true, value: 'Bearer tok-999' },
    { name: 'X-Team', value: 'core' },
  ],
  agentIds: ['demo'],
};

/** Every byte SQLite holds for the database, the write-ahead log included. */
function databaseBytes(f: Fixture): string {
  f.db.pragma('wal_checkpoint(TRUNCATE)');
  return readFileSync(join(f.dir, 'switchboard.db')).toString('latin1');
}

describe('McpServerCatalogue: saving', () => {
  it('keeps secret values in the secret box only: the window sees names and "set", SQLite and the log never the value', () => {
    const f = fixture();
    const view = save(f, GITHUB);
    expect(view).toEqual({
      id: 'srv1',
      type: 'stdio',
      name: 'github',
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-github'],
      env: [
        { name: 'GITHUB_PERSONAL_ACCESS_TOKEN', secret: true, set: true },
        { name: 'GITHUB_HOST', secret: false, value: 'github.example.com', set: true },
      ],
      agentIds: ['demo', 'gemini'],
      createdAt: f.clock.now(),
      updatedAt: f.clock.now(),
    });
    save(f, DOCS);
    expect(JSON.stringify(f.catalogue.list())).not.toMatch(/ghp_topsecret123|tok-999/);
    const bytes = databaseBytes(f);
    expect(bytes).toContain('github.example.com');
    expect(bytes).not.toContain('ghp_topsecret123');
    expect(bytes).not.toContain('tok-999');
    expect(JSON.stringify(f.logs)).not.toMatch(/ghp_topsecret123|tok-999/);
    expect(f.secrets.values(secretOwner('srv1'))).toEqual({ GITHUB_PERSONAL_ACCESS_TOKEN: 'ghp_topsecret123' });
    expect(f.secrets.values(secretOwner('srv2'))).toEqual({ Authorization: 'Bearer tok-999' });
  });

  it('resolves secrets only for a session or a test, and survives a restart', () => {
    const f = fixture();
    save(f, GITHUB);
    save(f, DOCS);
    const again = f.reopen();
    expect(again.forAgent('gemini')).toEqual([
      {
        id: 'srv1',
        name: 'github',
        type: 'stdio',
        command: 'npx',
        args: ['-y', '@modelcontextprotocol/server-github'],
        env: [
          { name: 'GITHUB_PERSONAL_ACCESS_TOKEN', value: 'ghp_topsecret123' },
          { name: 'GITHUB_HOST', value: 'github.example.com' },
        ],
        missingSecrets: [],
      },
    ]);
    expect(again.forAgent('demo').map((s) => s.name)).toEqual(['github', 'docs']);
    expect(again.forAgent('nobody')).toEqual([]);
    expect(again.resolve('srv2')).toMatchObject({ type: 'http', url: 'https://mcp.example.com/mcp?key=abc', headers: [{ name: 'Authorization', value: 'Bearer tok-999' }, { name: 'X-Team', value: 'core' }] });
  });

  it('keeps a stored secret sent without a value, replaces one sent with a value, and forgets one removed', async () => {
    const f = fixture();
    save(f, { ...GITHUB, env: [...(GITHUB.env ?? []), { name: 'EXTRA_KEY', secret: true, value: 'x1' }] });
    await f.clock.advance(1000);
    const view = save(f, {
      ...GITHUB,
      id: 'srv1',
      env: [
        { name: 'GITHUB_PERSONAL_ACCESS_TOKEN', secret: true },
        { name: 'GITHUB_HOST', value: 'ghe.example.com' },
      ],
    });
    expect(view.createdAt).toBeLessThan(view.updatedAt);
    expect(f.secrets.values(secretOwner('srv1'))).toEqual({ GITHUB_PERSONAL_ACCESS_TOKEN: 'ghp_topsecret123' });
    save(f, { ...GITHUB, id: 'srv1', env: [{ name: 'GITHUB_PERSONAL_ACCESS_TOKEN', secret: true, value: 'ghp_new' }] });
    expect(f.secrets.values(secretOwner('srv1'))).toEqual({ GITHUB_PERSONAL_ACCESS_TOKEN: 'ghp_new' });
  });

  it('drops every secret of a stdio server turned into an HTTP one', () => {
    const f = fixture();
    save(f, GITHUB);
    const view = save(f, { ...DOCS, id: 'srv1', name: 'github' });
    expect(view).toMatchObject({ id: 'srv1', type: 'http', url: DOCS.url });
    expect(view).not.toHaveProperty('command');
    expect(f.secrets.names(secretOwner('srv1'))).toEqual(['Authorization']);
  });

  it('refuses a new secret without a value, naming the field', () => {
    const f = fixture();
    expect(() => save(f, { ...GITHUB, env: [{ name: 'TOKEN', secret: true }] })).toThrow(
      expect.objectContaining({ code: 'invalid_request', details: { issues: [{ path: ['env', 0, 'value'], message: 'needs a value' }] } }),
    );
    expect(f.catalogue.list()).toEqual([]);
  });

  it('refuses a second server of the same name in any case, and an unknown id', () => {
    const f = fixture();
    save(f, GITHUB);
    expect(() => save(f, { ...DOCS, name: 'GitHub' })).toThrow(expect.objectContaining({ code: 'already_exists' }));
    expect(() => save(f, { ...DOCS, id: 'nope' })).toThrow(expect.objectContaining({ code: 'not_found' }));
    // Renaming a server to its own name in another case is no clash.
    expect(save(f, { ...GITHUB, id: 'srv1', name: 'GitHub', env: [] }).name).toBe('GitHub');
  });
});

describe('McpServersRepo: order', () => {
  it('lists servers added in the same millisecond in the order they were added, whatever their ids', () => {
    const f = fixture();
    const repo = new McpServersRepo(f.db);
    const server = (id: string, name: string) => ({ id, name, type: 'http' as const, url: `https://${name}.example.com/mcp`, headers: [] });
    for (const [id, name] of [['zz-last-by-id', 'first'], ['mm-middle', 'second'], ['aa-first-by-id', 'third']] as const) repo.save(server(id, name), ['demo'], 1_000);
    expect(repo.list().map((r) => r.name)).toEqual(['first', 'second', 'third']);
    expect(repo.forAgent('demo').map((r) => r.name)).toEqual(['first', 'second', 'third']);
  });
});

describe('McpServerCatalogue: agents and removal', () => {
  it('turns a server on and off per agent, and forgets a removed agent', () => {
    const f = fixture();
    save(f, GITHUB);
    expect(f.catalogue.setEnabled('srv1', 'qwen', true).agentIds).toEqual(['demo', 'gemini', 'qwen']);
    expect(f.catalogue.setEnabled('srv1', 'qwen', true).agentIds).toEqual(['demo', 'gemini', 'qwen']);
    expect(f.catalogue.setEnabled('srv1', 'gemini', false).agentIds).toEqual(['demo', 'qwen']);
    f.catalogue.forgetAgent('demo');
    expect(f.catalogue.get('srv1').agentIds).toEqual(['qwen']);
    expect(() => f.catalogue.setEnabled('nope', 'qwen', true)).toThrow(expect.objectContaining({ code: 'not_found' }));
  });

  it('removes the row, its agents and its secrets', () => {
    const f = fixture();
    save(f, GITHUB);
    f.catalogue.remove('srv1');
    expect(f.catalogue.list()).toEqual([]);
    expect(f.catalogue.forAgent('gemini')).toEqual([]);
    expect(f.secrets.names(secretOwner('srv1'))).toEqual([]);
    expect(() => f.catalogue.remove('srv1')).toThrow(expect.objectContaining({ code: 'not_found' }));
  });

  it('keeps the last test result, and ignores a stored one it cannot read', () => {
    const f = fixture();
    save(f, GITHUB);
    f.catalogue.recordTest('srv1', { ok: true, at: 1, durationMs: 5, tools: [{ name: 'echo' }] });
    expect(f.catalogue.get('srv1').lastTest).toEqual({ ok: true, at: 1, durationMs: 5, tools: [{ name: 'echo' }] });
    f.db.prepare(`UPDATE mcp_servers SET last_test = '{"ok":"maybe"}'`).run();
    expect(f.catalogue.get('srv1')).not.toHaveProperty('lastTest');
  });
});

describe('a secret the vault cannot give back', () => {
  it('is named as missing, shown as set, and the server is left out of sessions with the reason', () => {
    const f = fixture();
    save(f, GITHUB);
    // As when secrets.json was sealed by another machine's keychain: the name stays, the value is gone.
    f.secrets.update(secretOwner('srv1'), { GITHUB_PERSONAL_ACCESS_TOKEN: undefined });
    const [server] = f.catalogue.forAgent('gemini');
    expect(server?.missingSecrets).toEqual(['GITHUB_PERSONAL_ACCESS_TOKEN']);
    expect(server?.type === 'stdio' && server.env).toEqual([{ name: 'GITHUB_HOST', value: 'github.example.com' }]);
    expect(f.catalogue.get('srv1').type === 'stdio' && f.catalogue.get('srv1')).toMatchObject({ env: [{ set: false }, { set: true }] });
    const given = sessionMcpServers(f.catalogue.forAgent('gemini'), { http: true, sse: true });
    expect(given.mcpServers).toEqual([]);
    expect(given.summary).toEqual([
      {
        name: 'github',
        type: 'stdio',
        target: 'npx -y @modelcontextprotocol/server-github',
        skipped: 'Its secret GITHUB_PERSONAL_ACCESS_TOKEN could not be read; set it again in Settings.',
      },
    ]);
  });
});
