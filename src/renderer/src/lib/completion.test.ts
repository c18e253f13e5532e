import { describe, expect, it } from 'vitest';
import { commandOptions, complete, keyOutcome, mentionedPaths, mentionOptions, triggerAt } from './completion';

const commands = [
  { name: 'slow', description: 'Stream ticks', input: { hint: 'seconds' } },
  { name: 'plan', description: 'Show a plan' },
  { name: 'permission', description: 'Ask for permission', input: { hint: 'title' } },
];

describe('triggerAt', () => {
  it('completes a / only as the first character, up to the caret', () => {
    expect(triggerAt('/sl', 3)).toEqual({ kind: 'command', query: 'sl', start: 0, end: 3 });
    expect(triggerAt('/', 1)).toEqual({ kind: 'command', query: '', start: 0, end: 1 });
    expect(triggerAt('see /sl', 7)).toBeUndefined();
    // Once the arguments start, the command is done.
    expect(triggerAt('/slow 3', 7)).toBeUndefined();
  });

  it('takes the whole token when the caret is inside it', () => {
    expect(triggerAt('/plxx rest', 2)).toEqual({ kind: 'command', query: 'p', start: 0, end: 5 });
  });

  it('starts a mention at the start or after white space, not inside a word', () => {
    expect(triggerAt('@src/a', 6)).toEqual({ kind: 'mention', query: 'src/a', start: 0, end: 6 });
    expect(triggerAt('read @do', 8)).toEqual({ kind: 'mention', query: 'do', start: 5, end: 8 });
    expect(triggerAt('mail me@example.com', 19)).toBeUndefined();
    expect(triggerAt('read @a b', 9)).toBeUndefined();
  });
});

describe('options', () => {
  it('filters commands as you type, prefix matches first, with description and hint', () => {
    expect(commandOptions(commands, '').map((o) => o.label)).toEqual(['/slow', '/plan', '/permission']);
    expect(commandOptions(commands, 'PL')).toEqual([{ label: '/plan', description: 'Show a plan', insert: '/plan' }]);
    expect(commandOptions(commands, 'o').map((o) => o.label)).toEqual(['/slow', '/permission']);
    expect(commandOptions(commands, 'sl')[0]).toEqual({ label: '/slow', description: 'Stream ticks', hint: 'seconds', insert: '/slow' });
    // Typed whole, a command comes first even when another one starts with it.
    expect(commandOptions([{ name: 'plans', description: '' }, ...commands], 'plan').map((o) => o.label)).toEqual(['/plan', '/plans']);
  });

  it('offers paths as @mentions', () => {
    expect(mentionOptions(['src/a.ts'])).toEqual([{ label: 'src/a.ts', insert: '@src/a.ts' }]);
  });
});

describe('complete', () => {
  it('replaces the token and puts the caret after a space', () => {
    const trigger = triggerAt('/sl', 3);
    if (!trigger) throw new Error('no trigger');
    expect(complete('/sl', trigger, { label: '/slow', insert: '/slow' })).toEqual({ text: '/slow ', caret: 6 });
  });

  it('keeps the text around a mention', () => {
    const trigger = triggerAt('read @do now', 8);
    if (!trigger) throw new Error('no trigger');
    expect(complete('read @do now', trigger, { label: 'docs/a.md', insert: '@docs/a.md' })).toEqual({ text: 'read @docs/a.md now', caret: 16 });
  });
});

describe('keyOutcome', () => {
  it('moves with Up and Down, wrapping at both ends', () => {
    expect(keyOutcome('ArrowDown', 0, 3, false)).toEqual({ action: 'move', active: 1 });
    expect(keyOutcome('ArrowDown', 2, 3, false)).toEqual({ action: 'move', active: 0 });
    expect(keyOutcome('ArrowUp', 0, 3, false)).toEqual({ action: 'move', active: 2 });
  });

  it('completes with Enter and Tab, closes with Escape', () => {
    expect(keyOutcome('Enter', 1, 3, false)).toEqual({ action: 'accept' });
    expect(keyOutcome('Tab', 1, 3, false)).toEqual({ action: 'accept' });
    expect(keyOutcome('Escape', 1, 3, false)).toEqual({ action: 'close' });
  });

  it('lets Enter send a command typed whole, and leaves other keys and an empty list alone', () => {
    expect(keyOutcome('Enter', 0, 1, true)).toBeUndefined();
    expect(keyOutcome('Tab', 0, 1, true)).toEqual({ action: 'accept' });
    expect(keyOutcome('Enter', 0, 0, false)).toBeUndefined();
    expect(keyOutcome('a', 0, 3, false)).toBeUndefined();
  });
});

describe('mentionedPaths', () => {
  it('keeps the chosen paths the text still mentions whole', () => {
    const chosen = new Set(['src/a.ts', 'b.md', 'c.txt']);
    expect(mentionedPaths('see @src/a.ts and @b.mdx, also x@c.txt', chosen)).toEqual(['src/a.ts']);
    expect(mentionedPaths('@b.md', chosen)).toEqual(['b.md']);
  });
});
