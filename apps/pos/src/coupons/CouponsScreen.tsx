import { allows, BRANCH_MANAGERS } from '@pharmacy/contracts/roles';
import type { Coupon } from '@pharmacy/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useDeferredValue, useState } from 'react';
import { api } from '../api';
import { useUser } from '../session/SessionProvider';
import { DataTable, Pager } from '../ui/DataTable';
import { ErrorNotice } from '../ui/ErrorNotice';
import { SelectField, TextField } from '../ui/fields';
import { useFormatMoney } from '../ui/money';
import { useOrgDateTime } from '../ui/org-time';
import { usageText } from './coupon-form';
import { CouponDialog, ValidateCoupon } from './CouponDialogs';

const PAGE_SIZE = 50;

export function CouponsScreen() {
  const me = useUser();
  const [search, setSearch] = useState('');
  const [active, setActive] = useState<'all' | 'true' | 'false'>('all');
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<Coupon | 'new' | null>(null);
  const deferred = useDeferredValue(search.trim());
  const query = { search: deferred || undefined, active, page, page_size: PAGE_SIZE };
  const list = useQuery({
    queryKey: ['coupons', query],
    queryFn: () => api.coupons.list(query),
    placeholderData: keepPreviousData,
  });
  const queryClient = useQueryClient();
  const toggle = useMutation({
    mutationFn: (c: Coupon) => api.coupons.update(c.id, { is_active: !c.is_active }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['coupons'] }),
  });
  const money = useFormatMoney();
  const day = useOrgDateTime(true);
  const canManage = allows(BRANCH_MANAGERS, me.role);
  // A percent coupon's cap is part of its value: "10.00 %, at most 5.00".
  const value = (c: Coupon) =>
    c.discount_type === 'percent'
      ? `${c.discount_value}\u00a0%${c.max_discount ? `, at most ${money(c.max_discount)}` : ''}`
      : money(c.discount_value);

  return (
    <section aria-labelledby="coupons-title">
      <div className="screen-header">
        <h1 id="coupons-title">Coupons</h1>
        {canManage && (
          <button type="button" className="primary" onClick={() => setEditing('new')}>
            New coupon
          </button>
        )}
      </div>
      <search className="filters">
        <TextField
          label="Search codes"
          type="search"
          value={search}
          onChange={(v) => {
            setSearch(v);
            setPage(1);
          }}
        />
        <SelectField
          label="Active"
          value={active}
          onChange={(v) => {
            setActive(v as typeof active);
            setPage(1);
          }}
          options={[
            { value: 'all', label: 'All coupons' },
            { value: 'true', label: 'Active only' },
            { value: 'false', label: 'Inactive only' },
          ]}
        />
      </search>
      <ErrorNotice error={list.error ?? toggle.error} />
      <DataTable
        label="Coupons"
        rows={list.data?.items}
        rowKey={(c) => c.id}
        empty="No coupons match."
        columns={[
          { key: 'code', header: 'Code', cell: (c) => <strong>{c.code}</strong> },
          {
            key: 'kind',
            header: 'Kind',
            secondary: true,
            cell: (c) => (c.discount_type === 'percent' ? 'Percent' : 'Fixed amount'),
          },
          { key: 'value', header: 'Value', cell: value, align: 'end' },
          {
            key: 'min',
            header: 'Min. basket',
            cell: (c) => money(c.min_subtotal),
            align: 'end',
            secondary: true,
          },
          {
            key: 'valid',
            header: 'Valid',
            cell: (c) => validity(c, day),
          },
          { key: 'usage', header: 'Used / limit', cell: usageText, align: 'end' },
          {
            key: 'per_customer',
            header: 'Per customer',
            cell: (c) => c.per_customer_limit ?? '—',
            align: 'end',
            secondary: true,
          },
          { key: 'active', header: 'Active', cell: (c) => (c.is_active ? 'Active' : 'Inactive') },
          ...(canManage
            ? [
                {
                  key: 'actions',
                  header: 'Actions',
                  cell: (c: Coupon) => (
                    <div className="actions">
                      <button type="button" aria-label={`Edit ${c.code}`} onClick={() => setEditing(c)}>
                        Edit
                      </button>
                      <button
                        type="button"
                        aria-label={`${c.is_active ? 'Deactivate' : 'Activate'} ${c.code}`}
                        disabled={toggle.isPending}
                        onClick={() => toggle.mutate(c)}
                      >
                        {c.is_active ? 'Deactivate' : 'Activate'}
                      </button>
                    </div>
                  ),
                },
              ]
            : []),
        ]}
      />
      <Pager page={page} pageSize={PAGE_SIZE} total={list.data?.total} noun="coupons" onPage={setPage} />
      <ValidateCoupon />
      {editing && (
        <CouponDialog coupon={editing === 'new' ? undefined : editing} onClose={() => setEditing(null)} />
      )}
    </section>
  );
}

function validity(c: Coupon, day: (iso: string | null) => string): string {
  if (!c.starts_at && !c.ends_at) return 'Always';
  if (!c.ends_at) return `From ${day(c.starts_at)}`;
  if (!c.starts_at) return `Until ${day(c.ends_at)}`;
  return `${day(c.starts_at)} – ${day(c.ends_at)}`;
}
