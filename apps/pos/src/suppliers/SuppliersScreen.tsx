import type { Supplier } from '@pharmacy/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useDeferredValue, useRef, useState } from 'react';
import { Link, Route, Switch } from 'wouter';
import { api } from '../api';
import { useUser } from '../session/SessionProvider';
import { type Column, DataTable, Pager, type Sort } from '../ui/DataTable';
import { ErrorNotice } from '../ui/ErrorNotice';
import { SelectField, TextField } from '../ui/fields';
import { useSlashFocus } from '../ui/useSlashFocus';
import { canWriteSuppliers } from './roles';
import { SupplierDetail } from './SupplierDetail';
import { DeactivateDialog, SupplierDialog } from './SupplierDialog';

const PAGE_SIZE = 25;
type Editing =
  | { kind: 'create' }
  | { kind: 'edit'; supplier: Supplier }
  | { kind: 'deactivate'; supplier: Supplier };
type SortKey = 'name' | 'lead_time_days' | 'reliability_score' | 'created_at';

/** The "Suppliers" section: the list (/) and a supplier with its invoices and payments (/:supplierId). */
export function SuppliersScreen() {
  return (
    <Switch>
      <Route path="/:supplierId">{(p) => <SupplierDetail supplierId={p.supplierId} />}</Route>
      <Route>
        <SupplierList />
      </Route>
    </Switch>
  );
}

function SupplierList() {
  const me = useUser();
  const searchRef = useRef<HTMLInputElement>(null);
  useSlashFocus(searchRef);
  const [search, setSearch] = useState('');
  const [active, setActive] = useState<'true' | 'false' | 'all'>('true');
  const [page, setPage] = useState(1);
  const [sort, setSort] = useState<Sort>({ key: 'name', dir: 'asc' });
  const [editing, setEditing] = useState<Editing | null>(null);
  const term = useDeferredValue(search.trim());
  const query = {
    search: term,
    is_active: active,
    page,
    page_size: PAGE_SIZE,
    sort: sort.key as SortKey,
    order: sort.dir,
  };
  const suppliers = useQuery({
    queryKey: ['suppliers', query],
    queryFn: () => api.suppliers.list(query),
    placeholderData: keepPreviousData,
  });
  const writer = canWriteSuppliers(me.role);
  const columns: Column<Supplier>[] = [
    {
      key: 'name',
      header: 'Name',
      sortable: true,
      cell: (s) => <Link href={`/${s.id}`}>{s.name}</Link>,
    },
    { key: 'tax_number', header: 'Tax number', secondary: true, cell: (s) => s.tax_number || '—' },
    { key: 'supplier_type', header: 'Type', secondary: true, cell: (s) => s.supplier_type },
    {
      key: 'lead_time_days',
      header: 'Lead time (days)',
      secondary: true,
      align: 'end',
      sortable: true,
      cell: (s) => s.lead_time_days,
    },
    {
      key: 'reliability_score',
      header: 'Reliability',
      align: 'end',
      sortable: true,
      cell: (s) => s.reliability_score,
    },
    {
      key: 'contact',
      header: 'Contact',
      cell: (s) => [s.contact_person, s.phone].filter(Boolean).join(' · ') || '—',
    },
    { key: 'is_active', header: 'Status', cell: (s) => (s.is_active ? 'Active' : 'Inactive') },
  ];
  if (writer)
    columns.push({
      key: 'actions',
      header: 'Actions',
      cell: (s) => (
        <span className="actions">
          <button
            type="button"
            aria-label={`Edit ${s.name}`}
            onClick={() => setEditing({ kind: 'edit', supplier: s })}
          >
            Edit
          </button>
          {s.is_active && (
            <button
              type="button"
              aria-label={`Deactivate ${s.name}`}
              onClick={() => setEditing({ kind: 'deactivate', supplier: s })}
            >
              Deactivate
            </button>
          )}
        </span>
      ),
    });
  return (
    <section aria-labelledby="suppliers-title">
      <div className="screen-header">
        <h1 id="suppliers-title">Suppliers</h1>
        {writer && (
          <button type="button" className="primary" onClick={() => setEditing({ kind: 'create' })}>
            New supplier
          </button>
        )}
      </div>
      <search className="filters">
        <TextField
          ref={searchRef}
          label="Search suppliers"
          type="search"
          placeholder="Name or tax number (press /)"
          value={search}
          onChange={(v) => {
            setSearch(v);
            setPage(1);
          }}
        />
        <SelectField
          label="Show"
          value={active}
          onChange={(v) => {
            setActive(v as typeof active);
            setPage(1);
          }}
          options={[
            { value: 'true', label: 'Active suppliers' },
            { value: 'false', label: 'Inactive suppliers' },
            { value: 'all', label: 'All suppliers' },
          ]}
        />
      </search>
      <ErrorNotice error={suppliers.error} />
      <DataTable
        label="Suppliers"
        columns={columns}
        rows={suppliers.data?.items}
        rowKey={(s) => s.id}
        sort={sort}
        onSort={(s) => {
          setSort(s);
          setPage(1);
        }}
        empty="No suppliers match."
      />
      <Pager
        page={page}
        pageSize={PAGE_SIZE}
        total={suppliers.data?.total}
        noun="suppliers"
        onPage={setPage}
      />
      {editing?.kind === 'create' && <SupplierDialog onClose={() => setEditing(null)} />}
      {editing?.kind === 'edit' && (
        <SupplierDialog supplier={editing.supplier} onClose={() => setEditing(null)} />
      )}
      {editing?.kind === 'deactivate' && (
        <DeactivateDialog supplier={editing.supplier} onClose={() => setEditing(null)} />
      )}
    </section>
  );
}
