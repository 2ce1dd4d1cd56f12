import type { PurchaseOrderStatus, PurchaseOrderSummary } from '@pharmacy/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, Route, Switch } from 'wouter';
import { api } from '../api';
import { BranchPicker, useWorkingBranch } from '../branch/useWorkingBranch';
import { useUser } from '../session/SessionProvider';
import { type Column, DataTable, Pager, type Sort } from '../ui/DataTable';
import { ErrorNotice } from '../ui/ErrorNotice';
import { SelectField } from '../ui/fields';
import { formatDateTime } from '../ui/format';
import { useFormatMoney } from '../ui/money';
import { canCreateOrders, PO_STATUSES, STATUS_LABELS } from './lifecycle';
import { NewOrder } from './NewOrder';
import { OrderDetail } from './OrderDetail';

const PAGE_SIZE = 25;
type SortKey = 'created_at' | 'expected_date' | 'supplier_name' | 'status' | 'total_amount';

/** The "Purchase orders" section: the list, a new order (/new) and one order (/:id). */
export function PurchaseOrdersScreen() {
  return (
    <Switch>
      <Route path="/new">
        <NewOrder />
      </Route>
      <Route path="/:orderId">{(params) => <OrderDetail orderId={params.orderId} />}</Route>
      <Route>
        <OrderList />
      </Route>
    </Switch>
  );
}

function OrderList() {
  const me = useUser();
  const { branchId, canPick } = useWorkingBranch();
  const [status, setStatus] = useState<PurchaseOrderStatus | ''>('');
  const [page, setPage] = useState(1);
  const [sort, setSort] = useState<Sort>({ key: 'created_at', dir: 'desc' });
  const money = useFormatMoney();
  const query = {
    branch_id: branchId,
    status: status || undefined,
    page,
    page_size: PAGE_SIZE,
    sort: sort.key as SortKey,
    order: sort.dir,
  };
  const orders = useQuery({
    queryKey: ['purchase-orders', query],
    queryFn: () => api.purchaseOrders.list(query),
    placeholderData: keepPreviousData,
  });
  const columns: Column<PurchaseOrderSummary>[] = [
    {
      key: 'supplier_name',
      header: 'Supplier',
      sortable: true,
      cell: (o) => (
        <Link
          href={`/${o.id}`}
          aria-label={`Open order from ${o.supplier_name} of ${formatDateTime(o.created_at)}`}
        >
          {o.supplier_name}
        </Link>
      ),
    },
    { key: 'status', header: 'Status', sortable: true, cell: (o) => STATUS_LABELS[o.status] },
    { key: 'item_count', header: 'Items', align: 'end', cell: (o) => o.item_count },
    {
      key: 'total_amount',
      header: 'Total',
      align: 'end',
      sortable: true,
      cell: (o) => money(o.total_amount),
    },
    { key: 'expected_date', header: 'Expected', sortable: true, cell: (o) => o.expected_date ?? '—' },
    { key: 'created_at', header: 'Raised', sortable: true, cell: (o) => formatDateTime(o.created_at) },
  ];
  return (
    <section aria-labelledby="po-title">
      <div className="screen-header">
        <h1 id="po-title">Purchase orders</h1>
        {canCreateOrders(me.role) && (
          <div className="actions">
            <Link href={'/new?from=suggestions'} className="button">
              Order from reorder suggestions
            </Link>
            <Link href={'/new'} className="button primary">
              New order
            </Link>
          </div>
        )}
      </div>
      <search className="filters">
        <SelectField
          label="Status"
          value={status}
          onChange={(v) => {
            setStatus(v as PurchaseOrderStatus | '');
            setPage(1);
          }}
          options={[
            { value: '', label: 'All statuses' },
            ...PO_STATUSES.map((s) => ({ value: s, label: STATUS_LABELS[s] })),
          ]}
        />
        {canPick && <BranchPicker onPick={() => setPage(1)} />}
      </search>
      <ErrorNotice error={orders.error} />
      <DataTable
        label="Purchase orders"
        columns={columns}
        rows={orders.data?.items}
        rowKey={(o) => o.id}
        sort={sort}
        onSort={(s) => {
          setSort(s);
          setPage(1);
        }}
        empty="No purchase orders match."
      />
      <Pager page={page} pageSize={PAGE_SIZE} total={orders.data?.total} noun="orders" onPage={setPage} />
    </section>
  );
}
