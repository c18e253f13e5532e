import { describe, expect, it } from 'vitest';
import type { PermissionViewT } from '../../../../shared/contract';
import { SID } from '../../test-support/fake-api';
import { renderWith as render, storeWith } from '../../test-support/static-render';
import { PermissionDialog } from './permission-dialog';

describe('permission dialog', () => {
  const request: PermissionViewT = {
    requestId: 'r1',
    sessionId: SID,
    toolCall: {
      toolCallId: 't1',
      title: 'Edit src/app.ts',
      kind: 'edit',
      locations: [{ path: 'src/app.ts', line: 3 }],
      content: [{ type: 'diff', path: 'src/app.ts', oldText: 'a\nold\n', newText: 'a\nnew\n' }],
    },
    options: [
      { optionId: 'o1', name: 'Allow once', kind: 'allow_once' },
      { optionId: 'o2', name: 'Reject', kind: 'reject_once' },
    ],
    createdAt: 1,
  };

  it('is named by the tool call title and has one button per option, named as the agent named it', () => {
    const html = render(storeWith({}), <PermissionDialog request={request} />);
    expect(html).toContain('role="dialog" aria-label="Edit src/app.ts"');
    expect(html).toContain('>Allow once</button>');
    expect(html).toContain('>Reject</button>');
    expect(html).toContain('src/app.ts:3');
    expect(html).toContain('-old\n');
    expect(html).toContain('+new\n');
  });

  it('shows the command of an execute request', () => {
    const exec: PermissionViewT = { ...request, toolCall: { toolCallId: 't', title: 'Run', kind: 'execute', rawInput: { command: 'npm test' } } };
    expect(render(storeWith({}), <PermissionDialog request={exec} />)).toContain('$ npm test');
  });
});
