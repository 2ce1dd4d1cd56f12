import type { Transfer } from '@pharmacy/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api } from '../api';
import { useBranches } from '../branch/useBranches';
import { CellInput } from '../purchasing/CellInput';
import { LineTable } from '../purchasing/LineTable';
import { useDraftLines } from '../purchasing/useDraftLines';
import { closeOnEscape } from '../purchasing/escape';
import { useOrgToday } from '../purchasing/dates';
import { MedicineSearch } from '../sell/MedicineSearch';
import { ErrorNotice } from '../ui/ErrorNotice';
import { fieldError, SelectField, TextAreaField } from '../ui/fields';
import { parseQty } from '../purchase-orders/order-draft';
import { fefoPreview, type TransferLine, transferItems } from './transfer-draft';
import { labelOf } from '@pharmacy/contracts/plain-words';

/** Sends stock from `fromBranchId` to another branch: each line FEFO by default, or from a chosen batch. */
export function SendTransfer({
  fromBranchId,
  onSent,
  onClose,
}: {
  fromBranchId: string;
  onSent: (t: Transfer) => void;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const branches = useBranches();
  const [to, setTo] = useState('');
  const [notes, setNotes] = useState('');
  const { lines, addLines, setLine, removeLine } = useDraftLines<TransferLine>();
  const [problems, setProblems] = useState<Record<string, string>>({});
  const send = useMutation({
    mutationFn: (items: Parameters<typeof api.transfers.create>[0]['items']) =>
      api.transfers.create({ from_branch_id: fromBranchId, to_branch_id: to, notes, items }),
    onSuccess: (t) => {
      queryClient.invalidateQueries({ queryKey: ['transfers'] });
      queryClient.invalidateQueries({ queryKey: ['transfer-batches'] });
      onSent(t);
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const built = transferItems(lines);
    const local = {
      ...('problems' in built ? built.problems : {}),
      ...(to ? {} : { to_branch_id: 'choose a branch' }),
    };
    setProblems(local);
    if ('items' in built && to) send.mutate(built.items);
  };
  const err = send.error;
  const others = (branches.data?.items ?? []).filter((b) => b.id !== fromBranchId && b.is_active);
  return (
    <form
      onSubmit={submit}
      onKeyDown={closeOnEscape(onClose)}
      noValidate
      className="card"
      aria-labelledby="send-title"
    >
      <h2 id="send-title">Send stock to another branch</h2>
      <ErrorNotice error={err} />
      <div className="filters">
        <SelectField
          label="To branch"
          value={to}
          onChange={setTo}
          error={problems.to_branch_id ?? fieldError(err, 'to_branch_id')}
          options={[
            { value: '', label: 'Choose a branch' },
            ...others.map((b) => ({ value: b.id, label: b.name })),
          ]}
        />
      </div>
      <TextAreaField label="Notes" value={notes} onChange={setNotes} rows={2} maxLength={500} />
      <MedicineSearch
        label="Add a medicine to send"
        onPick={(m) => addLines([{ medicine_id: m.id, medicine_name: m.name, qty: '1', batch_id: '' }])}
      />
      <LineTable
        label="Transfer lines"
        empty="Nothing to send yet."
        lines={lines}
        onRemove={removeLine}
        columns={[
          {
            header: 'Quantity',
            numeric: true,
            cell: (l, i) => (
              <CellInput
                label={`Quantity to send of ${l.medicine_name}`}
                inputMode="numeric"
                value={l.qty}
                onChange={(v) => setLine(i, { qty: v })}
                error={problems[`items.${i}.quantity`] ?? fieldError(err, `items.${i}.quantity`)}
              />
            ),
          },
          {
            header: 'Take from',
            cell: (l, i) => (
              <BatchChoice
                line={l}
                branchId={fromBranchId}
                onChange={(batch_id) => setLine(i, { batch_id })}
              />
            ),
          },
        ]}
      />
      {problems.items && <p className="field-error">{problems.items}</p>}
      <div className="form-actions">
        <button type="button" onClick={onClose}>
          Close
        </button>
        <button type="submit" className="primary" disabled={send.isPending}>
          Send stock
        </button>
      </div>
    </form>
  );
}

/** FEFO (the default) with a preview of the batches it will take, or one batch of the source branch. */
function BatchChoice({
  line,
  branchId,
  onChange,
}: {
  line: TransferLine;
  branchId: string;
  onChange: (batchId: string) => void;
}) {
  const today = useOrgToday();
  const batches = useQuery({
    queryKey: ['transfer-batches', branchId, line.medicine_id],
    queryFn: () =>
      api.transfers.batches({
        medicine_id: line.medicine_id,
        branch_id: branchId,
        in_stock: 'true',
        page_size: 200,
      }),
  });
  const items = batches.data?.items ?? [];
  const qty = parseQty(line.qty) ?? 0;
  const preview = fefoPreview(items, qty, today);
  return (
    <span className="cell-input">
      <select
        aria-label={`Batch to send of ${line.medicine_name}`}
        value={line.batch_id}
        onChange={(e) => onChange(e.target.value)}
      >
        <option value="">First to expire (FEFO)</option>
        {items.map((b) => (
          <option key={b.id} value={b.id}>
            {b.batch_number} · exp {b.expiry_date} · {b.qty_on_hand} on hand
            {b.regulator_status === 'active' ? '' : ` · ${labelOf(b.regulator_status)}`}
          </option>
        ))}
      </select>
      {!line.batch_id && qty > 0 && (
        <small className={preview.short > 0 ? 'field-error' : 'hint'}>
          {preview.picks.map((p) => `${p.batch_number} ×${p.quantity}`).join(', ') || 'No sellable batch'}
          {preview.short > 0 ? ` (${preview.short} short)` : ''}
        </small>
      )}
    </span>
  );
}
