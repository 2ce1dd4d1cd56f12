import type { Approval } from '@pharmacy/contracts';
import { useQueries } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { api } from '../api';
import { useCurrencyExponents, useFormatMoney } from '../ui/money';
import { formatMoney } from '../ui/money';
import type { Lookups } from './describe';
import { namedIds } from './describe';

/** Names of the medicines and invoice numbers of the sales a page of approvals names (cached for a while). */
export function useApprovalLookups(approvals: readonly Approval[] | undefined): Lookups {
  const ids = useMemo(() => namedIds(approvals ?? []), [approvals]);
  const medicines = useQueries({
    queries: ids.medicines.map((id) => ({
      queryKey: ['medicine', id],
      queryFn: () => api.medicines.get(id),
      staleTime: 600_000,
    })),
  });
  const sales = useQueries({
    queries: ids.sales.map((id) => ({
      queryKey: ['sale', id],
      queryFn: () => api.sales.get(id),
      staleTime: 600_000,
    })),
  });
  const exponentOf = useCurrencyExponents();
  const base = useFormatMoney();
  const medicineNames = new Map(
    medicines.flatMap((q) => (q.data ? [[q.data.id, q.data.name] as const] : [])),
  );
  const invoices = new Map(
    sales.flatMap((q) => (q.data ? [[q.data.id, q.data.invoice_number] as const] : [])),
  );
  const money = useCallback(
    (v: string | number, cur: string | undefined) => (cur ? formatMoney(v, exponentOf(cur)) : base(v)),
    [exponentOf, base],
  );
  return { medicine: (id) => medicineNames.get(id), sale: (id) => invoices.get(id), money };
}
