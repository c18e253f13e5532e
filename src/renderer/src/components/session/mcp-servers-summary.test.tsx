import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { McpServersSummary, mcpSummaryText } from './mcp-servers-summary';

describe('the session’s MCP servers in its header', () => {
  const servers = [
    { name: 'tools', type: 'stdio' as const, target: 'node server.js' },
    { name: 'web', type: 'http' as const, target: 'https://mcp.example.com/mcp', skipped: 'The agent does not take MCP servers over HTTP.' },
  ];

  it('counts what was given and skipped', () => {
    expect(mcpSummaryText(servers)).toBe('1 MCP server, 1 skipped');
    expect(mcpSummaryText([servers[0]!, { ...servers[0]!, name: 'more' }])).toBe('2 MCP servers');
  });

  it('lists each server with its target, and each skipped one with the reason; nothing when none is turned on', () => {
    const html = renderToStaticMarkup(<McpServersSummary servers={servers} />).replace(/<!-- -->/g, '');
    expect(html).toContain('<summary>1 MCP server, 1 skipped</summary>');
    expect(html).toContain('aria-label="MCP servers of this session"');
    expect(html).toContain('<strong>tools</strong> (stdio) <code>node server.js</code>');
    expect(html).toContain('skipped: The agent does not take MCP servers over HTTP.');
    expect(renderToStaticMarkup(<McpServersSummary servers={undefined} />)).toBe('');
    expect(renderToStaticMarkup(<McpServersSummary servers={[]} />)).toBe('');
  });
});
