import { type ReactNode, useEffect, useId, useRef } from 'react';

/**
 * A modal on the native <dialog>: focus is trapped, Escape closes it, and it has the role
 * "dialog" named by its title. Focus starts on the element marked `data-autofocus`, if any.
 */
export function Dialog({
  title,
  onClose,
  children,
}: {
  title: string;
  onClose: () => void;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) {
      dialog.showModal();
      // The dialog's main field, when it names one: never the close button, which a scanner's Enter would press.
      dialog.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    }
    return () => dialog?.close();
  }, []);
  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      <header className="dialog-header">
        <h2 id={titleId}>{title}</h2>
        <button type="button" className="ghost" onClick={onClose} aria-label="Close">
          ✕
        </button>
      </header>
      {children}
    </dialog>
  );
}
