import { useEffect, useRef } from 'react';

/**
 * Global F-key shortcuts, e.g. `{ F1: () => navigate('/sell') }`. F-keys are free in every field,
 * so they work wherever the focus is; browsers' own F1 (help) is suppressed.
 */
export function useShortcuts(bindings: Record<string, () => void>, enabled = true): void {
  const ref = useRef(bindings);
  ref.current = bindings;
  useEffect(() => {
    if (!enabled) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.ctrlKey || event.altKey || event.metaKey || event.shiftKey) return;
      const action = ref.current[event.key];
      if (!action) return;
      if (document.querySelector('dialog[open]')) return;
      event.preventDefault();
      action();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [enabled]);
}
