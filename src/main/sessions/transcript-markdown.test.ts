import { describe, expect, it } from 'vitest';
import type { SessionEventT } from '../../shared/contract';
import { lineChanges, transcriptMarkdown } from './transcript-markdown';

const SID = '00000000-0000-4000-8000-000000000001';
const header = { title: 'A title', agentName: 'Demo agent', cwd: '/w', createdAt: 0, exportedAt: 1_000 };
let seq = 0;
const ev = (e: Omit<SessionEventT, 'sessionId' | 'seq' | 'at'>): SessionEventT => ({ sessionId: SID, seq: ++seq, at: seq, ...e }) as SessionEventT;

describe('transcriptMarkdown', () => {
  it('joins a streamed reply into one message and shows each tool call once, with its final status', () => {
    const md = transcriptMarkdown(header, [
      ev({ kind: 'user_message', payload: { text: 'go' } }),
      ev({ kind: 'agent_message', payload: { text: 'Hel' } }),
      ev({ kind: 'agent_message', payload: { text: 'lo' } }),
      ev({ kind: 'tool_call', payload: { toolCallId: 't', title: 'Run `make`', kind: 'execute', status: 'pending' } }),
      ev({ kind: 'tool_call_update', payload: { toolCallId: 't', status: 'failed' } }),
    ]);
    expect(md).toContain('## Agent\n\nHello\n');
    expect(md.match(/Tool call/g)).toHaveLength(1);
    // A title holding backticks stays one code span.
    expect(md).toContain('- **Tool call** `` Run `make` `` (execute): failed');
  });

  it('says a permission or question nobody answered is not answered', () => {
    const md = transcriptMarkdown(header, [
      ev({ kind: 'permission_requested', payload: { requestId: 'r', toolCall: { toolCallId: 't', title: 'Edit' }, options: [] } }),
      ev({ kind: 'question_asked', payload: { requestId: 'q', question: { mode: 'url', message: 'Sign in', elicitationId: 'e', target: { href: 'https://a.example/', scheme: 'https', host: 'a.example', displayHost: 'a.example', warnings: [], deceptive: false } } } }),
    ]);
    expect(md).toContain('- **Permission** for `Edit`: not answered');
    expect(md).toContain('- **Question** to open a page on `a.example`: “Sign in” — not answered');
  });

  it('shows a worktree\'s setup command and a restore, and nothing of a checkpoint', () => {
    const md = transcriptMarkdown(header, [
      ev({ kind: 'setup_command', payload: { command: 'npm ci', output: 'added 3 packages\nnpm ERR! oops\n', truncated: false, exit: { exitCode: 1, signal: null }, durationMs: 900, failed: true } }),
      ev({ kind: 'checkpoint', payload: { checkpointId: 'c', clientMessageId: 'c', commit: 'abc', reason: 'turn' } }),
      ev({ kind: 'files_restored', payload: { action: 'restore', checkpointId: 'c', undo: 'u', removed: 0, written: 1, paths: ['a.txt'], text: 'Restored the files to the checkpoint before that turn (1 file changed).' } }),
    ]);
    expect(md).toContain('- **Setup command** `npm ci`: failed, exit 1, 2 lines of output');
    expect(md).toContain('- *Restored the files to the checkpoint before that turn (1 file changed).*');
    expect(md).not.toContain('abc');
  });
});

describe('lineChanges', () => {
  it('counts added and removed lines; a new file is all added', () => {
    expect(lineChanges('a\nb\nc', 'a\nB\nc\nd')).toEqual({ added: 2, removed: 1 });
    expect(lineChanges(null, 'x\ny')).toEqual({ added: 2, removed: 0 });
  });
});
