import { allows, ORGANISATION_READERS } from '@pharmacy/contracts/roles';
import { BranchFilter } from '../branch/BranchFilter';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, Redirect, Route, Switch, useLocation } from 'wouter';
import { api } from '../api';
import { useUser } from '../session/SessionProvider';
import { TextField } from '../ui/fields';
import { defaultWindow, type ReportFilters } from './csv';
import { InventoryReportView, PurchasesReportView } from './StockReports';
import { PharmacistReportView, SalesReportView } from './SalesReports';
import { VatReportView } from './VatReport';

const TABS = [
  { path: '/sales', label: 'Sales', dated: true },
  { path: '/vat', label: 'VAT', dated: true },
  { path: '/inventory', label: 'Inventory', dated: false },
  { path: '/purchases', label: 'Purchases', dated: true },
  { path: '/pharmacists', label: 'By pharmacist', dated: true },
] as const;

/** Reports: sales, VAT, inventory valuation, purchases and sales by pharmacist, over shared filters. */
export function ReportsScreen() {
  const me = useUser();
  const [location] = useLocation();
  const settings = useQuery({
    queryKey: ['settings'],
    queryFn: () => api.settings.get(),
    staleTime: 300_000,
  });
  const zone = settings.data?.timezone;
  const [filters, setFilters] = useState<ReportFilters>(() => defaultWindow(undefined));
  // The default window is the last 30 days of the organisation's calendar, once its time zone is known.
  useEffect(() => {
    if (zone) setFilters((f) => ({ ...defaultWindow(zone), branch_id: f.branch_id }));
  }, [zone]);
  const orgWide = allows(ORGANISATION_READERS, me.role);
  const tab = TABS.find((t) => location === t.path || location.startsWith(`${t.path}/`));
  const set = (key: keyof ReportFilters) => (value: string) => setFilters((f) => ({ ...f, [key]: value }));

  return (
    <section aria-labelledby="reports-title">
      <div className="screen-header">
        <h1 id="reports-title">Reports</h1>
      </div>
      <nav aria-label="Reports" className="report-tabs">
        {TABS.map((t) => (
          <Link
            key={t.path}
            href={t.path}
            className="button-link"
            aria-current={tab?.path === t.path ? 'page' : undefined}
          >
            {t.label}
          </Link>
        ))}
      </nav>
      <search className="filters">
        {tab?.dated !== false && (
          <>
            <TextField label="From" type="date" value={filters.from_date} onChange={set('from_date')} />
            <TextField label="To" type="date" value={filters.to_date} onChange={set('to_date')} />
          </>
        )}
        {orgWide && <BranchFilter value={filters.branch_id} onChange={set('branch_id')} />}
      </search>
      <Switch>
        <Route path="/sales">
          <SalesReportView filters={filters} />
        </Route>
        <Route path="/vat">
          <VatReportView filters={filters} />
        </Route>
        <Route path="/inventory">
          <InventoryReportView filters={filters} />
        </Route>
        <Route path="/purchases">
          <PurchasesReportView filters={filters} />
        </Route>
        <Route path="/pharmacists">
          <PharmacistReportView filters={filters} />
        </Route>
        <Route>
          <Redirect to="/sales" replace />
        </Route>
      </Switch>
    </section>
  );
}
