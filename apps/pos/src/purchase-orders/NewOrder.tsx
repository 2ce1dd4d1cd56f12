import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { api } from '../api';
import { formatMinor, parseMoneyInput } from '@pharmacy/contracts/money';
import { CellInput } from '../purchasing/CellInput';
import { LineTable } from '../purchasing/LineTable';
import { useBaseExponent } from '../purchasing/money-input';
import { BranchPicker, useWorkingBranch } from '../branch/useWorkingBranch';
import { useDraftLines } from '../purchasing/useDraftLines';
import { useActiveSuppliers } from '../purchasing/useSuppliers';
import { MedicineSearch } from '../sell/MedicineSearch';
import { ErrorNotice } from '../ui/ErrorNotice';
import { fieldError, SelectField, TextAreaField, TextField } from '../ui/fields';
import { useFormatMoney } from '../ui/money';
import { type DraftLine, type LineProblems, orderItems, parseQty } from './order-draft';
import { SuggestionsPanel } from './SuggestionsPanel';

/** A new DRAFT order: lines picked by medicine search or taken from the branch's reorder suggestions. */
export function NewOrder() {
  const search = useSearch();
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  const { branchId, canPick } = useWorkingBranch();
  const suppliers = useActiveSuppliers();
  const exponent = useBaseExponent();
  const [supplierId, setSupplierId] = useState('');
  const [expected, setExpected] = useState('');
  const [notes, setNotes] = useState('');
  const { lines, addLines, setLine, removeLine } = useDraftLines<DraftLine>();
  const [showSuggestions, setShowSuggestions] = useState(
    new URLSearchParams(search).get('from') === 'suggestions',
  );
  const [problems, setProblems] = useState<LineProblems>({});
  const create = useMutation({
    mutationFn: (items: Parameters<typeof api.purchaseOrders.create>[0]['items']) =>
      api.purchaseOrders.create({
        supplier_id: supplierId,
        branch_id: branchId,
        expected_date: expected || null,
        notes,
        items,
      }),
    onSuccess: (order) => {
      queryClient.invalidateQueries({ queryKey: ['purchase-orders'] });
      navigate(`/${order.id}`);
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const built = orderItems(lines, exponent);
    if ('problems' in built) {
      setProblems(built.problems);
      return;
    }
    setProblems({});
    create.mutate(built.items);
  };
  const err = create.error;
  const problem = (path: string) => problems[path] ?? fieldError(err, path);

  return (
    <section aria-labelledby="new-po-title">
      <div className="screen-header">
        <h1 id="new-po-title">Purchase orders</h1>
        <Link href="/">Back to the list</Link>
      </div>
      <h2>New purchase order</h2>
      <form onSubmit={submit} noValidate className="card">
        <ErrorNotice error={err} />
        <div className="filters">
          <SelectField
            label="Supplier"
            value={supplierId}
            onChange={setSupplierId}
            error={fieldError(err, 'supplier_id')}
            options={[
              { value: '', label: 'Choose a supplier' },
              ...(suppliers.data?.items ?? []).map((s) => ({ value: s.id, label: s.name })),
            ]}
          />
          {canPick && <BranchPicker label="Deliver to branch" />}
          <TextField
            label="Expected delivery"
            type="date"
            value={expected}
            onChange={setExpected}
            error={fieldError(err, 'expected_date')}
          />
        </div>
        <TextAreaField label="Notes" value={notes} onChange={setNotes} rows={2} maxLength={1000} />
        {showSuggestions ? (
          <SuggestionsPanel
            branchId={branchId}
            supplierId={supplierId}
            onAdd={(added, supplier) => {
              addLines(added);
              if (!supplierId && supplier) setSupplierId(supplier);
              setShowSuggestions(false);
            }}
            onClose={() => setShowSuggestions(false)}
          />
        ) : (
          <button type="button" onClick={() => setShowSuggestions(true)}>
            Add from reorder suggestions
          </button>
        )}
        <MedicineSearch
          label="Add a medicine"
          onPick={(m) => addLines([{ medicine_id: m.id, medicine_name: m.name, qty: '1', cost: '' }])}
        />
        <OrderLines
          lines={lines}
          exponent={exponent}
          problem={problem}
          setLine={setLine}
          removeLine={removeLine}
        />
        {problems.items && <p className="field-error">{problems.items}</p>}
        <div className="form-actions">
          <button type="submit" className="primary" disabled={create.isPending}>
            Create draft order
          </button>
        </div>
      </form>
    </section>
  );
}

function OrderLines({
  lines,
  exponent,
  problem,
  setLine,
  removeLine,
}: {
  lines: DraftLine[];
  exponent: number;
  problem: (path: string) => string | undefined;
  setLine: (i: number, patch: Partial<DraftLine>) => void;
  removeLine: (i: number) => void;
}) {
  const money = useFormatMoney();
  const lineTotal = (l: DraftLine) => {
    const qty = parseQty(l.qty);
    const cost = l.cost.trim() ? parseMoneyInput(l.cost, exponent) : null;
    return qty !== null && cost !== null && cost >= 0 ? money(formatMinor(cost * qty, exponent)) : '—';
  };
  return (
    <LineTable
      label="Order lines"
      empty="No medicines on this order yet."
      lines={lines}
      onRemove={removeLine}
      columns={[
        {
          header: 'Quantity',
          numeric: true,
          cell: (l, i) => (
            <CellInput
              label={`Quantity of ${l.medicine_name}`}
              value={l.qty}
              inputMode="numeric"
              onChange={(v) => setLine(i, { qty: v })}
              error={problem(`items.${i}.ordered_qty`)}
            />
          ),
        },
        {
          header: 'Unit cost',
          numeric: true,
          cell: (l, i) => (
            <CellInput
              label={`Unit cost of ${l.medicine_name}`}
              value={l.cost}
              inputMode="decimal"
              onChange={(v) => setLine(i, { cost: v })}
              error={problem(`items.${i}.agreed_unit_cost`)}
            />
          ),
        },
        { header: 'Line total', numeric: true, cell: lineTotal },
      ]}
    />
  );
}
