import type { ReactNode } from 'react';

export interface Column<Row> {
  /** Stable id; also the server's sort key when `sortable`. */
  key: string;
  header: string;
  cell: (row: Row) => ReactNode;
  /** Numbers and money are right-aligned. */
  align?: 'end';
  sortable?: boolean;
  /** A column a narrow (1024-pixel) screen leaves out so the rest and the row actions fit. */
  secondary?: boolean;
  /** The cell that names its row (a `th scope="row"`): what a screen reader reads before each value. */
  rowHeader?: boolean;
}

const cellClass = (c: { align?: 'end'; secondary?: boolean }) =>
  [c.align === 'end' && 'num', c.secondary && 'secondary'].filter(Boolean).join(' ') || undefined;

export interface Sort {
  key: string;
  dir: 'asc' | 'desc';
}

interface DataTableProps<Row> {
  /** The table's accessible name. */
  label: string;
  columns: readonly Column<Row>[];
  rows: readonly Row[] | undefined;
  rowKey: (row: Row) => string;
  sort?: Sort | undefined;
  onSort?: ((sort: Sort) => void) | undefined;
  /** Shown in place of rows when the list is empty (not while it loads). */
  empty?: string;
  rowClassName?: (row: Row) => string | undefined;
  /** The table's own class (its place in a grid). */
  className?: string;
}

/**
 * A semantic table whose sorting and paging the server does (lists run to 100,000 rows, so the
 * browser never holds them all): a sortable header is a button that asks for the other order,
 * and `aria-sort` says which order is shown.
 */
export function DataTable<Row>({
  label,
  columns,
  rows,
  rowKey,
  sort,
  onSort,
  empty = 'Nothing to show.',
  rowClassName,
  className,
}: DataTableProps<Row>) {
  return (
    <>
      <table aria-label={label} className={className}>
        <thead>
          <tr>
            {columns.map((c) => (
              <th
                key={c.key}
                scope="col"
                className={cellClass(c)}
                aria-sort={
                  sort?.key === c.key ? (sort.dir === 'asc' ? 'ascending' : 'descending') : undefined
                }
              >
                {c.sortable && onSort ? (
                  <button
                    type="button"
                    className="sort-button"
                    onClick={() =>
                      onSort({ key: c.key, dir: sort?.key === c.key && sort.dir === 'asc' ? 'desc' : 'asc' })
                    }
                  >
                    {c.header}
                    <span aria-hidden="true">{sortMark(sort, c.key)}</span>
                  </button>
                ) : (
                  c.header
                )}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows?.map((row) => (
            <tr key={rowKey(row)} className={rowClassName?.(row)}>
              {columns.map((c) =>
                c.rowHeader ? (
                  <th key={c.key} scope="row" className={cellClass(c)}>
                    {c.cell(row)}
                  </th>
                ) : (
                  <td key={c.key} className={cellClass(c)}>
                    {c.cell(row)}
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
      {rows && rows.length === 0 && <p>{empty}</p>}
    </>
  );
}

function sortMark(sort: Sort | undefined, key: string): string {
  if (sort?.key !== key) return ' ↕';
  return sort.dir === 'asc' ? ' ▲' : ' ▼';
}

interface PagerProps {
  page: number;
  pageSize: number;
  total: number | undefined;
  /** What is counted, plural: "users", "medicines". */
  noun: string;
  onPage: (page: number) => void;
}

/** Previous/next over a server-paginated list, with where the user is. */
export function Pager({ page, pageSize, total, noun, onPage }: PagerProps) {
  const pages = total === undefined ? 1 : Math.max(1, Math.ceil(total / pageSize));
  return (
    <div className="pager">
      <button type="button" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous page
      </button>
      <span>
        Page {page} of {pages} ({total ?? 0} {noun})
      </span>
      <button type="button" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        Next page
      </button>
    </div>
  );
}
