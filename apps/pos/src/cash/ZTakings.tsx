import type { ZReport } from '@pharmacy/contracts';
import { paymentMethodName } from '@pharmacy/contracts/payment-methods';
import { type Column, DataTable } from '../ui/DataTable';
import { useFormatMoney } from '../ui/money';

type Money = ReturnType<typeof useFormatMoney>;
type Tender = ZReport['tenders_by_currency'][number];
type Cash = ZReport['cash_by_currency'][number];
type Counted = NonNullable<ZReport['counted_by_currency']>[number];
type AccountLine = { label: string; amount: ZReport['account_payments']['total'] };

/** "EUR at 1.25" for a foreign currency, "USD" for the base. */
const currencyAt = (report: ZReport, c: { currency_code: string; rate: number | string }) =>
  c.currency_code === report.currency_code ? c.currency_code : `${c.currency_code} at ${c.rate}`;

const tenderColumns = (report: ZReport, money: Money): Column<Tender>[] => [
  {
    key: 'tender',
    header: 'Tender',
    rowHeader: true,
    cell: (l) => `${paymentMethodName(l.method)} ${l.currency_code}`,
  },
  { key: 'rate', header: 'Rate', cell: (l) => (l.currency_code === report.currency_code ? '—' : l.rate) },
  { key: 'amount', header: 'Amount', align: 'end', cell: (l) => money(l.amount, l.currency_code) },
  { key: 'base', header: `In ${report.currency_code}`, align: 'end', cell: (l) => money(l.base_amount) },
];

const cashColumns = (report: ZReport, money: Money): Column<Cash>[] => [
  { key: 'cash', header: 'Cash', rowHeader: true, cell: (c) => currencyAt(report, c) },
  { key: 'expected', header: 'Expected', align: 'end', cell: (c) => money(c.expected, c.currency_code) },
  { key: 'base', header: `In ${report.currency_code}`, align: 'end', cell: (c) => money(c.expected_base) },
];

const countedColumns = (report: ZReport, money: Money): Column<Counted>[] => [
  { key: 'counted-in', header: 'Counted', rowHeader: true, cell: (c) => currencyAt(report, c) },
  { key: 'expected', header: 'Expected', align: 'end', cell: (c) => money(c.expected, c.currency_code) },
  { key: 'counted', header: 'Counted', align: 'end', cell: (c) => money(c.counted, c.currency_code) },
  { key: 'variance', header: 'Variance', align: 'end', cell: (c) => money(c.variance, c.currency_code) },
  { key: 'base', header: `In ${report.currency_code}`, align: 'end', cell: (c) => money(c.variance_base) },
];

const accountColumns = (money: Money): Column<AccountLine>[] => [
  { key: 'payment', header: 'Payment', rowHeader: true, cell: (p) => p.label },
  { key: 'amount', header: 'Amount', align: 'end', cell: (p) => money(p.amount) },
];

/**
 * What the session kept per currency and tender (sales net of change and refunds, payments on account), at
 * the rate each was converted at, the cash the drawer should hold in each currency and, once closed, what was
 * counted in each (issue 27.4).
 */
export function ZTakings({ report }: { report: ZReport }) {
  const money = useFormatMoney();
  const { account_payments: paid } = report;
  const accountLines: AccountLine[] = [
    { label: `Paid on account (${paid.count})`, amount: paid.total },
    ...paid.by_method.map((p) => ({
      label: `${paymentMethodName(p.method)} (${p.count})`,
      amount: p.amount,
    })),
  ];
  return (
    <>
      <DataTable
        label="Takings by currency"
        columns={tenderColumns(report, money)}
        rows={report.tenders_by_currency}
        rowKey={(l) => `${l.currency_code} ${l.rate} ${l.method}`}
        empty="Nothing taken yet."
      />
      <DataTable
        label="Expected cash by currency"
        columns={cashColumns(report, money)}
        rows={report.cash_by_currency}
        rowKey={(c) => `${c.currency_code} ${c.rate}`}
      />
      {report.counted_by_currency && (
        <DataTable
          label="Counted cash by currency"
          className="z-wide"
          columns={countedColumns(report, money)}
          rows={report.counted_by_currency}
          rowKey={(c) => c.currency_code}
        />
      )}
      <DataTable
        label="Payments on account"
        columns={accountColumns(money)}
        rows={accountLines}
        rowKey={(p) => p.label}
      />
    </>
  );
}
