import type { ReactNode } from 'react';

/** A line of a draft being written (an order, a transfer): one medicine, whatever else the draft asks. */
export interface MedicineLine {
  medicine_id: string;
  medicine_name: string;
}

/** A column after the medicine's name: its heading and what each line shows there. */
export interface LineColumn<L> {
  header: string;
  /** Right-aligned, for amounts and quantities. */
  numeric?: boolean;
  cell: (line: L, index: number) => ReactNode;
}

/**
 * The lines of a draft as a table to edit in place: the medicine, the draft's own columns, and a Remove button
 * named after the medicine; `empty` instead while there are no lines.
 */
export function LineTable<L extends MedicineLine>({
  label,
  empty,
  lines,
  columns,
  onRemove,
}: {
  label: string;
  empty: string;
  lines: readonly L[];
  columns: readonly LineColumn<L>[];
  onRemove: (index: number) => void;
}) {
  if (lines.length === 0) return <p className="muted">{empty}</p>;
  return (
    <table aria-label={label} className="line-table">
      <thead>
        <tr>
          <th scope="col">Medicine</th>
          {columns.map((c) => (
            <th key={c.header} scope="col" className={c.numeric ? 'num' : undefined}>
              {c.header}
            </th>
          ))}
          <th scope="col">
            <span className="visually-hidden">Remove</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {lines.map((l, i) => (
          <tr key={l.medicine_id}>
            <td>{l.medicine_name}</td>
            {columns.map((c) => (
              <td key={c.header} className={c.numeric ? 'num' : undefined}>
                {c.cell(l, i)}
              </td>
            ))}
            <td>
              <button type="button" aria-label={`Remove ${l.medicine_name}`} onClick={() => onRemove(i)}>
                Remove
              </button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
