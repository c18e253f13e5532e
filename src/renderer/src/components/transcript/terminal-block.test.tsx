import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { createAppStore, type AppState, type AppStoreApi } from '../../store/app-store';
import { StoreProvider } from '../../store/context';
import { mergePiece } from '../../store/slices/terminals/actions';
import { terminalKey } from '../../store/slices/terminals/initial-state';
import type { Row } from '../../store/slices/transcript/rows';
import { buildRows } from '../../test-support/rows';
import { ev, FakeApi, flush, SID, testDeps } from '../../test-support/fake-api';
import { TranscriptRow } from './transcript-row';

function storeWith(fake: FakeApi, state: Partial<AppState>): AppStoreApi {
  const store = createAppStore(testDeps(fake));
  store.setState(state);
  store.getInitialState = store.getState;
  return store;
}
const thoughts = { isOpen: () => false, setOpen: () => {} };
const render = (store: AppStoreApi, row: Row) =>
  renderToStaticMarkup(
    <StoreProvider store={store}>
      <TranscriptRow row={row} openThoughts={thoughts} />
    </StoreProvider>,
  );

const toolWithTerminal = ev(1, 'tool_call', {
  toolCallId: 't1',
  title: 'npm test',
  kind: 'execute',
  status: 'in_progress',
  content: [{ type: 'terminal', terminalId: 'term-1' }],
});

describe('terminal output in the transcript', () => {
  it('folds the stored final output into the tool call that embeds the terminal', () => {
    const rows = buildRows([
      toolWithTerminal,
      ev(2, 'tool_call_update', { toolCallId: 't1', status: 'completed' }),
      ev(3, 'terminal_output', { terminalId: 'term-1', command: 'npm test', output: 'ok\n', truncated: false, exit: { exitCode: 0, signal: null } }),
      ev(4, 'terminal_output', { terminalId: 'term-never-embedded', command: 'x', output: '', truncated: false, exit: { exitCode: 0 } }),
    ]);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ type: 'tool', call: { status: 'completed', terminalsDone: { 'term-1': { output: 'ok\n' } } } });
  });

  it('shows live output inside the tool card while the command runs, then how it ended', () => {
    const fake = new FakeApi();
    const live = { text: 'line 1\nline 2\n', end: 14, truncated: false, exit: undefined };
    const store = storeWith(fake, { currentSessionId: SID, terminals: new Map([[terminalKey(SID, 'term-1'), live]]) });
    const [row] = buildRows([toolWithTerminal]);
    const html = render(store, row!);
    expect(html).toContain('aria-label="Terminal output"');
    expect(html).toContain('line 1\nline 2\n');
    expect(html).toContain('Running…');

    const [doneRow] = buildRows([
      toolWithTerminal,
      ev(2, 'terminal_output', { terminalId: 'term-1', command: 'npm test', output: 'boom\n', truncated: true, exit: { exitCode: 2 } }),
    ]);
    const done = render(store, doneRow!);
    expect(done).toContain('boom\n');
    expect(done).toContain('earlier output truncated');
    expect(done).toContain('Exited with code 2');
  });

  it('shows a written file with its diff', () => {
    const [row] = buildRows([
      ev(1, 'file_written', { path: '/w/a.txt', created: false, bytes: 4, diff: { type: 'diff', path: '/w/a.txt', oldText: 'old\n', newText: 'new\n' } }),
    ]);
    const html = render(storeWith(new FakeApi(), {}), row!);
    expect(html).toContain('The agent wrote <code>/w/a.txt</code> (4 bytes)');
    expect(html).toContain('<span class="diff-del">-old\n</span>');
    expect(html).toContain('<span class="diff-add">+new\n</span>');
  });
});

describe('live terminal pieces', () => {
  it('appends pieces in order and skips what is already held', () => {
    let t = mergePiece(undefined, 0, 'ab');
    t = mergePiece(t, 2, 'cd');
    t = mergePiece(t, 1, 'bcde');
    t = mergePiece(t, 0, 'a');
    expect(t).toMatchObject({ text: 'abcde', end: 5, truncated: false });
  });

  it('marks a gap as truncated output rather than inventing text', () => {
    expect(mergePiece(mergePiece(undefined, 0, 'ab'), 5, 'xy')).toMatchObject({ text: 'abxy', end: 7, truncated: true });
    expect(mergePiece(undefined, 3, 'late')).toMatchObject({ text: 'late', truncated: true });
  });

  it('merges a snapshot read mid-run with pieces that arrived meanwhile, and takes the exit', async () => {
    const fake = new FakeApi().handle('terminals:read', () => ({
      ok: true,
      value: { terminalId: 'term-1', command: 'x', text: 'one\ntwo\n', end: 8, truncated: false },
    }));
    const store = createAppStore(testDeps(fake));
    store.getState().receiveTerminalOutput({ sessionId: SID, terminalId: 'term-1', start: 4, text: 'two\nthree\n' });
    await store.getState().loadTerminal(SID, 'term-1');
    store.getState().receiveTerminalOutput({ sessionId: SID, terminalId: 'term-1', start: 14, text: '', exit: { exitCode: 0, signal: null } });
    await flush();
    expect(store.getState().terminals.get(terminalKey(SID, 'term-1'))).toEqual({
      text: 'one\ntwo\nthree\n',
      end: 14,
      truncated: false,
      exit: { exitCode: 0, signal: null },
    });
  });
});
