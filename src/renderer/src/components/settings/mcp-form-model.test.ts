import { describe, expect, it } from 'vitest';
import type { McpServerViewT } from '../../../../shared/contract';
import { draftOf, fieldErrors, requestOf, varRow, type McpDraft } from './mcp-form-model';

const blank = (over: Partial<McpDraft> = {}): McpDraft => ({ ...draftOf(undefined, ['demo']), ...over });

describe('the MCP server form as data', () => {
  it('sends a stdio server: one argument per line, blank rows left out, a stored secret kept without its value', () => {
    const stored: McpServerViewT = {
      id: 's1',
      name: 'github',
      type: 'stdio',
      command: 'npx',
      args: ['-y', 'server-github'],
      env: [
        { name: 'GITHUB_TOKEN', secret: true, set: true },
        { name: 'MODE', secret: false, value: 'ro', set: true },
      ],
      agentIds: ['demo'],
      createdAt: 1,
      updatedAt: 1,
    };
    const draft = draftOf(stored);
    expect(draft.args).toBe('-y\nserver-github');
    expect(draft.vars.map((v) => [v.name, v.value, v.secret, v.stored])).toEqual([
      ['GITHUB_TOKEN', '', true, true],
      ['MODE', 'ro', false, false],
    ]);
    const withBlank = { ...draft, vars: [...draft.vars, varRow()] };
    expect(requestOf(withBlank)).toEqual({
      type: 'stdio',
      id: 's1',
      name: 'github',
      agentIds: ['demo'],
      command: 'npx',
      args: ['-y', 'server-github'],
      env: [
        { name: 'GITHUB_TOKEN', secret: true },
        { name: 'MODE', secret: false, value: 'ro' },
      ],
    });
    expect(fieldErrors(withBlank)).toEqual({});
  });

  it('sends an HTTP server with headers, and a new server is given to the agents it starts with', () => {
    const d = blank({ type: 'http', name: 'docs', url: 'https://mcp.example.com/mcp', vars: [varRow({ name: 'Authorization', value: 'Bearer x', secret: true })] });
    expect(requestOf(d)).toEqual({ type: 'http', name: 'docs', agentIds: ['demo'], url: 'https://mcp.example.com/mcp', headers: [{ name: 'Authorization', secret: true, value: 'Bearer x' }] });
    expect(fieldErrors(d)).toEqual({});
  });

  it('names each refused field in words, before anything is sent', () => {
    expect(fieldErrors(blank())).toEqual({ name: 'Give the server a name.', command: 'Give the command that starts the server.' });
    expect(fieldErrors(blank({ type: 'sse', name: 'x', url: 'ftp://example.com' }))).toEqual({ url: 'An http:// or https:// address.' });
    const secret = varRow({ name: 'TOKEN', secret: true });
    const unnamed = varRow({ value: 'v' });
    const badName = varRow({ name: '1BAD', value: 'v' });
    const d = blank({ name: 'x', command: 'run', vars: [secret, unnamed, badName] });
    expect(fieldErrors(d)).toEqual({
      [`var-${secret.key}-value`]: 'A new secret needs a value.',
      [`var-${unnamed.key}-name`]: 'Name the variable.',
      [`var-${badName.key}-name`]: 'Letters, digits and underscore, not starting with a digit.',
    });
    const twice = [varRow({ name: 'A', value: '1' }), varRow({ name: 'A', value: '2' })];
    expect(fieldErrors(blank({ name: 'x', command: 'run', vars: twice }))).toEqual({ [`var-${twice[1]!.key}-name`]: 'A is listed twice.' });
    const header = varRow({ name: 'X Bad', value: 'v' });
    expect(fieldErrors(blank({ type: 'http', name: 'x', url: 'https://a.example', vars: [header] }))).toMatchObject({ [`var-${header.key}-name`]: expect.stringContaining('Letters, digits') as string });
  });
});
