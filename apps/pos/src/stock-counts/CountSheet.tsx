import { useQuery } from '@tanstack/react-query';
import { type KeyboardEvent, type RefObject, useMemo, useRef, useState } from 'react';
import { api } from '../api';
import { CellInput } from '../purchasing/CellInput';
import { parseGs1 } from '../sell/gs1';
import { type Column, DataTable, Pager, type Sort } from '../ui/DataTable';
import { ErrorNotice } from '../ui/ErrorNotice';
import { SelectField, TextField } from '../ui/fields';
import { useSlashFocus } from '../ui/useSlashFocus';
import { applyScan, countedQty, countSummary, type SheetLine } from './count-sheet';
import { ReviewDialog } from './ReviewDialog';
import { useCountDraft } from './useCountDraft';
import { labelOf } from '@pharmacy/contracts/plain-words';

const PAGE_SIZE = 50;
type Show = 'all' | 'uncounted' | 'variances';

/** The sheet being counted: progress, scanning or typing per batch, variances as they appear. */
export function CountSheet({
  branchId,
  category,
  includeEmpty,
  onClose,
}: {
  branchId: string;
  category: string;
  includeEmpty: boolean;
  onClose: () => void;
}) {
  const sheet = useQuery({
    queryKey: ['count-sheet', branchId, category, includeEmpty],
    queryFn: () =>
      api.stockCount.sheet({
        branch_id: branchId,
        category: category || undefined,
        include_empty: includeEmpty ? 'true' : 'false',
      }),
    // A new sheet reads the books afresh; while counting, the expected figures hold still.
    gcTime: 0,
    refetchOnWindowFocus: false,
  });
  const settings = useQuery({
    queryKey: ['settings'],
    queryFn: () => api.settings.get(),
    staleTime: 300_000,
  });
  const threshold = settings.data?.stock_variance_approval_threshold ?? 10;
  const { counts, setCounts, clear } = useCountDraft(branchId, category);
  const scanRef = useRef<HTMLInputElement>(null);
  useSlashFocus(scanRef);
  const [find, setFind] = useState('');
  const [scanNote, setScanNote] = useState<{ text: string; bad: boolean } | null>(null);
  const [show, setShow] = useState<Show>('all');
  const [sort, setSort] = useState<Sort>({ key: 'medicine', dir: 'asc' });
  const [page, setPage] = useState(1);
  const [reviewing, setReviewing] = useState(false);
  const [result, setResult] = useState<string | null>(null);
  const lines = sheet.data?.items ?? [];
  const summary = countSummary(lines, counts, threshold);
  const rows = useMemo(() => visibleRows(lines, counts, find, show, sort), [lines, counts, find, show, sort]);
  const pageRows = rows.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);

  const onScanKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key !== 'Enter') return;
    e.preventDefault();
    void scanPack(find, { lines, counts, rows }).then((out) => {
      if (!out) return;
      setScanNote(out.note);
      if (!out.counts) return;
      setCounts(out.counts);
      if (out.page) setPage(out.page);
      setFind('');
    });
  };
  const focusNext = (batchId: string) => {
    const i = pageRows.findIndex((r) => r.batch_id === batchId);
    const next = document.querySelector<HTMLInputElement>(`[data-count-row="${i + 1}"] input`);
    next?.focus();
    next?.select();
  };
  const columns = countColumns(counts, setCounts, focusNext, pageRows);
  return (
    <div className="count-sheet">
      <ErrorNotice error={sheet.error} />
      {result && (
        <p role="status" className="notice ok">
          {result}
        </p>
      )}
      <CountProgress summary={summary} />
      <SheetFilters
        scanRef={scanRef}
        find={find}
        onFind={(v) => {
          setFind(v);
          setPage(1);
        }}
        onScanKey={onScanKey}
        show={show}
        onShow={(v) => {
          setShow(v);
          setPage(1);
        }}
      />
      {scanNote && (
        <p role="status" className={scanNote.bad ? 'field-error' : 'muted'}>
          {scanNote.text}
        </p>
      )}
      <DataTable
        label="Count sheet"
        columns={columns}
        rows={sheet.data ? pageRows : undefined}
        rowKey={(l) => l.batch_id}
        sort={sort}
        onSort={setSort}
        empty={lines.length === 0 ? 'No batch holds stock in this branch.' : 'No batch matches.'}
        rowClassName={(l) => rowClass(l, counts)}
      />
      <Pager page={page} pageSize={PAGE_SIZE} total={rows.length} noun="batches" onPage={setPage} />
      <div className="form-actions">
        <button
          type="button"
          onClick={() => {
            if (summary.counted === 0 || window.confirm('Discard the quantities counted on this sheet?')) {
              clear();
              onClose();
            }
          }}
        >
          Discard sheet
        </button>
        <button
          type="button"
          className="primary"
          disabled={summary.counted === 0}
          onClick={() => setReviewing(true)}
        >
          Review and submit
        </button>
      </div>
      {reviewing && (
        <ReviewDialog
          branchId={branchId}
          lines={lines}
          counts={counts}
          summary={summary}
          threshold={threshold}
          onClose={() => setReviewing(false)}
          onSubmitted={(text) => {
            clear();
            setScanNote(null);
            setReviewing(false);
            setResult(text);
            void sheet.refetch();
          }}
        />
      )}
    </div>
  );
}

function CountProgress({ summary }: { summary: ReturnType<typeof countSummary> }) {
  return (
    <div className="count-progress">
      <label htmlFor="count-progress">
        Counted {summary.counted} of {summary.total} batches
      </label>
      <progress id="count-progress" max={Math.max(1, summary.total)} value={summary.counted} />
      <span>
        {summary.variances.length} variance{summary.variances.length === 1 ? '' : 's'}, net{' '}
        {summary.net > 0 ? `+${summary.net}` : summary.net} units
      </span>
    </div>
  );
}

/** The scan-or-find box (Enter on a barcode counts a pack; other text filters) and the Show filter. */
function SheetFilters({
  scanRef,
  find,
  onFind,
  onScanKey,
  show,
  onShow,
}: {
  scanRef: RefObject<HTMLInputElement | null>;
  find: string;
  onFind: (value: string) => void;
  onScanKey: (e: KeyboardEvent<HTMLInputElement>) => void;
  show: Show;
  onShow: (value: Show) => void;
}) {
  return (
    <search className="filters">
      <TextField
        ref={scanRef}
        label="Scan or find"
        type="search"
        placeholder="Scan a pack, or type a name or batch (press /)"
        value={find}
        onChange={onFind}
        onKeyDown={onScanKey}
        autoComplete="off"
      />
      <SelectField
        label="Show"
        value={show}
        onChange={(v) => onShow(v as Show)}
        options={[
          { value: 'all', label: 'Every batch' },
          { value: 'uncounted', label: 'Not counted yet' },
          { value: 'variances', label: 'Variances only' },
        ]}
      />
    </search>
  );
}

/**
 * What Enter in the scan box does with a barcode (or GS1 code): the pack's batch counted one more, or why not.
 * Null when the text is not a barcode (it stays a filter).
 */
async function scanPack(
  find: string,
  sheet: { lines: readonly SheetLine[]; counts: Record<string, string>; rows: readonly SheetLine[] },
): Promise<{ note: { text: string; bad: boolean }; counts?: Record<string, string>; page?: number } | null> {
  const text = find.trim();
  if (!text) return null;
  const gs1 = parseGs1(text);
  const code = gs1?.gtin ?? text;
  if (!/^\d{6,14}$/.test(code)) return null; // not a barcode: the text stays a filter
  try {
    const medicine = await api.medicines.byBarcode(code);
    const out = applyScan(sheet.lines, sheet.counts, medicine.id, gs1?.batch);
    if ('problem' in out) return { note: { text: `${medicine.name}: ${out.problem}`, bad: true } };
    const line = sheet.lines.find((l) => l.batch_id === out.batchId) as SheetLine;
    const at = sheet.rows.findIndex((r) => r.batch_id === out.batchId);
    return {
      counts: out.counts,
      ...(at >= 0 ? { page: Math.floor(at / PAGE_SIZE) + 1 } : {}),
      note: {
        text: out.counted
          ? `${line.medicine_name} batch ${line.batch_number}: ${out.counts[out.batchId]} counted`
          : `${line.medicine_name} has several batches here: type the count of each batch.`,
        bad: false,
      },
    };
  } catch {
    return { note: { text: `No medicine has the barcode ${code}.`, bad: true } };
  }
}

function rowClass(l: SheetLine, counts: Record<string, string>): string | undefined {
  const qty = countedQty(counts[l.batch_id] ?? '');
  if (qty === null) return undefined;
  return qty === l.expected_qty ? 'counted' : 'variance';
}

function visibleRows(
  lines: readonly SheetLine[],
  counts: Record<string, string>,
  find: string,
  show: Show,
  sort: Sort,
): SheetLine[] {
  const term = find.trim().toLowerCase();
  const variance = (l: SheetLine) => {
    const q = countedQty(counts[l.batch_id] ?? '');
    return q === null ? 0 : q - l.expected_qty;
  };
  const out = lines.filter((l) => {
    if (
      term &&
      !`${l.medicine_name} ${l.batch_number}`.toLowerCase().includes(term) &&
      !/^\d{6,}$/.test(term)
    )
      return false;
    const counted = countedQty(counts[l.batch_id] ?? '') !== null;
    if (show === 'uncounted') return !counted;
    if (show === 'variances') return counted && variance(l) !== 0;
    return true;
  });
  const dir = sort.dir === 'asc' ? 1 : -1;
  if (sort.key === 'variance') out.sort((a, b) => dir * (Math.abs(variance(a)) - Math.abs(variance(b))));
  else if (sort.key === 'expiry') out.sort((a, b) => dir * a.expiry_date.localeCompare(b.expiry_date));
  else if (sort.key === 'expected') out.sort((a, b) => dir * (a.expected_qty - b.expected_qty));
  else if (sort.dir === 'desc') out.reverse();
  return out;
}

function countColumns(
  counts: Record<string, string>,
  setCounts: (update: (c: Record<string, string>) => Record<string, string>) => void,
  focusNext: (batchId: string) => void,
  pageRows: readonly SheetLine[],
): Column<SheetLine>[] {
  const variance = (l: SheetLine) => {
    const q = countedQty(counts[l.batch_id] ?? '');
    if (q === null) return '';
    const v = q - l.expected_qty;
    return v > 0 ? `+${v}` : String(v);
  };
  return [
    {
      key: 'medicine',
      header: 'Medicine',
      sortable: true,
      cell: (l) => (
        <>
          {l.medicine_name} <span className="muted">{[l.strength, l.form].filter(Boolean).join(' ')}</span>
        </>
      ),
    },
    { key: 'batch', header: 'Batch', cell: (l) => l.batch_number },
    { key: 'expiry', header: 'Expiry', sortable: true, cell: (l) => l.expiry_date },
    {
      key: 'status',
      header: 'Status',
      cell: (l) => (l.regulator_status === 'active' ? '' : labelOf(l.regulator_status)),
    },
    { key: 'expected', header: 'Expected', align: 'end', sortable: true, cell: (l) => l.expected_qty },
    {
      key: 'counted',
      header: 'Counted',
      align: 'end',
      cell: (l) => (
        <span data-count-row={pageRows.indexOf(l)}>
          <CellInput
            label={`Counted of ${l.medicine_name} batch ${l.batch_number}`}
            inputMode="numeric"
            value={counts[l.batch_id] ?? ''}
            onChange={(v) =>
              setCounts((c) => {
                const next = { ...c, [l.batch_id]: v };
                if (v === '') delete next[l.batch_id];
                return next;
              })
            }
            onEnter={() => focusNext(l.batch_id)}
            error={
              counts[l.batch_id] && countedQty(counts[l.batch_id] ?? '') === null ? 'whole units' : undefined
            }
          />
        </span>
      ),
    },
    { key: 'variance', header: 'Variance', align: 'end', sortable: true, cell: variance },
  ];
}
