import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { Link as RouterLink } from 'react-router';

export interface SiteLink {
  label: string;
  to: string;
}

/**
 * The public pages' link menu on phones: what MUI's Menu did here (a list below its button, an
 * invisible backdrop that closes it, the first item focused, arrow keys, Escape and Tab), in plain
 * elements, so the public frame carries no MUI popover, modal or focus-trap code.
 */
export function PublicSiteMenu({
  id,
  anchorEl,
  links,
  onClose,
}: {
  id: string;
  anchorEl: HTMLElement | null;
  links: SiteLink[];
  onClose: () => void;
}) {
  const listRef = useRef<HTMLUListElement>(null);
  const [position, setPosition] = useState<{ top: number; right: number }>();

  useLayoutEffect(() => {
    if (!anchorEl) return;
    const rect = anchorEl.getBoundingClientRect();
    setPosition({
      top: rect.bottom,
      right: Math.max(16, document.documentElement.clientWidth - rect.right),
    });
  }, [anchorEl]);

  useEffect(() => {
    if (anchorEl && position) listRef.current?.querySelector<HTMLElement>('a')?.focus();
  }, [anchorEl, position]);

  if (!anchorEl) return null;

  const close = (restoreFocus: boolean) => {
    onClose();
    if (restoreFocus) anchorEl.focus();
  };
  const onKeyDown = (e: KeyboardEvent<HTMLUListElement>) => {
    const items = [...(listRef.current?.querySelectorAll<HTMLElement>('a') ?? [])];
    const at = items.indexOf(document.activeElement as HTMLElement);
    const focusAt = (i: number) => items[(i + items.length) % items.length]?.focus();
    if (e.key === 'Escape') close(true);
    else if (e.key === 'Tab') close(false);
    else if (e.key === 'ArrowDown') focusAt(at + 1);
    else if (e.key === 'ArrowUp') focusAt(at - 1);
    else if (e.key === 'Home') focusAt(0);
    else if (e.key === 'End') focusAt(items.length - 1);
    else return;
    if (e.key !== 'Tab') e.preventDefault();
  };

  return (
    <>
      <div className="ea-menu-backdrop" aria-hidden onClick={() => close(true)} />
      <ul
        ref={listRef}
        id={id}
        role="menu"
        aria-label="Site"
        className="ea-menu"
        style={position ?? { visibility: 'hidden' }}
        onKeyDown={onKeyDown}
      >
        {links.map((l) => (
          <li key={l.to} role="none">
            <RouterLink
              role="menuitem"
              tabIndex={-1}
              to={l.to}
              className="ea-menu-item"
              onClick={() => close(false)}
            >
              {l.label}
            </RouterLink>
          </li>
        ))}
      </ul>
    </>
  );
}
