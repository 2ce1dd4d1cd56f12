import type { ZReport } from '@pharmacy/contracts';
import { methodLabel } from '../sell/receipt';
import { useFormatMoney } from '../ui/money';

/**
 * What the session kept per currency and tender (sales net of change and refunds, payments on account), at
 * the rate each was converted at, and the cash the drawer should hold in each currency.
 */
export function ZTakings({ report }: { report: ZReport }) {
  const money = useFormatMoney();
  return (
    <>
      <table aria-label="Takings by currency">
        <thead>
          <tr>
            <th scope="col">Tender</th>
            <th scope="col">Rate</th>
            <th scope="col" className="num">
              Amount
            </th>
            <th scope="col" className="num">
              In {report.currency_code}
            </th>
          </tr>
        </thead>
        <tbody>
          {report.tenders_by_currency.map((l) => (
            <tr key={`${l.currency_code} ${l.rate} ${l.method}`}>
              <th scope="row">
                {methodLabel(l.method)} {l.currency_code}
              </th>
              <td>{l.currency_code === report.currency_code ? '—' : l.rate}</td>
              <td className="num">{money(l.amount, l.currency_code)}</td>
              <td className="num">{money(l.base_amount)}</td>
            </tr>
          ))}
          {report.tenders_by_currency.length === 0 && (
            <tr>
              <td colSpan={4}>Nothing taken yet.</td>
            </tr>
          )}
        </tbody>
      </table>
      <table aria-label="Expected cash by currency">
        <thead>
          <tr>
            <th scope="col">Cash</th>
            <th scope="col" className="num">
              Expected
            </th>
            <th scope="col" className="num">
              In {report.currency_code}
            </th>
          </tr>
        </thead>
        <tbody>
          {report.cash_by_currency.map((c) => (
            <tr key={`${c.currency_code} ${c.rate}`}>
              <th scope="row">
                {c.currency_code}
                {c.currency_code === report.currency_code ? '' : ` at ${c.rate}`}
              </th>
              <td className="num">{money(c.expected, c.currency_code)}</td>
              <td className="num">{money(c.expected_base)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {report.counted_by_currency && (
        <CountedByCurrency report={report} counted={report.counted_by_currency} />
      )}
      <table aria-label="Payments on account">
        <tbody>
          <tr>
            <th scope="row">Paid on account ({report.account_payments.count})</th>
            <td className="num">{money(report.account_payments.total)}</td>
          </tr>
          {report.account_payments.by_method.map((p) => (
            <tr key={p.method}>
              <th scope="row">
                {methodLabel(p.method)} ({p.count})
              </th>
              <td className="num">{money(p.amount)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

/** The close's count per currency (issue 27.4): expected against counted, and each in the base currency. */
function CountedByCurrency({
  report,
  counted,
}: {
  report: ZReport;
  counted: NonNullable<ZReport['counted_by_currency']>;
}) {
  const money = useFormatMoney();
  return (
    <table aria-label="Counted cash by currency" className="z-wide">
      <thead>
        <tr>
          <th scope="col">Counted</th>
          <th scope="col" className="num">
            Expected
          </th>
          <th scope="col" className="num">
            Counted
          </th>
          <th scope="col" className="num">
            Variance
          </th>
          <th scope="col" className="num">
            In {report.currency_code}
          </th>
        </tr>
      </thead>
      <tbody>
        {counted.map((c) => (
          <tr key={c.currency_code}>
            <th scope="row">
              {c.currency_code}
              {c.currency_code === report.currency_code ? '' : ` at ${c.rate}`}
            </th>
            <td className="num">{money(c.expected, c.currency_code)}</td>
            <td className="num">{money(c.counted, c.currency_code)}</td>
            <td className="num">{money(c.variance, c.currency_code)}</td>
            <td className="num">{money(c.variance_base)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
