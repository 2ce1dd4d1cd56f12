import type { ZReport } from '@pharmacy/contracts';
import { PrintButton } from '../print/PrintButton';
import { paymentMethodName } from '@pharmacy/contracts/payment-methods';
import { formatDateTime } from '../ui/format';
import { useFormatMoney } from '../ui/money';
import { ZTakings } from './ZTakings';

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div className="figure">
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  );
}

/** The Z-report (X-report while the session is open) as the server computed it. */
export function ZReportView({ report }: { report: ZReport }) {
  const money = useFormatMoney();
  const title = report.is_final ? `Z-report No. ${report.z_number}` : 'X-report (session still open)';
  const cur = report.currency_code;
  return (
    <section aria-labelledby="z-title" className="card z-report">
      <div className="screen-header">
        <h2 id="z-title">{title}</h2>
        <PrintButton documentType="report" referenceId={report.session_id} label="Print report" />
      </div>
      <p className="muted">
        {report.branch_name} · {report.user_name} · opened {formatDateTime(report.opened_at)}
        {report.closed_at ? ` · closed ${formatDateTime(report.closed_at)}` : ''} · breaks{' '}
        {report.break_minutes} min
      </p>
      <dl className="figures" aria-label="Summary">
        <Figure label="Sales" value={String(report.sales_count)} />
        <Figure label={`Gross sales (${cur})`} value={money(report.gross_sales)} />
        <Figure label="Returns" value={`${report.returns.count} · ${money(report.returns.total)}`} />
        <Figure label="Net sales" value={money(report.net_sales)} />
        <Figure label="VAT (net of refunds)" value={money(report.vat_total)} />
      </dl>
      <div className="z-grid">
        <table aria-label="Sales by payment method">
          <thead>
            <tr>
              <th scope="col">Method</th>
              <th scope="col">Count</th>
              <th scope="col" className="num">
                Amount
              </th>
            </tr>
          </thead>
          <tbody>
            {report.by_payment.map((p) => (
              <tr key={p.method}>
                <th scope="row">{paymentMethodName(p.method)}</th>
                <td>{p.count}</td>
                <td className="num">{money(p.amount)}</td>
              </tr>
            ))}
            {report.by_payment.length === 0 && (
              <tr>
                <td colSpan={3}>No sales.</td>
              </tr>
            )}
          </tbody>
        </table>
        <table aria-label="VAT by rate">
          <thead>
            <tr>
              <th scope="col">Rate</th>
              <th scope="col" className="num">
                Taxable
              </th>
              <th scope="col" className="num">
                VAT
              </th>
            </tr>
          </thead>
          <tbody>
            {report.vat_by_rate.map((v) => (
              <tr key={v.rate}>
                <th scope="row">{v.rate}%</th>
                <td className="num">{money(v.taxable_amount)}</td>
                <td className="num">{money(v.vat_amount)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <table aria-label="Discounts and returns">
          <tbody>
            <tr>
              <th scope="row">Line discounts</th>
              <td className="num">{money(report.discounts.line)}</td>
            </tr>
            <tr>
              <th scope="row">Sale discounts</th>
              <td className="num">{money(report.discounts.global)}</td>
            </tr>
            <tr>
              <th scope="row">Coupons</th>
              <td className="num">{money(report.discounts.coupon)}</td>
            </tr>
            <tr>
              <th scope="row">Returns ({report.returns.count})</th>
              <td className="num">{money(report.returns.total)}</td>
            </tr>
            {Object.entries(report.returns.by_method).map(([method, amount]) => (
              <tr key={method}>
                <th scope="row">Refunded by {paymentMethodName(method).toLowerCase()}</th>
                <td className="num">{money(amount)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <ZTakings report={report} />
        <table aria-label="Cash drawer">
          <tbody>
            <tr>
              <th scope="row">Opening float</th>
              <td className="num">{money(report.opening_float)}</td>
            </tr>
            <tr>
              <th scope="row">Cash sales</th>
              <td className="num">{money(report.cash_sales)}</td>
            </tr>
            <tr>
              <th scope="row">Cash paid on account</th>
              <td className="num">{money(report.cash_account_payments)}</td>
            </tr>
            <tr>
              <th scope="row">Cash refunds</th>
              <td className="num">{money(report.cash_refunds)}</td>
            </tr>
            <tr>
              <th scope="row">Expected cash</th>
              <td className="num">{money(report.expected_cash)}</td>
            </tr>
            <tr>
              <th scope="row">Counted cash</th>
              <td className="num">{report.counted_cash === null ? '—' : money(report.counted_cash)}</td>
            </tr>
            <tr>
              <th scope="row">Variance</th>
              <td className={`num ${report.variance?.startsWith('-') ? 'field-error' : ''}`}>
                {report.variance === null ? '—' : money(report.variance)}
              </td>
            </tr>
          </tbody>
        </table>
      </div>
    </section>
  );
}
