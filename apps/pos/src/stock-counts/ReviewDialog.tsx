import type { Approval } from '@pharmacy/contracts';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api } from '../api';
import { ManagerOverrideDialog } from '../approvals/ManagerOverrideDialog';
import { useUser } from '../session/SessionProvider';
import { Dialog } from '../ui/Dialog';
import { ErrorNotice } from '../ui/ErrorNotice';
import { TextAreaField, TextField } from '../ui/fields';
import {
  approvalCovers,
  approvalNeed,
  type CountSummary,
  type Counts,
  type SheetLine,
  submitLines,
  type Variance,
} from './count-sheet';

const signed = (n: number) => (n > 0 ? `+${n}` : String(n));

/** The variances before submitting, what approval the server will ask for, notes, and the submit. */
export function ReviewDialog({
  branchId,
  lines,
  counts,
  summary,
  threshold,
  onClose,
  onSubmitted,
}: {
  branchId: string;
  lines: readonly SheetLine[];
  counts: Counts;
  summary: CountSummary;
  threshold: number;
  onClose: () => void;
  onSubmitted: (text: string) => void;
}) {
  const me = useUser();
  const need = approvalNeed(summary, me.role);
  const [notes, setNotes] = useState('');
  const [approvalId, setApprovalId] = useState('');
  const [witness, setWitness] = useState<WitnessEntry>({ reason: '', email: '', password: '' });
  const controlled = summary.variances.filter((v) => v.line.is_controlled);
  const witnessMissing =
    controlled.length > 0 && (!witness.reason.trim() || !witness.email.trim() || !witness.password);
  const submit = useMutation({
    mutationFn: () =>
      api.stockCount.submit({
        branch_id: branchId,
        notes,
        lines: submitLines(lines, counts),
        ...(approvalId.trim() ? { approval_id: approvalId.trim() } : {}),
        ...(controlled.length > 0
          ? {
              variance_reason: witness.reason.trim(),
              witness: { email: witness.email.trim(), password: witness.password },
            }
          : {}),
      }),
    onSuccess: (r) =>
      onSubmitted(
        `Count submitted: ${r.lines_counted} batches counted, ${r.lines_with_variance} with a variance (net ${signed(r.total_variance)} units) booked to the stock ledger.`,
      ),
  });
  return (
    <Dialog title="Review the count" onClose={onClose}>
      <ErrorNotice error={submit.error} />
      <p>
        {summary.counted} of {summary.total} batches counted; batches not counted keep their booked quantity.
        {summary.invalid.length > 0 &&
          ` ${summary.invalid.length} entries are not whole numbers and are left out.`}
      </p>
      {summary.variances.length === 0 ? (
        <p>No variances: every counted batch matches the books.</p>
      ) : (
        <VarianceTable variances={summary.variances} threshold={threshold} />
      )}
      {need.kind === 'one' && (
        <ApprovalBox
          variance={need.variance}
          threshold={threshold}
          approvalId={approvalId}
          onApproval={setApprovalId}
        />
      )}
      {need.kind === 'many' && (
        <div role="alert" className="notice error">
          {need.count} variances are above the approval threshold of {threshold} units. One approval covers
          one batch, so a branch manager, inventory manager or administrator must submit this count; or submit
          it in parts, each with at most one such variance and its own approval.
        </div>
      )}
      {controlled.length > 0 && <WitnessBox variances={controlled} value={witness} onChange={setWitness} />}
      <TextAreaField label="Notes" value={notes} onChange={setNotes} rows={2} maxLength={1000} />
      <div className="dialog-actions">
        <button type="button" onClick={onClose}>
          Back to counting
        </button>
        <button
          type="button"
          className="primary"
          disabled={
            submit.isPending ||
            witnessMissing ||
            need.kind === 'many' ||
            (need.kind === 'one' && !approvalId.trim())
          }
          onClick={() => submit.mutate()}
        >
          Submit count
        </button>
      </div>
    </Dialog>
  );
}

interface WitnessEntry {
  reason: string;
  email: string;
  password: string;
}

/**
 * A variance on a controlled medicine, whatever its size: the reason, and a second person (pharmacist or
 * admin, not the counter) who witnesses it by signing with their own email and password. The count then
 * enters the controlled-drug register as a discrepancy.
 */
function WitnessBox({
  variances,
  value,
  onChange,
}: {
  variances: readonly Variance[];
  value: WitnessEntry;
  onChange: (v: WitnessEntry) => void;
}) {
  const set = (k: keyof WitnessEntry) => (v: string) => onChange({ ...value, [k]: v });
  return (
    <fieldset className="notice">
      <legend>Controlled medicine discrepancy</legend>
      <p>
        {variances.map((v) => `${v.line.medicine_name} (${signed(v.variance)})`).join(', ')}:{' '}
        {variances.length === 1 ? 'a controlled medicine differs' : 'controlled medicines differ'} from the
        books. Give the reason, and a pharmacist other than you witnesses it with their own sign-in.
      </p>
      <TextField
        label="Reason for the difference"
        value={value.reason}
        onChange={set('reason')}
        maxLength={500}
      />
      <TextField
        label="Witness email"
        type="email"
        value={value.email}
        onChange={set('email')}
        autoComplete="off"
      />
      <TextField
        label="Witness password"
        type="password"
        value={value.password}
        onChange={set('password')}
        autoComplete="off"
      />
    </fieldset>
  );
}

function VarianceTable({ variances, threshold }: { variances: readonly Variance[]; threshold: number }) {
  return (
    <table aria-label="Variances">
      <thead>
        <tr>
          <th scope="col">Medicine</th>
          <th scope="col">Batch</th>
          <th scope="col" className="num">
            Expected
          </th>
          <th scope="col" className="num">
            Counted
          </th>
          <th scope="col" className="num">
            Variance
          </th>
        </tr>
      </thead>
      <tbody>
        {variances.map((v) => (
          <tr key={v.line.batch_id} className={Math.abs(v.variance) > threshold ? 'variance' : undefined}>
            <td>{v.line.medicine_name}</td>
            <td>{v.line.batch_number}</td>
            <td className="num">{v.line.expected_qty}</td>
            <td className="num">{v.counted}</td>
            <td className="num">
              {signed(v.variance)}
              {Math.abs(v.variance) > threshold ? ' (needs approval)' : ''}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * One variance above the threshold, counted by someone the server asks for an approval: ask a branch
 * manager (POST /approvals, kind stock_variance, for this batch and variance), then attach the approval
 * once decided (found among the user's approved ones, or its id typed in).
 */
function ApprovalBox({
  variance: v,
  threshold,
  approvalId,
  onApproval,
}: {
  variance: Variance;
  threshold: number;
  approvalId: string;
  onApproval: (id: string) => void;
}) {
  const [reason, setReason] = useState('');
  const [overriding, setOverriding] = useState(false);
  const mine = useQuery({
    queryKey: ['approvals', 'stock_variance', 'all'],
    queryFn: () => api.approvals.list({ kind: 'stock_variance', status: 'all', page_size: 50 }),
  });
  const ask = useMutation({
    mutationFn: () =>
      api.approvals.create({
        kind: 'stock_variance',
        payload: { batch_id: v.line.batch_id, variance: v.variance },
        reason,
      }),
    onSuccess: () => mine.refetch(),
  });
  const covering = (mine.data?.items ?? []).filter((a) => approvalCovers(a.payload, v) && !a.is_expired);
  const approved = covering.find((a) => a.status === 'approved');
  const pending = covering.find((a) => a.status === 'pending');
  useEffect(() => {
    if (approved && !approvalId) onApproval(approved.id);
  }, [approved, approvalId, onApproval]);
  return (
    <section className="notice info" aria-label="Manager's approval">
      <p>
        <strong>
          {v.line.medicine_name} batch {v.line.batch_number}: counted {v.counted}, the books say{' '}
          {v.line.expected_qty} ({signed(v.variance)}).
        </strong>{' '}
        A variance above {threshold} units needs a branch manager's approval before you can submit it.
      </p>
      <ErrorNotice error={ask.error ?? mine.error} />
      {approved ? (
        <p role="status">Approved by {approved.decided_by_name ?? 'a manager'}: attached to this count.</p>
      ) : pending ? (
        <p role="status">
          Approval {describe(pending)}; waiting for a branch manager to approve it in their Stock counts
          screen.{' '}
          <button type="button" onClick={() => mine.refetch()}>
            Check again
          </button>{' '}
          <button type="button" onClick={() => setOverriding(true)}>
            Manager override
          </button>
        </p>
      ) : (
        <div className="inline-add">
          <TextField label="Reason for the variance" value={reason} onChange={setReason} maxLength={500} />
          <button type="button" disabled={ask.isPending || !reason.trim()} onClick={() => ask.mutate()}>
            Ask for approval
          </button>
          <button type="button" disabled={!reason.trim()} onClick={() => setOverriding(true)}>
            Manager override
          </button>
        </div>
      )}
      {overriding && (
        <ManagerOverrideDialog
          what={`this variance of ${signed(v.variance)}`}
          approval={pending}
          ask={() => ask.mutateAsync()}
          onApproved={() => {
            setOverriding(false);
            mine.refetch();
          }}
          onClose={() => setOverriding(false)}
        />
      )}
      <TextField
        label="Approval id"
        hint="Filled in once a manager approves; or type the id of an approval you were given."
        value={approvalId}
        onChange={onApproval}
      />
    </section>
  );
}

const time = (iso: string) => new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
const describe = (a: Approval) => `asked at ${time(a.created_at)} (it expires at ${time(a.expires_at)})`;
