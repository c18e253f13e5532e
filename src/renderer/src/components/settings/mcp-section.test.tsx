import { describe, expect, it } from 'vitest';
import type { AgentViewT, McpImportReportT, McpServerViewT } from '../../../../shared/contract';
import { renderWith, storeWith } from '../../test-support/static-render';
import { McpSection } from './mcp-section';
import { McpServerForm } from './mcp-server-form';

const agent = (id: string, name: string): AgentViewT => ({
  id,
  name,
  command: id,
  args: [],
  env: [],
  source: 'user',
  editable: true,
  removable: true,
  openSessions: 0,
  availability: { status: 'installed', detail: '' },
  hints: [],
});
const agents = [agent('demo', 'Demo agent'), agent('qwen', 'Qwen Code')];
const server: McpServerViewT = {
  id: 's1',
  name: 'github',
  type: 'stdio',
  command: 'npx',
  args: ['-y', 'server-github'],
  env: [{ name: 'GITHUB_TOKEN', secret: true, set: true }],
  agentIds: ['demo'],
  createdAt: 1,
  updatedAt: 1,
};

/** The markup without React's separators between adjacent text nodes. */
const bare = (html: string): string => html.replace(/<!-- -->/g, '');

describe('Settings → MCP servers', () => {
  it('lists each server with its command, its secrets by name only, and a switch per agent', () => {
    const html = renderWith(storeWith({ agents, mcpServers: [server] }), <McpSection />);
    expect(html).toContain('aria-label="MCP servers"');
    expect(html).toContain('npx -y server-github');
    expect(html).toContain('GITHUB_TOKEN (secret, set)');
    expect(html).toMatch(/<legend[^>]*>Given to<\/legend><label[^>]*><input type="checkbox" checked=""\/> Demo agent<\/label><label[^>]*><input type="checkbox"\/> Qwen Code/);
    for (const button of ['Edit', 'Test', 'Remove', 'Add MCP server', 'Import']) expect(html).toContain(`>${button}</button>`);
  });

  it('shows what a Test found: the tools, or why it failed with the server’s last words', () => {
    const ok = bare(renderWith(
      storeWith({ agents, mcpServers: [{ ...server, lastTest: { ok: true, at: 1, durationMs: 900, server: { name: 'github-mcp', version: '2.0.0' }, tools: [{ name: 'search_issues', description: 'Finds issues' }] } }] }),
      <McpSection />,
    ));
    expect(ok).toContain('github-mcp 2.0.0 answered in 0.9 s with 1 tool');
    expect(ok).toContain('aria-label="Tools of github"');
    expect(ok).toContain('search_issues');
    const failed = bare(renderWith(
      storeWith({ agents, mcpServers: [{ ...server, lastTest: { ok: false, at: 1, durationMs: 20_000, reason: 'timeout', message: 'github did not answer within 20 s; it was stopped.', stderrTail: ['waiting for token'] } }] }),
      <McpSection />,
    ));
    expect(failed).toContain('No answer after 20.0 s: github did not answer within 20 s; it was stopped.');
    expect(failed).toContain('waiting for token');
  });

  it('says Testing while a Test runs', () => {
    const html = bare(renderWith(storeWith({ agents, mcpServers: [server], mcpTests: new Map([['s1', { serverId: 's1', step: 'listing' as const, elapsedMs: 1200 }]]) }), <McpSection />));
    expect(html).toContain('Testing: listing its tools (1.2 s)…');
  });

  it('shows what Import found with the file it came from, before anything is added', () => {
    const report: McpImportReportT = {
      candidates: [
        {
          key: 'k1',
          source: 'claude-code',
          file: '/home/me/.claude.json',
          scope: 'local',
          project: '/src/app',
          server: { name: 'db', type: 'stdio', command: 'db-mcp', args: [], env: [{ name: 'DB_PASSWORD', secret: true, set: true }], agentIds: [] },
          warnings: ['Not carried over (ACP cannot pass it to agents): cwd.'],
        },
      ],
      problems: [{ file: '/home/me/.gemini/settings.json', message: 'not valid JSON' }],
      searched: ['/home/me/.claude.json', '/home/me/.gemini/settings.json'],
    };
    const html = bare(renderWith(storeWith({ agents, mcpImport: report }), <McpSection />));
    expect(html).toContain('Import MCP servers');
    expect(html).toContain('From Claude Code, project /src/app (your own file): <code>/home/me/.claude.json</code>');
    expect(html).toContain('DB_PASSWORD (secret, set)');
    expect(html).toContain('Not carried over');
    expect(html).toContain('not valid JSON');
    expect(html).toContain('Files looked in (2)');
    expect(html).toMatch(/<button type="button" class="button-primary" disabled="">Add selected<\/button>/);
  });

  it('offers a form named Add MCP server with Name, Command, Arguments and a secret toggle per variable', () => {
    const html = renderWith(storeWith({ agents }), <McpServerForm onDone={() => {}} />);
    expect(html).toContain('aria-label="Add MCP server"');
    expect(html).toMatch(/<label class="field-label" for="[^"]+">Name<\/label>/);
    expect(html).toMatch(/<label class="field-label" for="[^"]+">Command<\/label>/);
    expect(html).toMatch(/<label class="field-label" for="[^"]+">Arguments<\/label>/);
    expect(html).toContain('Local command (stdio)');
    expect(html).toContain('>Add variable</button>');
    expect(html).toContain('>Save server</button>');
    // A new server starts given to every agent.
    expect(html.match(/<input type="checkbox" checked=""\/> (Demo agent|Qwen Code)/g)).toHaveLength(2);
    const edit = renderWith(storeWith({ agents }), <McpServerForm server={{ ...server, type: 'http', url: 'https://x.example/mcp', headers: [{ name: 'Authorization', secret: true, set: true }] } as McpServerViewT} onDone={() => {}} />);
    expect(edit).toContain('aria-label="Edit github"');
    expect(edit).toMatch(/<label class="field-label" for="[^"]+">URL<\/label>/);
    expect(edit).toContain('aria-label="Header 1 name"');
    expect(edit).toContain('placeholder="set (leave empty to keep)"');
    expect(edit).toContain('type="password"');
  });
});
