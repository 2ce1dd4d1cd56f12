import { localDate } from '@pharmacy/contracts/time';
import type { Batch } from '@pharmacy/contracts';
import { useQuery } from '@tanstack/react-query';
import { useDeferredValue, useRef, useState } from 'react';
import { Link, useLocation, useRoute, useSearch } from 'wouter';
import { api } from '../api';
import { useBranches } from '../branch/useBranches';
import { BranchPicker, useWorkingBranch } from '../branch/useWorkingBranch';
import { useSlashFocus } from '../ui/useSlashFocus';
import { useUser } from '../session/SessionProvider';
import { type Column, DataTable } from '../ui/DataTable';
import { ErrorNotice } from '../ui/ErrorNotice';
import { TextField } from '../ui/fields';
import { useFormatMoney } from '../ui/money';
import { type BatchAction, BatchActionDialog } from './BatchDialogs';
import { EXPIRY_LABELS, expiryLevel } from './expiry';
import { Ledger } from './Ledger';
import { labelOf } from '@pharmacy/contracts/plain-words';
import { allows, STOCK_MANAGERS } from '@pharmacy/contracts/roles';

/** Stock of a medicine in the branch: its batches colour-coded by expiry, their actions and the ledger. */
export function StockScreen() {
  const [, params] = useRoute('/:medicineId');
  const medicineId = params?.medicineId;
  // A ledger's document link may ask for another batch of the medicine on screen: start that view afresh.
  const batch = new URLSearchParams(useSearch()).get('batch') ?? '';
  return (
    <section aria-labelledby="stock-title">
      <div className="screen-header">
        <h1 id="stock-title">Stock</h1>
      </div>
      <div className="filters">
        <MedicineFinder />
        <BranchPicker />
      </div>
      {medicineId ? (
        <MedicineStock key={`${medicineId}|${batch}`} medicineId={medicineId} />
      ) : (
        <p>Find a medicine to see its batches and ledger.</p>
      )}
    </section>
  );
}

/** Search box (`/`), Enter opens the first match; the matches are links. */
function MedicineFinder() {
  const [text, setText] = useState('');
  const [, navigate] = useLocation();
  const ref = useRef<HTMLInputElement>(null);
  useSlashFocus(ref);
  const search = useDeferredValue(text.trim());
  const matches = useQuery({
    queryKey: ['medicines', 'finder', search],
    queryFn: () => api.medicines.list({ search, page_size: 8 }),
    enabled: search.length > 0,
  });
  const items = search ? (matches.data?.items ?? []) : [];
  return (
    <div className="finder">
      <TextField
        ref={ref}
        label="Find a medicine"
        type="search"
        value={text}
        onChange={setText}
        placeholder="Name or barcode ( / )"
        onKeyDown={(e) => {
          if (e.key === 'Enter' && items[0]) {
            e.preventDefault();
            navigate(`/${items[0].id}`);
            setText('');
          }
          if (e.key === 'Escape') setText('');
        }}
      />
      {items.length > 0 && (
        <ul className="finder-results" aria-label="Matching medicines">
          {items.map((m) => (
            <li key={m.id}>
              <Link href={`/${m.id}`} onClick={() => setText('')}>
                {m.name} {m.strength}
              </Link>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function MedicineStock({ medicineId }: { medicineId: string }) {
  const me = useUser();
  const canAct = allows(STOCK_MANAGERS, me.role);
  const { branchId } = useWorkingBranch();
  const branches = useBranches();
  const today = localDate(branches.data?.items.find((b) => b.id === branchId)?.timezone);
  const search = new URLSearchParams(useSearch());
  const [ledgerBatch, setLedgerBatch] = useState<string | undefined>(search.get('batch') ?? undefined);
  const [acting, setActing] = useState<{ batch: Batch; action: BatchAction } | null>(null);
  const medicine = useQuery({
    queryKey: ['medicines', medicineId, branchId],
    queryFn: () => api.medicines.get(medicineId, { branch_id: branchId }),
  });
  const batches = useQuery({
    queryKey: ['batches', medicineId, branchId],
    queryFn: () => api.purchases.list({ medicine_id: medicineId, branch_id: branchId, page_size: 200 }),
  });
  const columns = useBatchColumns(today, canAct, setActing, setLedgerBatch);
  // An alert's link asks for an action on a batch: open it once the batch is here.
  const wanted = search.get('action') as BatchAction | null;
  const wantedBatch = batches.data?.items.find((b) => b.id === search.get('batch'));
  const [opened, setOpened] = useState(false);
  if (!opened && wanted && wantedBatch && canAct) {
    setOpened(true);
    setActing({ batch: wantedBatch, action: wanted });
  }
  const m = medicine.data;
  return (
    <>
      <ErrorNotice error={medicine.error ?? batches.error} />
      {m && (
        <h2>
          {m.name} {m.strength} — {m.stock_quantity} sellable
        </h2>
      )}
      <DataTable
        label="Batches"
        columns={columns}
        rows={batches.data?.items}
        rowKey={(b) => b.id}
        empty="No batches in this branch."
        rowClassName={(b) =>
          `expiry-${expiryLevel(b.expiry_date, today)}${b.regulator_status === 'active' ? '' : ' held'}`
        }
      />
      <p className="legend">
        <span className="expiry-expired">Expired</span> <span className="expiry-within-30">≤ 30 days</span>{' '}
        <span className="expiry-within-90">≤ 90 days</span>
      </p>
      <div className="screen-header">
        <h2>
          Movement ledger
          {ledgerBatch
            ? ` of batch ${batches.data?.items.find((b) => b.id === ledgerBatch)?.batch_number ?? ''}`
            : ''}
        </h2>
        {ledgerBatch && (
          <button type="button" onClick={() => setLedgerBatch(undefined)}>
            All batches
          </button>
        )}
      </div>
      <Ledger medicineId={medicineId} branchId={branchId} batchId={ledgerBatch} />
      {acting && (
        <BatchActionDialog batch={acting.batch} action={acting.action} onClose={() => setActing(null)} />
      )}
    </>
  );
}

function useBatchColumns(
  today: string,
  canAct: boolean,
  act: (a: { batch: Batch; action: BatchAction }) => void,
  showLedger: (batchId: string) => void,
): Column<Batch>[] {
  const money = useFormatMoney();
  const button = (b: Batch, action: BatchAction, label: string) => (
    <button type="button" aria-label={`${label} ${b.batch_number}`} onClick={() => act({ batch: b, action })}>
      {label}
    </button>
  );
  return [
    { key: 'batch_number', header: 'Batch', cell: (b) => b.batch_number },
    {
      key: 'expiry_date',
      header: 'Expiry',
      cell: (b) => (
        <span title={EXPIRY_LABELS[expiryLevel(b.expiry_date, today)]}>
          {b.expiry_date}{' '}
          <span className="visually-hidden">({EXPIRY_LABELS[expiryLevel(b.expiry_date, today)]})</span>
        </span>
      ),
    },
    { key: 'qty_on_hand', header: 'On hand', align: 'end', cell: (b) => b.qty_on_hand },
    { key: 'unit_cost', header: 'Unit cost', align: 'end', cell: (b) => money(b.unit_cost) },
    { key: 'supplier', header: 'Supplier', cell: (b) => b.supplier_name ?? '—' },
    { key: 'regulator_status', header: 'Status', cell: (b) => labelOf(b.regulator_status) },
    {
      key: 'actions',
      header: 'Actions',
      cell: (b) => (
        <div className="actions">
          <button type="button" aria-label={`Ledger of ${b.batch_number}`} onClick={() => showLedger(b.id)}>
            Ledger
          </button>
          {canAct && b.regulator_status === 'active' && button(b, 'quarantined', 'Quarantine')}
          {canAct && b.regulator_status !== 'recalled' && button(b, 'recalled', 'Recall')}
          {canAct && b.regulator_status !== 'active' && button(b, 'active', 'Release')}
          {canAct && b.qty_on_hand > 0 && button(b, 'write-off', 'Write off')}
        </div>
      ),
    },
  ];
}
