import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../api';
import { RoleButton } from '../ui/RoleButton';
import { DataTable, Pager } from '../ui/DataTable';
import { ErrorNotice } from '../ui/ErrorNotice';
import { CheckboxField, SelectField } from '../ui/fields';
import { useOrgDateTime } from '../ui/org-time';
import { AddRateDialog } from './AddRateDialog';

const PAGE_SIZE = 25;

/** The currency registry, each branch's currency, exchange rates with their history, the FX tolerance. */
export function CurrenciesScreen() {
  const [inactive, setInactive] = useState(false);
  const [fromCode, setFromCode] = useState('');
  const [page, setPage] = useState(1);
  const [adding, setAdding] = useState(false);
  const registry = useQuery({
    queryKey: ['currencies', 'registry', inactive],
    queryFn: () => api.currency.list({ include_inactive: inactive ? 'true' : undefined }),
  });
  const overview = useQuery({ queryKey: ['currencies', 'overview'], queryFn: () => api.currency.overview() });
  const mine = useQuery({ queryKey: ['currencies', 'branch'], queryFn: () => api.currency.branch() });
  const settings = useQuery({
    queryKey: ['settings'],
    queryFn: () => api.settings.get(),
    staleTime: 300_000,
  });
  const query = { from_code: fromCode || undefined, page, page_size: PAGE_SIZE };
  const rates = useQuery({
    queryKey: ['currencies', 'rates', query],
    queryFn: () => api.currency.rates(query),
    placeholderData: keepPreviousData,
  });
  const when = useOrgDateTime();
  const base = overview.data?.base_currency.code;
  const codes = (registry.data?.items ?? []).map((c) => c.code);

  return (
    <section aria-labelledby="currencies-title">
      <div className="screen-header">
        <h1 id="currencies-title">Currencies</h1>
        <RoleButton
          roles={[]}
          action="add exchange rates"
          className="primary"
          onClick={() => setAdding(true)}
        >
          Add a rate
        </RoleButton>
      </div>
      <ErrorNotice error={registry.error ?? overview.error ?? rates.error} />
      <div className="kpi-grid">
        <section className="card kpi" aria-label="Money settings">
          <h2>Money settings</h2>
          <dl>
            <div>
              <dt>Base currency</dt>
              <dd>{base ?? '…'}</dd>
            </div>
            <div>
              <dt>Your branch's currency</dt>
              <dd>{mine.data ? `${mine.data.currency.code} (${mine.data.branch_name})` : '…'}</dd>
            </div>
            <div>
              <dt>FX tolerance</dt>
              <dd className="num">{settings.data ? `${settings.data.fx_tolerance_pct}\u00a0%` : '…'}</dd>
            </div>
          </dl>
          <p className="muted">
            A till refuses a sale at an exchange rate that differs from the rate in force by more than the
            tolerance (Settings, admin).
          </p>
        </section>
        <section className="card" aria-label="Branch currencies">
          <h2>Branch currencies</h2>
          <DataTable
            label="Branch currencies"
            rows={overview.data?.branches}
            rowKey={(b) => b.branch_id}
            columns={[
              { key: 'branch', header: 'Branch', cell: (b) => b.branch_name },
              { key: 'currency', header: 'Currency', cell: (b) => b.currency_code },
            ]}
          />
        </section>
      </div>
      <section className="card" aria-label="Currency registry">
        <div className="screen-header">
          <h2>Currency registry</h2>
          <CheckboxField label="Show inactive" checked={inactive} onChange={setInactive} />
        </div>
        <DataTable
          label="Currency registry"
          rows={registry.data?.items}
          rowKey={(c) => c.code}
          columns={[
            { key: 'code', header: 'Code', cell: (c) => <strong>{c.code}</strong> },
            { key: 'name', header: 'Name', cell: (c) => c.name },
            { key: 'symbol', header: 'Symbol', cell: (c) => c.symbol },
            { key: 'exponent', header: 'Decimals', cell: (c) => c.exponent, align: 'end' },
            {
              key: 'status',
              header: 'Status',
              cell: (c) => (c.code === base ? 'Base' : c.is_active ? 'Active' : 'Inactive'),
            },
          ]}
        />
      </section>
      <section className="card" aria-label="Exchange rates">
        <div className="screen-header">
          <h2>Exchange rates</h2>
          <SelectField
            label="From currency"
            value={fromCode}
            onChange={(v) => {
              setFromCode(v);
              setPage(1);
            }}
            options={[
              { value: '', label: 'Every currency' },
              ...codes.filter((c) => c !== base).map((c) => ({ value: c, label: c })),
            ]}
          />
        </div>
        <DataTable
          label="Exchange rates"
          rows={rates.data?.items}
          rowKey={(r) => r.id}
          empty="No rates on file."
          columns={[
            { key: 'pair', header: 'Pair', cell: (r) => `1 ${r.from_code} =` },
            { key: 'rate', header: 'Rate', cell: (r) => r.rate, align: 'end' },
            { key: 'to', header: 'In', cell: (r) => r.to_code },
            { key: 'effective', header: 'Effective from', cell: (r) => when(r.effective_at) },
            { key: 'source', header: 'Source', cell: (r) => r.source },
            { key: 'created', header: 'Filed at', cell: (r) => when(r.created_at) },
          ]}
        />
        <Pager page={page} pageSize={PAGE_SIZE} total={rates.data?.total} noun="rates" onPage={setPage} />
      </section>
      {adding && <AddRateDialog codes={codes} base={base} onClose={() => setAdding(false)} />}
    </section>
  );
}
