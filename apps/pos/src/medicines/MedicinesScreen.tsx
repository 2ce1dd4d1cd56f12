import { allows, CATALOGUE_EDITORS } from '@pharmacy/contracts/roles';
import type { Medicine, MedicineSort } from '@pharmacy/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useDeferredValue, useRef, useState } from 'react';
import { api } from '../api';
import { BranchPicker, useWorkingBranch } from '../branch/useWorkingBranch';
import { useSlashFocus } from '../ui/useSlashFocus';
import { useUser } from '../session/SessionProvider';
import { type Column, DataTable, Pager, type Sort } from '../ui/DataTable';
import { ErrorNotice } from '../ui/ErrorNotice';
import { SelectField, TextField } from '../ui/fields';
import { useFormatMoney } from '../ui/money';
import { CategoriesDialog } from './CategoriesDialog';
import { MedicineDialog } from './MedicineDialog';
import { labelOf } from '@pharmacy/contracts/plain-words';

const PAGE_SIZE = 50;
type Editing = { kind: 'create' } | { kind: 'edit'; medicine: Medicine } | { kind: 'categories' } | null;

/** The catalogue with this branch's stock: searchable, sorted and paged by the server. */
export function MedicinesScreen() {
  const me = useUser();
  const canEdit = allows(CATALOGUE_EDITORS, me.role);
  const { branchId } = useWorkingBranch();
  const [search, setSearch] = useState('');
  const [active, setActive] = useState<'true' | 'false' | 'all'>('true');
  const [sort, setSort] = useState<Sort>({ key: 'name', dir: 'asc' });
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<Editing>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  useSlashFocus(searchRef);
  const deferred = useDeferredValue(search.trim());
  const query = {
    search: deferred || undefined,
    is_active: active,
    sort: sort.key as MedicineSort,
    order: sort.dir,
    page,
    page_size: PAGE_SIZE,
    branch_id: branchId,
  };
  const medicines = useQuery({
    queryKey: ['medicines', query],
    queryFn: ({ signal }) => api.medicines.list(query, signal),
    placeholderData: keepPreviousData,
  });
  const columns = useColumns((m) => setEditing({ kind: 'edit', medicine: m }), canEdit);
  const rows = medicines.data?.items;
  return (
    <section aria-labelledby="medicines-title">
      <div className="screen-header">
        <h1 id="medicines-title">Medicines</h1>
        <button type="button" onClick={() => setEditing({ kind: 'categories' })}>
          Categories
        </button>
        {canEdit && (
          <button type="button" className="primary" onClick={() => setEditing({ kind: 'create' })}>
            New medicine
          </button>
        )}
      </div>
      <search className="filters">
        <TextField
          ref={searchRef}
          label="Search medicines"
          type="search"
          value={search}
          placeholder="Name, generic name or barcode ( / )"
          onChange={(v) => {
            setSearch(v);
            setPage(1);
          }}
          onKeyDown={(e) => {
            if (e.key !== 'Enter' || !rows?.[0]) return;
            // Not preventing it, the Enter's keypress would land on the dialog's first button and close it.
            e.preventDefault();
            setEditing({ kind: 'edit', medicine: rows[0] });
          }}
        />
        <SelectField
          label="Status"
          value={active}
          onChange={(v) => {
            setActive(v as typeof active);
            setPage(1);
          }}
          options={[
            { value: 'true', label: 'Active' },
            { value: 'false', label: 'Inactive' },
            { value: 'all', label: 'All' },
          ]}
        />
        <BranchPicker />
      </search>
      <ErrorNotice error={medicines.error} />
      <DataTable
        label="Medicines"
        columns={columns}
        rows={rows}
        rowKey={(m) => m.id}
        sort={sort}
        onSort={(s) => {
          setSort(s);
          setPage(1);
        }}
        empty="No medicines match."
        rowClassName={(m) => (m.is_active ? undefined : 'inactive')}
      />
      <Pager
        page={page}
        pageSize={PAGE_SIZE}
        total={medicines.data?.total}
        noun="medicines"
        onPage={setPage}
      />
      {editing?.kind === 'create' && <MedicineDialog onClose={() => setEditing(null)} />}
      {editing?.kind === 'edit' && (
        <MedicineDialog medicine={editing.medicine} onClose={() => setEditing(null)} />
      )}
      {editing?.kind === 'categories' && (
        <CategoriesDialog canEdit={canEdit} onClose={() => setEditing(null)} />
      )}
    </section>
  );
}

function useColumns(open: (m: Medicine) => void, canEdit: boolean): Column<Medicine>[] {
  const money = useFormatMoney();
  return [
    {
      key: 'name',
      header: 'Name',
      sortable: true,
      cell: (m) => (
        <button
          type="button"
          className="link"
          onClick={() => open(m)}
          aria-label={`${canEdit ? 'Edit' : 'Open'} ${m.name}`}
        >
          {m.name}
        </button>
      ),
    },
    {
      key: 'generic_name',
      header: 'Generic name',
      sortable: true,
      secondary: true,
      cell: (m) => m.generic_name,
    },
    { key: 'strength', header: 'Strength', cell: (m) => m.strength },
    { key: 'form', header: 'Form', secondary: true, cell: (m) => m.form },
    { key: 'barcode', header: 'Barcode', secondary: true, cell: (m) => m.barcode ?? '—' },
    {
      key: 'category',
      header: 'Category',
      sortable: true,
      secondary: true,
      cell: (m) => m.category ?? '—',
    },
    {
      key: 'selling_price',
      header: 'Price',
      sortable: true,
      align: 'end',
      cell: (m) => money(m.selling_price),
    },
    { key: 'vat_category', header: 'VAT', cell: (m) => labelOf(m.vat_category) },
    {
      key: 'stock_quantity',
      header: 'Stock',
      sortable: true,
      align: 'end',
      cell: (m) => (
        <span className={m.stock_quantity <= m.low_stock_threshold ? 'low-stock' : undefined}>
          {m.stock_quantity}
        </span>
      ),
    },
    {
      key: 'flags',
      header: 'Flags',
      cell: (m) =>
        [
          m.requires_prescription && 'Rx',
          m.is_controlled && 'Controlled',
          m.requires_cold_chain && 'Cold',
          !m.is_active && 'Inactive',
        ]
          .filter(Boolean)
          .join(' · ') || '—',
    },
  ];
}
