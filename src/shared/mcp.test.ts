import { describe, expect, it } from 'vitest';
import { looksSecret, McpServerView, SaveMcpServer } from './mcp';

const issues = (input: unknown): string[] => {
  const r = SaveMcpServer.safeParse(input);
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};

describe('SaveMcpServer', () => {
  it('takes the three ACP kinds with defaults for the lists', () => {
    expect(SaveMcpServer.parse({ type: 'stdio', name: ' git ', command: 'uvx' })).toEqual({ type: 'stdio', name: 'git', command: 'uvx', args: [], env: [], agentIds: [] });
    expect(SaveMcpServer.parse({ type: 'http', name: 'docs', url: 'https://x.example/mcp' })).toEqual({ type: 'http', name: 'docs', url: 'https://x.example/mcp', headers: [], agentIds: [] });
    expect(SaveMcpServer.parse({ type: 'sse', name: 'ev', url: 'http://127.0.0.1:1/sse', headers: [{ name: 'X-A', value: 'b' }] }).type).toBe('sse');
  });

  it('refuses what a server cannot be', () => {
    expect(issues({ type: 'ws', name: 'x', url: 'wss://x' })).toHaveLength(1);
    expect(issues({ type: 'stdio', name: '', command: 'x' })).toEqual(['name: name is empty']);
    expect(issues({ type: 'stdio', name: 'a\nb', command: 'x' })).toEqual(['name: no control characters']);
    expect(issues({ type: 'stdio', name: 'x', command: '  ' })).toEqual(['command: command is empty']);
    expect(issues({ type: 'http', name: 'x', url: 'file:///etc/passwd' })).toEqual(['url: an http:// or https:// address']);
    expect(issues({ type: 'http', name: 'x', url: 'https://x', command: 'y' })).toHaveLength(1);
  });

  it('refuses duplicate variables (header names in any case), values with line breaks, and plain variables without a value', () => {
    expect(issues({ type: 'stdio', name: 'x', command: 'c', env: [{ name: 'A', value: '1' }, { name: 'A', value: '2' }, { name: 'a', value: '3' }] })).toEqual(['env.1.name: A is listed twice']);
    expect(issues({ type: 'http', name: 'x', url: 'https://x', headers: [{ name: 'Auth', value: '1' }, { name: 'auth', secret: true }] })).toEqual(['headers.1.name: auth is listed twice']);
    expect(issues({ type: 'http', name: 'x', url: 'https://x', headers: [{ name: 'X-A', value: 'a\r\nSet-Cookie: b' }] })).toEqual(['headers.0.value: no line breaks']);
    expect(issues({ type: 'http', name: 'x', url: 'https://x', headers: [{ name: 'Bad Header', value: 'a' }] })).toHaveLength(1);
    expect(issues({ type: 'stdio', name: 'x', command: 'c', env: [{ name: 'A' }] })).toEqual(['env.0.value: needs a value']);
    expect(issues({ type: 'stdio', name: 'x', command: 'c', env: [{ name: 'A', secret: true }] })).toEqual([]);
    expect(issues({ type: 'stdio', name: 'x', command: 'c', agentIds: ['demo', 'demo'] })).toEqual(['agentIds: an agent is listed twice']);
  });
});

describe('McpServerView', () => {
  it('has no place for a secret value beyond what McpVarView allows', () => {
    const view = McpServerView.parse({ id: 'a', name: 'n', agentIds: [], createdAt: 1, updatedAt: 1, type: 'stdio', command: 'c', args: [], env: [{ name: 'T', secret: true, set: true }] });
    expect(view.type === 'stdio' && view.env[0]).toEqual({ name: 'T', secret: true, set: true });
  });
});

describe('looksSecret', () => {
  it('by name', () => {
    for (const name of ['GITHUB_PERSONAL_ACCESS_TOKEN', 'OPENAI_API_KEY', 'Authorization', 'DB_PASSWORD', 'X-Api-Key', 'Cookie', 'CLIENT_SECRET']) expect(looksSecret(name, 'x'), name).toBe(true);
  });

  it('by value', () => {
    for (const value of ['Bearer abc', 'sk-proj-abcdefghijklmnop1234', 'ghp_16C7e42F292c6912E7710c838347Ae178B4a', 'a1b2c3d4e5f6a7b8c9d0e1f2a3b4']) expect(looksSecret('VALUE', value), value).toBe(true);
  });

  it('not for ordinary settings', () => {
    for (const [name, value] of [['LOG_LEVEL', 'info'], ['NODE_ENV', 'production'], ['DB_PATH', '/home/ann/projects/app/data/db.sqlite'], ['REGION', 'eu-west-1'], ['X-Team', 'core']]) {
      expect(looksSecret(name ?? '', value ?? ''), name).toBe(false);
    }
  });
});
