import {
  BOOK_KINDS,
  type BookFigures,
  type BookKindComparison,
  type BookRecord,
  type DayBook,
} from '@pharmacy/contracts';

/** The two sides of one kind: totals, and the records each side lacks or holds differently, by label. */
function compareKind(
  kind: BookKindComparison['kind'],
  till: BookFigures,
  central: BookFigures,
): BookKindComparison {
  const byId = (records: BookRecord[]) => new Map(records.map((r) => [r.id, r]));
  const atTill = byId(till.records);
  const atCentral = byId(central.records);
  const missingAtCentral = till.records.filter((r) => !atCentral.has(r.id)).map((r) => r.label);
  const missingAtTill = central.records.filter((r) => !atTill.has(r.id)).map((r) => r.label);
  const differing = till.records
    .filter((r) => {
      const other = atCentral.get(r.id);
      return other && (other.amount !== r.amount || (other.fingerprint ?? '') !== (r.fingerprint ?? ''));
    })
    .map((r) => r.label);
  return {
    kind,
    till: { count: till.count, total: till.total },
    central: { count: central.count, total: central.total },
    missing_at_central: missingAtCentral,
    missing_at_till: missingAtTill,
    differing,
    agree:
      till.count === central.count &&
      till.total === central.total &&
      missingAtCentral.length + missingAtTill.length + differing.length === 0,
  };
}

/** A till's day against central's, kind by kind. */
export function compareBooks(
  till: DayBook,
  central: DayBook,
): { agree: boolean; kinds: BookKindComparison[] } {
  const kinds = BOOK_KINDS.map((k) => compareKind(k, till.kinds[k], central.kinds[k]));
  return { agree: kinds.every((k) => k.agree), kinds };
}
