const NUMBER = /^-?\d+(\.\d+)?$/;

/**
 * Text a spreadsheet could run as a formula (issue 26 L1): a cell starting with = + - @ (or a tab or carriage
 * return), or a part of it after a ; or , separator doing so, for a spreadsheet that splits cells on ; (many
 * European locales) or splits a pasted cell. Numbers (-12.50) are not formulas.
 */
const FORMULA = /(?:^|[;,]\s*)[=+\-@]|^[\t\r]/;

/**
 * One CSV cell: text that a spreadsheet would run as a formula is prefixed with a quote, and quoted whole so no
 * separator splits it; any other text with a separator, a quote or a line break is quoted.
 */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  const formula = FORMULA.test(text) && !NUMBER.test(text);
  if (formula) text = `'${text}`;
  return formula || /[",;\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** RFC 4180 CSV with a header row (the keys of the rows, or `columns` when there are none). */
export function toCsv(rows: ReadonlyArray<Record<string, unknown>>, columns?: readonly string[]): string {
  const header = columns ?? Object.keys(rows[0] ?? {});
  const lines = [header.map(csvCell).join(',')];
  for (const row of rows) lines.push(header.map((c) => csvCell(row[c])).join(','));
  return `${lines.join('\r\n')}\r\n`;
}
