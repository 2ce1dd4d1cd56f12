import type { KeyboardEvent } from 'react';

/** An inline panel's Escape: closes it unless a control inside already used the key (a search box clearing). */
export function closeOnEscape(close: () => void) {
  return (e: KeyboardEvent) => {
    if (e.key !== 'Escape' || e.defaultPrevented) return;
    e.preventDefault();
    close();
  };
}
