import { describe, expect, it } from 'vitest';
import { renderWith, storeWith } from '../../test-support/static-render';
import { ConfirmDialog } from './confirm-dialog';

describe('the shared confirmation', () => {
  it('is an alert dialog named by its question, with its options, Cancel and the confirm button', () => {
    const store = storeWith({});
    store.getState().askConfirm({
      title: 'Archive this worktree session?',
      text: 'The branch is kept.',
      confirmLabel: 'Archive',
      danger: false,
      options: [{ id: 'keepWorktree', label: 'Keep the worktree folder', checked: false }],
      onConfirm: () => {},
    });
    const html = renderWith(store, <ConfirmDialog />);
    expect(html).toContain('role="alertdialog" aria-modal="true" aria-label="Archive this worktree session?"');
    expect(html).toContain('<label class="confirm-option"><input type="checkbox"/> Keep the worktree folder</label>');
    expect(html).toMatch(/>Cancel<\/button><button type="button" class="button-primary">Archive<\/button>/);
  });

  it('runs the action only on confirm, with the options as left, and renders nothing once answered', () => {
    const store = storeWith({});
    const runs: Record<string, boolean>[] = [];
    const ask = () => store.getState().askConfirm({ title: 'Discard?', text: 't', confirmLabel: 'Discard', options: [{ id: 'a', label: 'A', checked: false }], onConfirm: (o) => void runs.push({ ...o }) });
    ask();
    store.getState().cancelConfirm();
    expect(runs).toEqual([]);
    expect(renderWith(store, <ConfirmDialog />)).toBe('');
    ask();
    expect(renderWith(store, <ConfirmDialog />)).toContain('class="button-danger">Discard</button>');
    store.getState().setConfirmOption('a', true);
    store.getState().acceptConfirm();
    expect(runs).toEqual([{ a: true }]);
    expect(store.getState().confirm).toBeUndefined();
  });
});
