import { ApiError } from '@pharmacy/contracts/client';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useRef, useState } from 'react';
import { api } from '../api';
import { BranchPicker, useWorkingBranch } from '../branch/useWorkingBranch';
import { useSlashFocus } from '../ui/useSlashFocus';
import { ErrorNotice } from '../ui/ErrorNotice';
import { SelectField, TextField } from '../ui/fields';
import { useCurrencyExponents } from '../ui/money';
import { lineFor, lineRequest, lookupCode, type ReceiptLine } from './receiving';

type LineErrors = Record<string, Record<string, string>>;

/** Receive a delivery without a purchase order: supplier, invoice, lines scanned (GS1 fills batch and expiry). */
export function ReceivingScreen() {
  const queryClient = useQueryClient();
  const { branchId } = useWorkingBranch();
  const settings = useQuery({
    queryKey: ['settings'],
    queryFn: () => api.settings.get(),
    staleTime: 300_000,
  });
  const exponent = useCurrencyExponents()(settings.data?.base_currency_code);
  const suppliers = useQuery({
    queryKey: ['suppliers', 'all'],
    queryFn: () => api.suppliers.list({ page_size: 200 }),
  });
  const [supplierId, setSupplierId] = useState('');
  const [invoice, setInvoice] = useState('');
  const [scan, setScan] = useState('');
  const [lines, setLines] = useState<ReceiptLine[]>([]);
  const [errors, setErrors] = useState<LineErrors>({});
  const [problem, setProblem] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const scanRef = useRef<HTMLInputElement>(null);
  useSlashFocus(scanRef);
  const update = (key: string, patch: Partial<ReceiptLine>) =>
    setLines((ls) => ls.map((l) => (l.key === key ? { ...l, ...patch } : l)));

  const addFromScan = async () => {
    const text = scan;
    if (!text.trim()) return;
    setProblem(null);
    try {
      const c = await api.scanners.classify({ code: text });
      const code = lookupCode(c);
      const medicine = code
        ? await api.medicines.byBarcode(code)
        : (await api.medicines.list({ search: text.trim(), page_size: 1 })).items[0];
      if (!medicine) throw new Error(`No medicine matches “${text.trim()}”.`);
      setLines((ls) => [...ls, lineFor(medicine, c.kind === 'gs1' ? c : undefined)]);
      setScan('');
    } catch (error) {
      setProblem(error);
    }
  };

  const receive = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    const found: LineErrors = {};
    for (const line of lines.filter((l) => !l.received)) {
      const numbers = lineRequest(line, exponent);
      if ('errors' in numbers) {
        found[line.key] = numbers.errors;
        continue;
      }
      try {
        const batch = await api.purchases.receive({
          medicine_id: line.medicine.id,
          supplier_id: supplierId,
          branch_id: branchId,
          batch_number: line.batch_number,
          expiry_date: line.expiry_date,
          notes: invoice.trim() ? `Invoice ${invoice.trim()}` : '',
          ...numbers,
        });
        update(line.key, { received: { batchId: batch.id, onHand: batch.qty_on_hand } });
      } catch (error) {
        found[line.key] =
          error instanceof ApiError ? Object.fromEntries(error.errors.map((x) => [x.path, x.message])) : {};
        if (!(error instanceof ApiError) || error.errors.length === 0) setProblem(error);
      }
    }
    setErrors(found);
    setBusy(false);
    queryClient.invalidateQueries({ queryKey: ['medicines'] });
    queryClient.invalidateQueries({ queryKey: ['batches'] });
  };

  const pending = lines.filter((l) => !l.received).length;
  return (
    <section aria-labelledby="receiving-title">
      <div className="screen-header">
        <h1 id="receiving-title">Receiving</h1>
      </div>
      <form onSubmit={receive} noValidate>
        <div className="filters">
          <SelectField
            label="Supplier"
            value={supplierId}
            onChange={setSupplierId}
            options={[
              { value: '', label: 'Choose a supplier' },
              ...(suppliers.data?.items ?? []).map((s) => ({ value: s.id, label: s.name })),
            ]}
            error={
              Object.values(errors).some((e) => e.supplier_id)
                ? 'choose the supplier of this delivery'
                : undefined
            }
          />
          <TextField label="Invoice number" value={invoice} onChange={setInvoice} />
          <BranchPicker />
        </div>
        <TextField
          ref={scanRef}
          label="Scan or search a medicine"
          value={scan}
          onChange={setScan}
          placeholder="Scan the pack's DataMatrix or type a name ( / )"
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              void addFromScan();
            }
          }}
        />
        <ErrorNotice error={problem} />
        <LinesTable
          lines={lines}
          errors={errors}
          update={update}
          remove={(key) => setLines((ls) => ls.filter((l) => l.key !== key))}
        />
        <div className="actions">
          <button type="submit" className="primary" disabled={busy || pending === 0}>
            Receive delivery ({pending} {pending === 1 ? 'line' : 'lines'})
          </button>
          {lines.length > 0 && pending === 0 && (
            <p role="status">
              Received {lines.length} {lines.length === 1 ? 'line' : 'lines'}.{' '}
              <button type="button" onClick={() => setLines([])}>
                New delivery
              </button>
            </p>
          )}
        </div>
      </form>
    </section>
  );
}

function LinesTable({
  lines,
  errors,
  update,
  remove,
}: {
  lines: ReceiptLine[];
  errors: LineErrors;
  update: (key: string, patch: Partial<ReceiptLine>) => void;
  remove: (key: string) => void;
}) {
  if (lines.length === 0) return <p>Scan the first pack of the delivery.</p>;
  return (
    <table aria-label="Delivery lines" className="receipt-lines">
      <thead>
        <tr>
          <th scope="col">Medicine</th>
          <th scope="col">Batch</th>
          <th scope="col">Expiry</th>
          <th scope="col">Quantity</th>
          <th scope="col">Unit cost</th>
          <th scope="col">Status</th>
        </tr>
      </thead>
      <tbody>
        {lines.map((l, i) => {
          const e = errors[l.key] ?? {};
          const n = `line ${i + 1}`;
          const done = l.received !== undefined;
          return (
            <tr key={l.key}>
              <td>
                {l.medicine.name} {l.medicine.strength}
              </td>
              <td>
                <TextField
                  label={`Batch, ${n}`}
                  value={l.batch_number}
                  disabled={done}
                  onChange={(v) => update(l.key, { batch_number: v })}
                  error={e.batch_number}
                />
              </td>
              <td>
                <TextField
                  label={`Expiry, ${n}`}
                  type="date"
                  value={l.expiry_date}
                  disabled={done}
                  onChange={(v) => update(l.key, { expiry_date: v })}
                  error={e.expiry_date}
                />
              </td>
              <td>
                <TextField
                  label={`Quantity, ${n}`}
                  inputMode="numeric"
                  value={l.quantity}
                  disabled={done}
                  onChange={(v) => update(l.key, { quantity: v })}
                  error={e.qty_received}
                />
              </td>
              <td>
                <TextField
                  label={`Unit cost, ${n}`}
                  inputMode="decimal"
                  value={l.unit_cost}
                  disabled={done}
                  onChange={(v) => update(l.key, { unit_cost: v })}
                  error={e.unit_cost}
                />
              </td>
              <td>
                {done ? (
                  `Received: ${l.received!.onHand} on hand`
                ) : (
                  <button type="button" aria-label={`Remove ${n}`} onClick={() => remove(l.key)}>
                    Remove
                  </button>
                )}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
