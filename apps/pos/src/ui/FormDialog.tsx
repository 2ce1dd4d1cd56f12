import type { ReactNode } from 'react';
import { Dialog } from './Dialog';
import { ErrorNotice } from './ErrorNotice';

/**
 * A dialog that is one form: `lead` (what the form acts on), the server's refusal, the fields (each showing its
 * own error beside it), then Cancel and the submit button, held while the request is pending. Submitting runs
 * `onSubmit` (the browser's own submission never happens); the caller closes the dialog once saved
 * (useSaveThenClose).
 */
export function FormDialog({
  title,
  onClose,
  onSubmit,
  error,
  pending,
  submitLabel,
  cancelLabel = 'Cancel',
  danger = false,
  lead,
  actions,
  className,
  children,
}: {
  title: string;
  onClose: () => void;
  onSubmit: () => void;
  error: unknown;
  pending: boolean;
  submitLabel: string;
  cancelLabel?: string;
  /** The submit destroys or gives something up (dismiss a change, disconnect): styled as a warning. */
  danger?: boolean;
  lead?: ReactNode;
  /** Buttons of other actions on the same thing (Deactivate), before Cancel. */
  actions?: ReactNode;
  className?: string;
  children: ReactNode;
}) {
  return (
    <Dialog title={title} onClose={onClose}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          onSubmit();
        }}
        noValidate
        className={className}
      >
        {lead}
        <ErrorNotice error={error} />
        {children}
        <div className="dialog-actions">
          {actions}
          <button type="button" onClick={onClose}>
            {cancelLabel}
          </button>
          <button type="submit" className={danger ? 'danger' : 'primary'} disabled={pending}>
            {submitLabel}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
