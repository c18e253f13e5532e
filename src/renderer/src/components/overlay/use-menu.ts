import { useLayoutEffect, useRef, type KeyboardEvent, type RefObject } from 'react';
import { typeaheadTarget } from '../../lib/focus';

const ITEMS = '[role="menuitem"], [role="menuitemcheckbox"], [role="menuitemradio"]';
/** Letters typed within this long of each other are one type-ahead word. */
const TYPEAHEAD_MS = 600;

export interface MenuOptions {
  onClose: () => void;
  /** Which item takes the focus when the menu opens (ArrowUp on its button opens at the last). */
  initial?: 'first' | 'last';
}

const itemsOf = (menu: HTMLElement): HTMLElement[] => [...menu.querySelectorAll<HTMLElement>(ITEMS)];

/**
 * The ARIA menu pattern for a `role="menu"` element: the first (or last) item takes the focus,
 * arrow keys move and wrap, Home and End jump, letters typed go to the item that starts with
 * them, Escape and Tab close it, and a press outside closes it. Closing gives the focus back to
 * what opened the menu, unless the chosen item moved it on purpose (a dialog it opened, a field
 * it focused). Items are buttons with `tabIndex={-1}`: Enter and Space choose them natively.
 */
export function useMenu(menu: RefObject<HTMLElement | null>, { onClose, initial = 'first' }: MenuOptions) {
  const close = useRef(onClose);
  useLayoutEffect(() => {
    close.current = onClose;
  });
  const typed = useRef({ text: '', at: -Infinity });

  useLayoutEffect(() => {
    const box = menu.current;
    if (!box) return undefined;
    const opener = document.activeElement instanceof HTMLElement && !box.contains(document.activeElement) ? document.activeElement : undefined;
    const items = itemsOf(box);
    (initial === 'last' ? items.at(-1) : items[0])?.focus();
    const away = (e: PointerEvent) => {
      if (!box.contains(e.target as Node) && !opener?.contains(e.target as Node)) close.current();
    };
    window.addEventListener('pointerdown', away, true);
    return () => {
      window.removeEventListener('pointerdown', away, true);
      const now = document.activeElement;
      const lost = now === null || now === document.body || box.contains(now) || !now.isConnected;
      if (lost && opener?.isConnected) opener.focus();
    };
    // The first focus is placed once, when the menu opens.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [menu]);

  return (e: KeyboardEvent<HTMLElement>): void => {
    const box = menu.current;
    if (!box || e.altKey || e.ctrlKey || e.metaKey) return;
    const items = itemsOf(box);
    const at = items.indexOf(document.activeElement as HTMLElement);
    const focus = (i: number) => items[(i + items.length) % items.length]?.focus();
    // A key that is not a letter ends the word being typed.
    if (e.key.length !== 1) typed.current.text = '';
    if (e.key === 'ArrowDown') focus(at + 1);
    else if (e.key === 'ArrowUp') focus(at < 0 ? items.length - 1 : at - 1);
    else if (e.key === 'Home') focus(0);
    else if (e.key === 'End') focus(items.length - 1);
    else if (e.key === 'Escape' || e.key === 'Tab') close.current();
    else if (e.key.length === 1 && /\S/.test(e.key)) {
      const t = typed.current;
      t.text = e.timeStamp - t.at < TYPEAHEAD_MS ? t.text + e.key : e.key;
      t.at = e.timeStamp;
      const to = typeaheadTarget(
        items.map((i) => i.textContent ?? ''),
        t.text,
        at,
      );
      if (to !== undefined) focus(to);
    } else return;
    e.preventDefault();
    e.stopPropagation();
  };
}
