import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { api } from '../api';
import { formatMinor, parseMoneyInput } from '@pharmacy/contracts/money';
import { CellInput } from '../purchasing/CellInput';
import { useBaseExponent } from '../purchasing/money-input';
import { BranchPicker, useWorkingBranch } from '../branch/useWorkingBranch';
import { useActiveSuppliers } from '../purchasing/useSuppliers';
import { MedicineSearch } from '../sell/MedicineSearch';
import { ErrorNotice } from '../ui/ErrorNotice';
import { fieldError, SelectField, TextAreaField, TextField } from '../ui/fields';
import { useFormatMoney } from '../ui/money';
import { type DraftLine, type LineProblems, mergeLines, orderItems, parseQty } from './order-draft';
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
  const [lines, setLines] = useState<DraftLine[]>([]);
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
  const setLine = (i: number, patch: Partial<DraftLine>) =>
    setLines((ls) => ls.map((l, j) => (j === i ? { ...l, ...patch } : l)));

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
              setLines((ls) => mergeLines(ls, added));
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
          onPick={(m) =>
            setLines((ls) =>
              mergeLines(ls, [{ medicine_id: m.id, medicine_name: m.name, qty: '1', cost: '' }]),
            )
          }
        />
        <OrderLines
          lines={lines}
          exponent={exponent}
          problem={problem}
          setLine={setLine}
          setLines={setLines}
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
  setLines,
}: {
  lines: DraftLine[];
  exponent: number;
  problem: (path: string) => string | undefined;
  setLine: (i: number, patch: Partial<DraftLine>) => void;
  setLines: (update: (ls: DraftLine[]) => DraftLine[]) => void;
}) {
  const money = useFormatMoney();
  if (lines.length === 0) return <p className="muted">No medicines on this order yet.</p>;
  return (
    <table aria-label="Order lines" className="line-table">
      <thead>
        <tr>
          <th scope="col">Medicine</th>
          <th scope="col" className="num">
            Quantity
          </th>
          <th scope="col" className="num">
            Unit cost
          </th>
          <th scope="col" className="num">
            Line total
          </th>
          <th scope="col">
            <span className="visually-hidden">Remove</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {lines.map((l, i) => {
          const qty = parseQty(l.qty);
          const cost = l.cost.trim() ? parseMoneyInput(l.cost, exponent) : null;
          const total = qty !== null && cost !== null && cost >= 0 ? formatMinor(cost * qty, exponent) : null;
          return (
            <tr key={l.medicine_id}>
              <td>{l.medicine_name}</td>
              <td className="num">
                <CellInput
                  label={`Quantity of ${l.medicine_name}`}
                  value={l.qty}
                  inputMode="numeric"
                  onChange={(v) => setLine(i, { qty: v })}
                  error={problem(`items.${i}.ordered_qty`)}
                />
              </td>
              <td className="num">
                <CellInput
                  label={`Unit cost of ${l.medicine_name}`}
                  value={l.cost}
                  inputMode="decimal"
                  onChange={(v) => setLine(i, { cost: v })}
                  error={problem(`items.${i}.agreed_unit_cost`)}
                />
              </td>
              <td className="num">{total === null ? '—' : money(total)}</td>
              <td>
                <button
                  type="button"
                  aria-label={`Remove ${l.medicine_name}`}
                  onClick={() => setLines((ls) => ls.filter((_, j) => j !== i))}
                >
                  Remove
                </button>
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
