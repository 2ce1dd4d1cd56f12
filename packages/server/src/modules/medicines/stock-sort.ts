/**
 * A page of medicines sorted by the branch's stock, without sorting the whole catalogue. Most medicines have
 * no stock in a branch (16,700 of 100,000 in the large demo), so the order is three segments: stocked
 * (above 0), none (0), short (below 0, a sale under negative_stock_policy 'allow'); ascending reads them the
 * other way round. The stocked and short segments come from the branch's batches (one pass over
 * batches_fefo, then each medicine by id), sorted on their own; the zero segment is the catalogue in name
 * order from its index, less the medicines that have stock. A segment's size is counted only when a page
 * starts past its end. Ties: name, then id, as the other sorts.
 */
export interface StockSortInput {
  /** The branch's sellable stock per medicine: `SELECT medicine_id, qty …` with :branch and :day. */
  branchStock: string;
  /** The filter's conditions on `m` (may name :category). */
  conditions: string[];
  /** INDEXED BY … of the catalogue in name order, or ''. */
  nameIndex: string;
  desc: boolean;
  limit: number;
  offset: number;
  /** Rows of a statement with the request's named parameters (plus :limit and :offset). */
  rows: (text: string, params: { limit: number; offset: number }) => Array<{ id: string; stock: number }>;
  /** A count(*) statement's value with the request's named parameters. */
  count: (text: string) => number;
  /** How many medicines match the filter. */
  total: () => number;
}

export function stockSortedPage(q: StockSortInput): Array<{ id: string; stock: number }> {
  const d = q.desc ? 'DESC' : 'ASC';
  const and = (extra: string) => `WHERE ${[extra, ...q.conditions].join(' AND ')}`;
  const signed = (sign: '>' | '<') => ({
    page: `SELECT m.id AS id, s.qty AS stock FROM (${q.branchStock}) s CROSS JOIN medicines m ON m.id = s.medicine_id
      ${and(`s.qty ${sign} 0`)} ORDER BY s.qty ${d}, m.name COLLATE NOCASE ${d}, m.id ${d} LIMIT :limit OFFSET :offset`,
    count: `SELECT count(*) FROM (${q.branchStock}) s CROSS JOIN medicines m ON m.id = s.medicine_id ${and(`s.qty ${sign} 0`)}`,
  });
  const above = signed('>');
  const below = signed('<');
  const zero = {
    page: `SELECT m.id AS id, 0 AS stock FROM medicines m ${q.nameIndex}
      ${and(`m.id NOT IN (SELECT medicine_id FROM (${q.branchStock}) WHERE qty <> 0)`)}
      ORDER BY m.name COLLATE NOCASE ${d}, m.id ${d} LIMIT :limit OFFSET :offset`,
    count: '',
  };
  const sizeOf = (seg: typeof zero) =>
    seg === zero ? q.total() - q.count(above.count) - q.count(below.count) : q.count(seg.count);
  const segments = q.desc ? [above, zero, below] : [below, zero, above];
  const out: Array<{ id: string; stock: number }> = [];
  let offset = q.offset;
  for (const seg of segments) {
    const want = q.limit - out.length;
    if (want <= 0) break;
    const got = q.rows(seg.page, { limit: want, offset });
    out.push(...got);
    if (out.length >= q.limit) break;
    // This segment ended inside the page (the next starts at its beginning) or before it (skip its size).
    offset = got.length > 0 ? 0 : Math.max(0, offset - sizeOf(seg));
  }
  return out;
}
