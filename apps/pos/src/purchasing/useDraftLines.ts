import { useState } from 'react';
import type { MedicineLine } from './LineTable';

/** `added` after `lines`, one line per medicine (the API takes each medicine once): a medicine already there keeps its line. */
export function mergeLines<L extends MedicineLine>(lines: readonly L[], added: readonly L[]): L[] {
  const out = [...lines];
  for (const line of added) if (!out.some((l) => l.medicine_id === line.medicine_id)) out.push(line);
  return out;
}

/** The lines of a draft (an order, a transfer) with their edits: add medicines, change a line, remove one. */
export function useDraftLines<L extends MedicineLine>() {
  const [lines, setLines] = useState<L[]>([]);
  return {
    lines,
    addLines: (added: readonly L[]) => setLines((ls) => mergeLines(ls, added)),
    setLine: (i: number, patch: Partial<L>) =>
      setLines((ls) => ls.map((l, j) => (j === i ? { ...l, ...patch } : l))),
    removeLine: (i: number) => setLines((ls) => ls.filter((_, j) => j !== i)),
  };
}
