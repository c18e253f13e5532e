/**
 * Where a key moves the focus in a list of `count` entries when entry `at` has it (-1: none
 * of them). Undefined: the key is not a list key, or there is nowhere to go.
 */
export function listKeyTarget(key: string, at: number, count: number): number | undefined {
  if (count === 0) return undefined;
  switch (key) {
    case 'ArrowDown':
      return at < 0 ? 0 : Math.min(at + 1, count - 1);
    case 'ArrowUp':
      return at < 0 ? count - 1 : Math.max(at - 1, 0);
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    default:
      return undefined;
  }
}
