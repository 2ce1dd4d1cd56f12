import type { Approval } from '@pharmacy/contracts';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { createPortal } from 'react-dom';
import { api } from '../api';
import { Dialog } from '../ui/Dialog';
import { ErrorNotice } from '../ui/ErrorNotice';
import { fieldError, TextField } from '../ui/fields';

/**
 * Manager override on the same till (issue 29): the manager types their email and password at the cashier's
 * till and approves, with an optional note; the cashier stays signed in and continues. `approval` is the
 * request when it was already asked for, else `ask` asks for it first. The till checks the manager against
 * its own verifier, so it works while head office is down, and records the sign-in with the decision.
 */
export function ManagerOverrideDialog({
  what,
  approval,
  ask,
  onApproved,
  onClose,
}: {
  /** What the manager approves, in words: "a discount of 12.00 on Amoxicillin". */
  what: string;
  approval?: Approval | undefined;
  ask: () => Promise<Approval>;
  onApproved: (approval: Approval) => void;
  onClose: () => void;
}) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [note, setNote] = useState('');
  const approve = useMutation({
    mutationFn: async () => {
      const request = approval ?? (await ask());
      return api.approvals.override(request.id, { email, password, ...(note.trim() && { note }) });
    },
    onSuccess: (approved) => onApproved(approved),
  });
  // Opened from inside another dialog's form (Payment): portalled out of it, its submit kept to itself.
  return createPortal(
    <Dialog title="Manager override" onClose={onClose}>
      <form
        className="stack"
        onSubmit={(e) => {
          e.preventDefault();
          e.stopPropagation();
          approve.mutate();
        }}
      >
        <p>A branch manager approves {what} here, with their own email and password.</p>
        <TextField
          label="Manager's email"
          type="email"
          value={email}
          onChange={setEmail}
          autoComplete="off"
          error={fieldError(approve.error, 'email')}
          data-autofocus=""
        />
        <TextField
          label="Manager's password"
          type="password"
          value={password}
          onChange={setPassword}
          autoComplete="off"
          error={fieldError(approve.error, 'password')}
        />
        <TextField
          label="Note (optional)"
          value={note}
          onChange={setNote}
          maxLength={500}
          error={fieldError(approve.error, 'note')}
        />
        <ErrorNotice error={approve.error} />
        <div className="dialog-actions">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={approve.isPending || !email || !password}>
            Approve
          </button>
        </div>
      </form>
    </Dialog>,
    document.body,
  );
}
