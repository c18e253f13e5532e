import { useId, useRef, useState, type CSSProperties, type ReactNode, type Ref } from 'react';
import { useMenu } from './use-menu';

export interface MenuItem {
  /** Stable key. */
  id: string;
  label: string;
  onSelect: () => void;
}

export interface MenuProps {
  label: string;
  items: readonly MenuItem[];
  onClose: () => void;
  initial?: 'first' | 'last';
  id?: string;
  className?: string;
  style?: CSSProperties;
}

/** A `role="menu"` of buttons with the keys of `useMenu`; choosing an item closes it first. */
export function Menu({ label, items, onClose, initial, id, className, style }: MenuProps) {
  const ref = useRef<HTMLDivElement>(null);
  const onKeyDown = useMenu(ref, { onClose, initial });
  return (
    <div ref={ref} id={id} role="menu" aria-label={label} className={`menu${className ? ` ${className}` : ''}`} style={style} onKeyDown={onKeyDown}>
      {items.map((item) => (
        <button
          key={item.id}
          type="button"
          role="menuitem"
          tabIndex={-1}
          onClick={() => {
            onClose();
            item.onSelect();
          }}
        >
          {item.label}
        </button>
      ))}
    </div>
  );
}

/**
 * A button that opens a menu below it (the menu button pattern): Enter, Space or ArrowDown open
 * it at the first item, ArrowUp at the last; it says whether the menu is open.
 */
export function MenuButton({
  label,
  items,
  className,
  buttonRef,
  children,
}: {
  label: string;
  items: readonly MenuItem[];
  className?: string;
  buttonRef?: Ref<HTMLButtonElement>;
  /** What the button shows, when not its name (the name must then contain it). */
  children?: ReactNode;
}) {
  const [open, setOpen] = useState<'first' | 'last' | undefined>(undefined);
  const id = useId();
  return (
    <div className="menu-anchor">
      <button
        ref={buttonRef}
        type="button"
        className={className}
        aria-label={children === undefined ? undefined : label}
        aria-haspopup="menu"
        aria-expanded={open !== undefined}
        aria-controls={open ? id : undefined}
        onClick={() => setOpen((o) => (o ? undefined : 'first'))}
        onKeyDown={(e) => {
          if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
          e.preventDefault();
          setOpen(e.key === 'ArrowDown' ? 'first' : 'last');
        }}
      >
        {children ?? label}
      </button>
      {open ? <Menu id={id} label={label} items={items} initial={open} onClose={() => setOpen(undefined)} className="menu-popup" /> : null}
    </div>
  );
}
